"""The real-time driver (§6) with an injected clock: no sleeping, no threads."""

from __future__ import annotations

import pytest

from tests.ninja_arena.helpers import dice_of, set_dice, table
from tourney.engine.core import Action, ConfigError, Illegal
from tourney.engine.games.ninja_arena import ArenaState
from tourney.engine.games.ninja_arena.actions import HIT, KEEP, SWITCH, WAIT, Activate, Roll
from tourney.engine.games.ninja_arena.realtime import RealtimeDriver


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def step(self, ms: float) -> None:
        self.now += ms / 1000.0


def _driver(st: ArenaState, clock: FakeClock, **kw: float) -> RealtimeDriver:
    return RealtimeDriver(st, clock, **kw)  # type: ignore[arg-type]


def _kinds(drv: RealtimeDriver, kind: str) -> list[tuple[int, tuple[object, ...]]]:
    return [(ms, e) for ms, e in drv.events if e[0] == kind]


def test_actions_apply_once_their_millisecond_closes_and_respect_the_gap() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    clock = FakeClock()
    drv = _driver(st, clock)
    drv.submit(0, Roll((0, 1, 2, 3, 4)))
    drv.submit(0, Roll((0, 1, 2, 3, 4)))
    assert dice_of(st, 0) == "....."  # the millisecond has not closed yet
    clock.step(1)
    drv.advance()
    assert len(_kinds(drv, "roll")) == 1
    clock.step(200)
    drv.advance()
    assert len(_kinds(drv, "roll")) == 1  # queued behind the 250 ms gap, not rejected
    deadline = drv.next_deadline()
    assert deadline is not None and abs(deadline - (100.0 + 0.251)) < 1e-9
    clock.step(60)
    drv.advance()
    rolls = _kinds(drv, "roll")
    assert [ms for ms, _ in rolls] == [0, 250]


def test_claim_pause_orders_hits_by_arrival_and_the_silent_one_is_last() -> None:
    st = table(["Naruto", "Sakura", "Sasuke", "Shikamaru"])
    set_dice(st, 2, "HKKSS")
    clock = FakeClock()
    drv = _driver(st, clock)
    drv.submit(2, HIT)
    clock.step(1)
    drv.advance()
    assert drv.paused == 2
    assert drv.legal_actions(0) == [HIT]
    clock.step(300)
    drv.submit(3, HIT)
    drv.submit(1, Roll((1,)))  # ignored: only HIT is accepted during a pause
    clock.step(400)
    drv.submit(1, HIT)
    clock.step(5000)
    drv.advance()
    assert drv.paused == -1
    pause = _kinds(drv, "pause")[0][1]
    assert pause[1:] == ("power", 2, (2, 3, 1, 0))
    assert ("tokens", 0, 2, "penalty") in [e for _, e in drv.events]
    assert st.power[2]
    assert any(e[0] == "ignored" for _, e in drv.events)


def test_pause_ends_as_soon_as_everyone_hit() -> None:
    st = table(["Naruto", "Sakura", "Sasuke"])
    set_dice(st, 0, "HHHLL")
    clock = FakeClock()
    drv = _driver(st, clock)
    drv.submit(0, HIT)
    clock.step(2)
    drv.submit(2, HIT)
    clock.step(2)
    drv.submit(1, HIT)
    clock.step(1)
    drv.advance()
    assert drv.paused == -1 and st.power[0]
    assert _kinds(drv, "pause")[0][1][3] == (0, 2, 1)


def test_bare_hit_is_a_mistake_after_the_grace_period() -> None:
    st = table(["Naruto", "Sakura", "Sasuke"])
    clock = FakeClock()
    drv = _driver(st, clock)
    drv.submit(1, HIT)
    clock.step(50)
    drv.advance()
    assert st.cube[1] == 0  # still inside grace_ms
    clock.step(100)
    drv.advance()
    assert st.cube[1] == 1


def test_hit_just_before_a_claim_is_an_early_hit() -> None:
    st = table(["Naruto", "Sakura", "Sasuke", "Shikamaru"])
    set_dice(st, 0, "HHHLL")
    clock = FakeClock()
    drv = _driver(st, clock)
    drv.submit(3, HIT)
    clock.step(60)
    drv.submit(0, HIT)  # a valid claim 60 ms later
    clock.step(5001)
    drv.advance()
    assert st.cube[3] == 0
    order = _kinds(drv, "pause")[0][1][3]
    assert isinstance(order, tuple) and order[:2] == (0, 3)


def test_stitching_blocks_rolls_for_3000_ms() -> None:
    st = table(["Shikamaru", "Sakura", "Sasuke"])
    set_dice(st, 0, "RRH..")
    clock = FakeClock()
    drv = _driver(st, clock)
    drv.submit(0, Activate("T2", (0, 1, 2), target=1))
    clock.step(1)
    drv.advance()
    assert st.pool[1] == 3
    clock.step(1000)
    drv.submit(1, Roll((0,)))
    clock.step(1)
    drv.advance()
    assert st.cube[1] == 1  # a Mistake inside the window
    clock.step(2500)
    drv.submit(1, Roll((0,)))
    clock.step(1)
    drv.advance()
    assert st.cube[1] == 1


