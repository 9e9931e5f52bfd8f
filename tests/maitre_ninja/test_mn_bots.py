"""The nash bot: equilibrium values (§3.3), exploitability, and the bots through the registry."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tests.maitre_ninja.helpers import new
from tourney.engine.bots import bot_names, make_bot
from tourney.engine.core import DecisionRequest
from tourney.engine.games.maitre_ninja import GAME, MaitreNinjaState
from tourney.engine.games.maitre_ninja.actions import attack_lines, parry_rows
from tourney.engine.games.maitre_ninja.bots import BestResponseBot, NashBot, row_masks, solve_fight
from tourney.engine.games.maitre_ninja.rules import codes_of, resolve
from tourney.engine.referee import play_match

SUPPLY = (4, 4, 4)
LENGTH = {1: 2, 2: 5, 3: 9, 4: 12}
VALUE = {1: 1 / 3, 2: 1 / 2, 3: 0.611, 4: 0.925}
RANKS = (1, 2, 3, 4)


@pytest.mark.parametrize("rank", RANKS)
def test_equilibrium_attacker_win_value(rank: int) -> None:
    sol = solve_fight(rank, LENGTH[rank], SUPPLY)
    assert abs(sol.value - VALUE[rank]) <= 0.01
    assert abs(sum(sol.attacker_probs) - 1) < 1e-9 and min(sol.attacker_probs) >= 0
    assert abs(sum(sol.defender_probs) - 1) < 1e-9 and min(sol.defender_probs) > 0
    assert len(sol.attacker_probs) == len(attack_lines(rank))


@pytest.mark.parametrize(("rank", "best_row_vs_uniform"), [(1, Fraction(1, 3)), (2, Fraction(1, 3)),
                                                           (3, Fraction(10, 27)), (4, Fraction(131, 162))])
def test_best_row_against_a_uniform_attacker(rank: int, best_row_vs_uniform: Fraction) -> None:
    n_lines = len(attack_lines(rank))
    most_beaten = max(mask.bit_count() for mask in row_masks(rank, LENGTH[rank], SUPPLY))
    assert Fraction(n_lines - most_beaten, n_lines) == best_row_vs_uniform


@pytest.mark.parametrize("rank", RANKS)
def test_matrix_agrees_with_the_resolution_rules(rank: int) -> None:
    rows = parry_rows(LENGTH[rank], SUPPLY)
    masks = row_masks(rank, LENGTH[rank], SUPPLY)
    lines = attack_lines(rank)
    step = max(1, len(rows) // 300)
    for r in range(0, len(rows), step):
        for a, line in enumerate(lines):
            defender_wins = not resolve(codes_of(line), rows[r].row).attacker_wins
            assert bool((masks[r] >> a) & 1) == defender_wins


@pytest.mark.parametrize("rank", RANKS)
def test_exact_exploitability_is_zero(rank: int) -> None:
    """No pure strategy, against either side of nash's mix, does better than the game value."""
    sol = solve_fight(rank, LENGTH[rank], SUPPLY)
    worst_for_nash_attack = min(sol.attacker_win_vs_row(mask) for mask in set(row_masks(rank, LENGTH[rank], SUPPLY)))
    best_against_nash_defence = max(sol.attacker_win_with_line(a) for a in range(len(attack_lines(rank))))
    assert worst_for_nash_attack >= sol.value - 1e-7
    assert best_against_nash_defence <= sol.value + 1e-7
    # ... and the value is tight: the best responses reach it exactly.
    assert worst_for_nash_attack == pytest.approx(sol.value, abs=1e-7)
    assert best_against_nash_defence == pytest.approx(sol.value, abs=1e-7)


def fight_state(rank: int) -> MaitreNinjaState:
    state = new(2, 0)
    state.ranks[0] = rank
    return state


def request(state: MaitreNinjaState, seat: int) -> DecisionRequest:
    return DecisionRequest(GAME, seat, state.observe(seat), state.legal_actions(seat), None, state)


def attacker_wins_one_fight(rank: int, attacker: object, defender: object) -> bool:
    """One fight played through the state: the line and first parry at once, then parry by parry."""
    state = fight_state(rank)
    while not state.history:
        joint = {}
        for seat, bot in ((0, attacker), (1, defender)):
            if seat in state.to_act():
                req = request(state, seat)
                joint[seat] = req.legal[bot.act(req)]  # type: ignore[attr-defined]
        state.apply(joint)
    return state.history[-1].resolution.attacker_wins


