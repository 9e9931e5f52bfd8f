"""Random games for every player count (hypothesis), determinism, hidden information, rendering."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.maitre_ninja.helpers import lay
from tourney.engine.bots import make_bot
from tourney.engine.games.maitre_ninja import GAME, AttackLine, MaitreNinjaState, ParryRow
from tourney.engine.games.maitre_ninja.actions import attack_line_index, next_parries
from tourney.engine.games.maitre_ninja.bots import code_levels, defender_wins_mask
from tourney.engine.games.maitre_ninja.data import ATTACK_LEVELS, FIGHT_CAP, MAITRE, PARRIES_BY_RANK, PARRY_TYPES
from tourney.engine.games.maitre_ninja.rules import FINAL_ROUND, NORMAL
from tourney.engine.referee import play_match

_LETTER = {"DO": "D", "BL": "B", "JU": "J"}


def play_random_game(seed: int, players: int) -> MaitreNinjaState:
    """Play a whole game with uniformly random commitments, checking every fight on the way."""
    state = GAME.new_state(seed, players=players)
    rng = random.Random(seed)
    while not state.is_over():
        before_ranks = list(state.ranks)
        before_attacks = list(state.attacks_made)
        phase, att, dfn = state.phase, state.attacker, state.defender
        assert list(state.to_act()) == [att, dfn] and dfn == (att + 1) % players
        rank = state.ranks[att]
        assert 1 <= rank <= 4
        fights = state.fights
        while state.fights == fights:  # the line with the first parry, then the defender alone
            joint = {}
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                joint[seat] = legal[rng.randrange(len(legal))]
            state.apply(joint)
        rec = state.history[-1]
        res = rec.resolution
        m = PARRIES_BY_RANK[rank]

        # Cards: one attack card per level from the piles, a row within the parry supply, and
        # every parry card of the row spent, burned or left unused exactly once.
        assert len(rec.line.cards) == min(rank, 4)
        assert all(c in level for c, level in zip(rec.line.cards, ATTACK_LEVELS, strict=False))
        assert len(rec.row) == m and all(rec.row.count(t) <= 4 for t in PARRY_TYPES)
        spent = [p for card, code_len in zip(res.cards, _code_lengths(rec), strict=False)
                 if card.parried_at is not None for p in range(card.parried_at, card.parried_at + code_len)]
        accounted = sorted(spent + list(res.burned) + list(res.unused))
        assert accounted == list(range(m))
        assert res.revealed + rec.face_down == len(rec.line.cards)
        assert res.attacker_wins == (res.cards[-1].parried_at is None)
        assert res.attacker_wins or res.revealed == len(rec.line.cards)

        # The rules agree with the block-matching characterisation of §3.2.
        mask = defender_wins_mask("".join(_LETTER[p] for p in rec.row), code_levels(rank))
        assert bool((mask >> attack_line_index(rank)[rec.line]) & 1) == (not res.attacker_wins)

        # Ranks: only the attacker moves, by one, and only on a win.
        expected = list(before_ranks)
        expected[att] += 1 if res.attacker_wins else 0
        assert state.ranks == expected
        assert all(1 <= r <= MAITRE for r in state.ranks)
        assert state.attacks_made[att] == before_attacks[att] + 1

        # Hidden information: nobody but the attacker ever sees an unflipped card.
        shown = list(rec.line.cards[: res.revealed])
        for seat in range(players):
            obs = state.observe(seat)
            assert obs["history"][-1]["attack"] == shown
            if seat != att and rec.face_down:
                assert all(h["fight"] != rec.number for h in obs["my_hidden"])
        if rec.face_down and "Ka" not in shown:
            assert state.public_view()["history"][-1]["ka_order"] == []

        # Turn order: in the normal phase the defender attacks next.
        if phase == NORMAL and state.phase == NORMAL:
            assert state.attacker == dfn
    for seat in range(players):
        obs = state.observe(seat)
        assert json.loads(json.dumps(obs)) == obs  # JSON-ready
    return state


def _code_lengths(rec: object) -> list[int]:
    line = rec.line  # type: ignore[attr-defined]
    return [3 if c == "Ka" else (ATTACK_LEVELS.index(next(lv for lv in ATTACK_LEVELS if c in lv)) + 1)
            for c in line.cards]


def check_end(state: MaitreNinjaState) -> None:
    out = state.outcome()
    assert state.fights < FIGHT_CAP
    assert out.reason == "maitre"
    first = state.first_master
    assert first is not None and state.ranks[first] == MAITRE
    masters = {s for s, r in enumerate(state.ranks) if r == MAITRE}
    assert set(out.ranking[0]) == masters
    # Every other Maître won a last-chance fight, with one attack fewer than the first one.
    k = state.attacks_made[first]
    crowned = next(rec.number for rec in state.history if rec.attacker == first and rec.public["new_rank"] == MAITRE)
    last_chance = state.history[crowned:]
    assert len({rec.attacker for rec in last_chance}) == len(last_chance) <= state.num_players - 1
    for rec in last_chance:
        assert rec.attacker_rank == MAITRE - 1 and state.attacks_made[rec.attacker] == k
    assert masters - {first} == {rec.attacker for rec in last_chance if rec.resolution.attacker_wins}
    tiers_ranks = [{state.ranks[s] for s in tier} for tier in out.ranking]
    assert all(len(t) == 1 for t in tiers_ranks)
    flat = [next(iter(t)) for t in tiers_ranks]
    assert flat == sorted(flat, reverse=True)
    assert sorted(s for tier in out.ranking for s in tier) == list(range(state.num_players))


SETTINGS = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_two_player_games(seed: int) -> None:
    check_end(play_random_game(seed, 2))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_three_player_games(seed: int) -> None:
    check_end(play_random_game(seed, 3))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_four_player_games(seed: int) -> None:
    check_end(play_random_game(seed, 4))


def test_final_round_happens_in_random_games() -> None:
    """Over many random 4-player games, last-chance fights occur and sometimes crown a second Maître."""
    finals = shared = 0
    for seed in range(400):
        state = play_random_game(seed, 4)
        finals += state.history[-1].attacker != state.first_master
        shared += len(state.outcome().ranking[0]) > 1
    assert finals > 0 and shared > 0


def test_same_seed_and_actions_replay_the_same_match() -> None:
    for players in (2, 3, 4):
        a, b = play_random_game(99, players), play_random_game(99, players)
        assert a.public_view() == b.public_view()
        assert a.outcome() == b.outcome()
        assert [rec.line for rec in a.history] == [rec.line for rec in b.history]


def test_same_seed_and_bots_through_the_referee_are_identical() -> None:
    def run() -> tuple[object, object]:
        seats = [make_bot(s, GAME, 100 + i) for i, s in enumerate(["random", "nash", "nash", "random"])]
        result = play_match("maitre-ninja", seats, seed=2024)
        choices = [[(d.seat, d.index) for d in step] for step in result.replay.steps]
        return choices, (result.ranking, result.reason)

    first = run()
    assert first == run()
    assert first[1][1] == "maitre"  # type: ignore[index]


def test_clone_is_independent() -> None:
    state = GAME.new_state(5, players=3)
    twin = state.clone()
    legal = {s: state.legal_actions(s)[0] for s in state.to_act()}
    twin.apply(legal)
    assert state.pending is None and state.laid == () and state.history == []
    assert twin.pending == legal[state.attacker] and twin.laid == (legal[state.defender].parry,)


def test_the_defenders_choices_follow_the_row_so_far() -> None:
    """Mid-row the state keeps the next parries rather than working them out at every step: they
    must still be the rule's answer for the row so far, in clones and redrawn twins too."""
    for config in ({}, {"parry_supply": {"DO": 1, "BL": 3, "JU": 8}}):
        for seed in range(5):
            state = GAME.new_state(seed, players=3, config=config)
            supply = state.setup.parry_supply
            rng = random.Random(seed)
            while not state.is_over():
                for twin in (state, state.clone(), *(state.determinize(s, rng) for s in range(3))):
                    assert twin.legal_actions(twin.defender) == next_parries(twin.laid, twin.row_length(), supply)
                state.apply({s: state.legal_actions(s)[rng.randrange(len(state.legal_actions(s)))]
                             for s in state.to_act()})