def test_invalid_action_is_a_mistake() -> None:
    st = table(["Naruto", "Sakura", "Sasuke"])
    clock = FakeClock()
    drv = _driver(st, clock)
    drv.submit(0, Illegal(raw="junk"))
    drv.submit(1, WAIT)
    clock.step(1)
    drv.advance()
    assert st.cube == [1, 0, 0]


def test_wall_clock_cap_ends_with_a_final_tally() -> None:
    st = table(["Sasuke", "Naruto"])
    st.pool[0] = 7
    clock = FakeClock()
    drv = _driver(st, clock, wall_clock_cap_s=10)
    clock.step(10_000)
    drv.advance()
    assert st.over and st.outcome().reason == "cap"
    assert st.cube == [1, 0] and drv.next_deadline() is None
    assert st.outcome().ranking == ((1,), (0,))


def test_duel_switch_decision_and_timeout_keep() -> None:
    st = table(["Naruto", "Sasuke", "Sakura", "Gaara"], mode="duel")
    set_dice(st, 1, "FFHHL")
    clock = FakeClock()
    drv = _driver(st, clock)
    drv.submit(1, HIT)
    clock.step(1)
    drv.submit(0, HIT)
    clock.step(1)
    drv.advance()
    assert st.pending_switch == 0 and drv.legal_actions(0) == [KEEP, SWITCH]
    drv.submit(0, SWITCH)
    clock.step(1)
    drv.advance()
    assert st.top[0] == 2 and st.pending_switch == -1
    # Next pause: nobody answers, so KEEP after the reaction timeout.
    set_dice(st, 1, "FFHHL")
    drv.submit(1, HIT)
    clock.step(5001)
    drv.advance()
    clock.step(5001)
    drv.advance()
    assert st.pending_switch == -1 and st.top[0] == 2


def _replay(log: list[tuple[int, int, Action]], chars: list[str]) -> ArenaState:
    st = table(chars, seed=3)
    clock = FakeClock()
    drv = _driver(st, clock)
    t0 = clock.now
    for ms, seat, action in log:
        clock.now = t0 + ms / 1000.0
        drv.advance()
        drv.submit(seat, action)
    clock.now = t0 + 60.0
    drv.advance()
    return st


def test_arrival_log_replays_the_match() -> None:
    import random

    chars = ["Naruto", "Sakura", "Sasuke", "Shikamaru"]
    st = table(chars, seed=3)
    clock = FakeClock()
    drv = _driver(st, clock)
    rng = random.Random(11)
    for _ in range(300):
        if st.over:
            break
        seat = rng.randrange(4)
        legal = drv.legal_actions(seat)
        if legal:
            drv.submit(seat, rng.choice(list(legal)))
        clock.step(rng.choice([0, 0, 3, 40, 120]))
        drv.advance()
    clock.step(60_000)
    drv.advance()
    again = _replay(drv.log, chars)
    assert again.public_view()["players"] == st.public_view()["players"]


def test_random_realtime_matches_keep_invariants() -> None:
    import random

    from tests.ninja_arena.test_properties import _check

    for seed in range(25):
        rng = random.Random(seed)
        players = 2 + seed % 5
        st = table(["Naruto", "Sakura", "Sasuke", "Shikamaru", "Gaara", "Hinata"][:players], seed=seed)
        clock = FakeClock()
        drv = _driver(st, clock, wall_clock_cap_s=120)
        while not st.over:
            seat = rng.randrange(players)
            legal = drv.legal_actions(seat)
            if legal:
                drv.submit(seat, rng.choice(list(legal)) if rng.random() > 0.01 else Illegal())
            clock.step(rng.choice([0, 1, 30, 90, 300]))
            drv.advance()
            _check(st)
        out = st.outcome()
        assert sorted(p for tier in out.ranking for p in tier) == list(range(players))
        assert drv.now_ms() <= 120_000 + 300


def test_driver_from_config_takes_the_timings() -> None:
    st = table(["Sasuke", "Naruto"])
    drv = RealtimeDriver.from_config(st, FakeClock(), {"grace_ms": 40, "min_action_interval_ms": 100})
    assert drv.grace_ms == 40 and drv.min_action_interval_ms == 100 and drv.reaction_timeout_ms == 5000
    # Read and checked by the declaration, as a new state's config is.
    assert RealtimeDriver.from_config(st, FakeClock(), {"grace_ms": "40"}).grace_ms == 40
    with pytest.raises(ConfigError, match="'reaction_timeout_ms' is 0"):
        RealtimeDriver.from_config(st, FakeClock(), {"reaction_timeout_ms": 0})


def test_queued_actions_stay_hidden_until_processed() -> None:
    import json

    st = table(["Sasuke", "Naruto", "Sakura"])
    clock = FakeClock()
    drv = _driver(st, clock)
    before = json.dumps(st.observe(0), sort_keys=True)
    drv.submit(1, Roll((0, 1, 2, 3, 4)))  # same millisecond: not processed yet
    assert json.dumps(st.observe(0), sort_keys=True) == before
    clock.step(1)
    drv.advance()
    assert json.dumps(st.observe(0), sort_keys=True) != before