def attacker_win_rate(rank: int, attacker: object, defender: object, fights: int) -> float:
    return sum(attacker_wins_one_fight(rank, attacker, defender) for _ in range(fights)) / fights


@pytest.mark.parametrize("rank", RANKS)
def test_sampled_best_response_gains_nothing(rank: int) -> None:
    fights = 4000
    v = solve_fight(rank, LENGTH[rank], SUPPLY).value
    sigma = (v * (1 - v) / fights) ** 0.5
    br_attacking = attacker_win_rate(rank, BestResponseBot(), NashBot(seed=rank), fights)
    nash_attacking = attacker_win_rate(rank, NashBot(seed=10 + rank), BestResponseBot(), fights)
    assert br_attacking <= v + 4 * sigma
    assert nash_attacking >= v - 4 * sigma


@pytest.mark.parametrize("rank", RANKS)
def test_nash_holds_its_value_against_random(rank: int) -> None:
    fights = 3000
    v = solve_fight(rank, LENGTH[rank], SUPPLY).value
    sigma = max((v * (1 - v) / fights) ** 0.5, 0.005)
    random_bot = make_bot("random", GAME, 3)
    assert attacker_win_rate(rank, NashBot(seed=1), random_bot, fights) >= v - 4 * sigma
    assert attacker_win_rate(rank, random_bot, NashBot(seed=2), fights) <= v + 4 * sigma


def test_nash_is_seeded_and_mixes() -> None:
    state = fight_state(3)
    req = request(state, 0)
    a, b = NashBot(seed=5), NashBot(seed=5)
    picks = [a.act(req) for _ in range(200)]
    assert picks == [b.act(req) for _ in range(200)]
    assert len(set(picks)) > 3  # a mixed strategy, not a pure one


def test_game_bots_are_found_by_the_registry() -> None:
    assert {"random", "ismcts", "nash", "best_response"} <= set(bot_names(GAME))
    assert isinstance(make_bot("nash", GAME, 1), NashBot)


def test_a_four_player_match_with_nash_random_and_ismcts() -> None:
    seats = [make_bot(spec, GAME, i) for i, spec in enumerate(["random", "nash", "ismcts:iterations=30", "nash"])]
    result = play_match("maitre-ninja", seats, seed=11)
    assert result.termination == "normal"
    assert all(not stats.faults for stats in result.seats)
    assert result.ranking[0]


def test_determinize_keeps_the_public_record_and_resamples_only_hidden_cards() -> None:
    rng = random.Random(0)
    for seed in range(30):
        state = GAME.new_state(seed, players=3)
        while not state.is_over() and not any(rec.face_down for rec in state.history):
            state.apply({s: state.legal_actions(s)[rng.randrange(len(state.legal_actions(s)))]
                         for s in state.to_act()})
        hidden = [rec for rec in state.history if rec.face_down]
        if not hidden:
            continue
        owner = hidden[0].attacker
        viewer = (owner + 1) % 3
        tails = set()
        for k in range(20):
            twin = state.determinize(viewer, random.Random(k))
            assert twin.public_view() == state.public_view()
            assert twin.observe(viewer) == state.observe(viewer)
            rec = twin.history[hidden[0].number - 1]
            assert rec.line.cards[: rec.resolution.revealed] == hidden[0].line.cards[: rec.resolution.revealed]
            tails.add(rec.line)
            assert state.determinize(owner, random.Random(k)).observe(owner) == state.observe(owner)
        assert len(tails) > 1
        return
    raise AssertionError("no game left a card face down")


def test_nash_solves_a_configured_row_length() -> None:
    config = {"parries_by_rank": {1: 3, 2: 5, 3: 9, 4: 12}}
    seats = [make_bot("nash", GAME, 1), make_bot("best_response", GAME, 2)]
    result = play_match("maitre-ninja", seats, seed=4, config=config)
    assert all(not stats.faults for stats in result.seats)
    # Three parries against one card: the defender can cover all three codes, so the attacker never wins.
    assert solve_fight(1, 3, SUPPLY).value == pytest.approx(0.0, abs=1e-9)