def test_render_follows_a_verbose_match() -> None:
    frames: list[str] = []
    seats = [make_bot(s, GAME, i) for i, s in enumerate(["random", "nash", "nash", "random"])]
    result = play_match("maitre-ninja", seats, seed=7, on_step=lambda state, _: frames.append(GAME.render(state)))
    assert sum("=>" in frame for frame in frames) == result.details["fights"]  # each fight told once
    assert any("parries" in frame and "=>" not in frame for frame in frames)  # rows being laid, no cards
    text = "\n".join(frames)
    for needle in ("Fight 1:", "parry row :", "flip ", "Ranks:", "Next:", "Game over (maitre)"):
        assert needle in text
    assert "burned" in text and ("ATTACKER wins" in text) and ("DEFENDER wins" in text)
    assert "(final round)" in text or "Game over" in frames[-1]


def test_render_hides_face_down_cards() -> None:
    state = GAME.new_state(0, players=2, config={"first_player": 0})
    state.ranks[0] = 2
    lay(state, AttackLine(("Fi", "Ku")), ParryRow(("DO",) * 4 + ("JU",)))
    text = GAME.render(state)
    assert "flip Fi [BL]: burned 0-4; defender exhausted" in text
    assert "never flipped: ??" in text
    assert "Ku" not in text
    assert "rises to Disciple" in text
    assert state.phase in (NORMAL, FINAL_ROUND)
