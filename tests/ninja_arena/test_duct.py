"""The `duct` search bot: its budget (an injected clock, never wall time), determinism for a
fixed iteration count, its candidates, and a seeded 4-player sample against greedy."""

from __future__ import annotations

from tests.engine.test_search_budget import FakeClock, NoClock
from tests.ninja_arena.helpers import set_dice, table
from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest
from tourney.engine.games.ninja_arena import GAME, ArenaState
from tourney.engine.games.ninja_arena.actions import HIT, WAIT
from tourney.engine.games.ninja_arena.bots import DuctArenaBot, TacticianBot
from tourney.engine.referee import play_match


def _midgame(ticks: int = 12, seed: int = 5) -> ArenaState:
    """A 4-player table after `ticks` ticks of tactician play: dice showing, pools filling."""
    st = GAME.new_state(seed, players=4)
    policy = TacticianBot(0)
    for _ in range(ticks):
        st.apply({p: st.legal_actions(p)[policy.choose(st, p, list(st.legal_actions(p)))] for p in st.to_act()})
    assert not st.over
    return st


def _request(st: ArenaState, seat: int = 0, deadline_s: float | None = None) -> DecisionRequest:
    return DecisionRequest(GAME, seat, st.observe(seat), st.legal_actions(seat), deadline_s, st)


def test_duct_given_20_ms_never_takes_40() -> None:
    clock = FakeClock(step=0.001)
    bot = DuctArenaBot(seed=1, ms=20, clock=clock)
    request = _request(_midgame())
    start = clock.now
    assert 0 <= bot.act(request) < len(request.legal)
    assert clock.now - start < 0.040
    assert clock.reads >= 10  # it searched until the time ran out


def test_duct_stops_inside_the_request_deadline_even_with_a_larger_own_budget() -> None:
    clock = FakeClock(step=0.001)
    bot = DuctArenaBot(seed=1, ms=5000, clock=clock)
    start = clock.now
    bot.act(_request(_midgame(), deadline_s=0.03))
    assert clock.now - start < 0.03


def test_duct_with_a_fixed_iteration_count_never_reads_the_clock_and_repeats_itself() -> None:
    request = _request(_midgame())
    picks = {DuctArenaBot(seed=4, iterations=3, clock=NoClock()).act(request) for _ in range(3)}
    assert len(picks) == 1


def test_an_exhausted_clock_plays_the_tacticians_choice() -> None:
    # Every reading is a whole second: no iteration finishes, so the prior decides.
    st = _midgame()
    request = _request(st)
    expected = TacticianBot(0).choose(st, 0, list(request.legal))
    assert DuctArenaBot(seed=4, ms=20, clock=FakeClock(step=1.0)).act(request) == expected


def test_candidates_are_legal_distinct_and_lead_with_the_tactician() -> None:
    st = table(["Sasuke", "Naruto", "Sakura", "Hinata"])
    set_dice(st, 0, "HKKSS")  # Sasuke shows his Power: a claim is possible
    bot = DuctArenaBot(seed=1, width=6)
    cands = bot.candidates(st, 0, 6)
    legal = list(st.legal_actions(0))
    assert all(a in legal for a in cands) and len(set(cands)) == len(cands) <= 6
    assert cands[0] == legal[TacticianBot(0).choose(st, 0, legal)]
    assert WAIT in cands and HIT in cands


def test_duct_is_listed_with_its_options() -> None:
    bot = make_bot("duct:iterations=2:horizon=1:width=3", GAME, 7)
    assert isinstance(bot, DuctArenaBot)
    assert {o.name for o in DuctArenaBot.OPTIONS} == {"ms", "iterations", "horizon", "width", "prior"}


def test_duct_wins_first_place_at_least_twice_as_often_as_greedy_in_a_seeded_sample() -> None:
    """One duct seat against three greedy ones, rotating through the seats (a smoke test: the
    bench measures the real figure). Fixed iterations: the sample is the same every run."""
    firsts = {"duct": 0.0, "greedy": 0.0}
    games = 8
    for g in range(games):
        hero = g % 4
        specs = ["duct:iterations=2:horizon=2" if s == hero else "greedy" for s in range(4)]
        seats = [make_bot(spec, GAME, 100 * g + s) for s, spec in enumerate(specs)]
        result = play_match("ninja-arena", seats, seed=g // 4, players=4)
        top = result.ranking[0]
        for s in top:
            firsts["duct" if s == hero else "greedy"] += 1.0 / len(top)
    duct_share = firsts["duct"] / games
    greedy_share = firsts["greedy"] / (3 * games)  # per greedy seat
    assert duct_share >= 2 * greedy_share, (duct_share, greedy_share)
