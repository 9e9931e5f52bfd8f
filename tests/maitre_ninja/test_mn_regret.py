"""The regret bot: its fight search nears the game value, keeps to its budget (an injected clock),
is a pure function of its seed given a count, and beats greedy in a seeded sample."""

from __future__ import annotations

import pytest

from tests.clocks import FakeClock, NoClock
from tests.maitre_ninja.helpers import new
from tourney.engine.bots import bot_infos, make_bot
from tourney.engine.core import Budget, DecisionRequest
from tourney.engine.games.maitre_ninja import GAME
from tourney.engine.games.maitre_ninja.bots import RegretBot, distinct_rows, regret_match, solve_fight, win_matrix
from tourney.engine.referee import play_match

SUPPLY = (4, 4, 4)
LENGTH = {1: 2, 2: 5, 3: 9, 4: 12}




def guarantees(rank: int, iterations: int) -> tuple[float, float]:
    """(win chance the searched attack guarantees, win chance the searched defence concedes at most)."""
    mix = regret_match(rank, LENGTH[rank], SUPPLY, iterations, Budget(NoClock(), None, None))
    win = win_matrix(rank, LENGTH[rank], SUPPLY)
    rows = range(len(distinct_rows(rank, LENGTH[rank], SUPPLY)))
    attack = min(sum(p * win[a][k] for a, p in enumerate(mix.attacker_probs)) for k in rows)
    defence = max(sum(p * line[k] for k, p in enumerate(mix.defender_probs)) for line in win)
    return attack, defence


@pytest.mark.parametrize("rank", [1, 2, 3, 4])
def test_the_default_count_brings_both_sides_within_a_point_of_the_game_value(rank: int) -> None:
    value = solve_fight(rank, LENGTH[rank], SUPPLY).value
    attack, defence = guarantees(rank, 300)
    assert value - 0.01 <= attack <= value + 1e-9
    assert value - 1e-9 <= defence <= value + 0.01


def test_more_rounds_search_closer_to_the_value() -> None:
    value = solve_fight(4, 12, SUPPLY).value
    few = guarantees(4, 5)
    many = guarantees(4, 300)
    assert many[1] - many[0] < few[1] - few[0]
    assert few[1] - value > 0.002  # five rounds are visibly short of the equilibrium


def requests_at_rank(rank: int, deadline_s: float | None = None) -> tuple[DecisionRequest, DecisionRequest]:
    state = new(2)
    state.ranks[0] = rank
    return tuple(  # type: ignore[return-value]
        DecisionRequest(GAME, s, state.observe(s), state.legal_actions(s), deadline_s, state) for s in (0, 1)
    )


@pytest.mark.parametrize("role", [0, 1], ids=["attacker", "defender"])
def test_given_20_ms_it_never_takes_40(role: int) -> None:
    clock = FakeClock(step=0.001)
    bot = RegretBot(seed=1, ms=20, clock=clock)
    start = clock.now
    bot.act(requests_at_rank(4)[role])
    assert clock.now - start < 0.040
    assert bot.last_mix is not None and bot.last_mix.iterations >= 10  # it used the time


def test_the_request_deadline_stops_a_long_count() -> None:
    clock = FakeClock(step=0.001)
    bot = RegretBot(seed=1, iterations=1_000_000, clock=clock)
    start = clock.now
    bot.act(requests_at_rank(4, deadline_s=0.02)[0])
    assert clock.now - start < 0.02


def test_a_count_never_reads_the_clock_and_is_the_default() -> None:
    bot = RegretBot(seed=1, clock=NoClock())
    assert (bot.iterations, bot.ms) == (300, None)
    attack, defend = requests_at_rank(3)
    bot.act(attack)
    bot.act(defend)


def test_the_defender_lays_the_row_it_chose_card_by_card() -> None:
    state = new(2)
    state.ranks[0] = 3
    bot = RegretBot(seed=5, iterations=50)
    attacker = make_bot("nash", GAME, 1)
    seats = state.to_act()
    first = {s: state.legal_actions(s) for s in seats}
    requests = {s: DecisionRequest(GAME, s, state.observe(s), first[s], None, state) for s in seats}
    state.apply({0: first[0][attacker.act(requests[0])], 1: first[1][bot.act(requests[1])]})
    assert bot.plan is not None
    planned = bot.plan[1]
    while list(state.to_act()) == [1]:
        legal = state.legal_actions(1)
        state.apply({1: legal[bot.act(DecisionRequest(GAME, 1, state.observe(1), legal, None, state))]})
    assert tuple(state.history[-1].row) == planned


def match_choices(seed: int) -> list[int]:
    log: list[int] = []

    class Recorder:
        def __init__(self, bot: object) -> None:
            self.bot = bot

        def act(self, request: DecisionRequest) -> int:
            choice: int = self.bot.act(request)  # type: ignore[attr-defined]
            log.append(choice)
            return choice

    play_match(GAME.id, [Recorder(make_bot("regret:iterations=40", GAME, seed)), make_bot("greedy", GAME, 2)], 9)
    return log


def test_same_seed_and_count_give_the_same_match() -> None:
    first = match_choices(7)
    assert len(first) > 10
    assert match_choices(7) == first


def test_it_beats_greedy_in_a_seeded_sample_of_duplicate_pairs() -> None:
    """A smoke test: the real figure comes from `tourney run` (README). These 60 duplicate pairs
    score 0.61 (seeded, so every run); 0.55 still says "better than greedy" by more than one
    standard error (0.04) without pinning the exact sample."""
    points = 0.0
    games = 0
    for seed in range(60):
        for seat in (0, 1):
            bots = [make_bot("greedy", GAME, 100 + seed), make_bot("regret:iterations=100", GAME, 200 + seed)]
            if seat == 0:
                bots.reverse()
            points += play_match(GAME.id, bots, seed).points(seat)
            games += 1
    assert points / games >= 0.55


def test_tourney_games_lists_it_with_its_options() -> None:
    info = {i.name: i for i in bot_infos(GAME)}["regret"]
    assert "regret matching" in info.description
    assert [o.name for o in info.options] == ["ms", "iterations"]
