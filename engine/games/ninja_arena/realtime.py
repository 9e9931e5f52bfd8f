"""Real-time mode (§6): the same transitions as the tick model, applied as actions arrive.

The driver is pure: it owns no thread and reads no real clock. The arena server injects a
clock (a callable returning seconds), calls `submit` when a bot's action arrives and
`advance` whenever `next_deadline()` passes. Times are whole milliseconds since the start;
an action is processed once its millisecond has closed (the clock has moved past it), so
same-millisecond arrivals can be ordered by the seeded `tiebreak` shuffle (§5.7).

Inside the state, the tick counter `t` holds the time in ms (+1), so Shadow Stitching's
`stitched_until = t + 3000` and the ranking's `out_time` work unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tourney.engine.core import Action
from tourney.engine.games.ninja_arena import rules
from tourney.engine.games.ninja_arena.actions import HIT, KEEP, SWITCH, Activate, Hit, Roll, Switch, Wait
from tourney.engine.games.ninja_arena.state import ArenaState

Clock = Callable[[], float]


@dataclass
class _Pause:
    claimant: int
    kind: int
    started_ms: int
    order: list[int]


@dataclass
class _Queued:
    at_ms: int
    seq: int
    seat: int
    action: Action


@dataclass
class RealtimeDriver:
    """Runs one real-time match over an ArenaState.

    min_action_interval_ms: minimum gap between a seat's actions (early ones are queued).
    reaction_timeout_ms: how long a pause waits for HITs (and a Duel SWITCH/KEEP decision).
    grace_ms: a bare HIT this long before a valid claim is an early hit, not a Mistake.
    wall_clock_cap_s: the match ends with the cap procedure of §5.6 at this time.
    """

    state: ArenaState
    clock: Clock
    min_action_interval_ms: int = 250
    reaction_timeout_ms: int = 5000
    grace_ms: int = 100
    wall_clock_cap_s: float = 1200.0
    log: list[tuple[int, int, Action]] = field(default_factory=list)  # arrivals: (ms, seat, action)
    events: list[tuple[int, tuple[Any, ...]]] = field(default_factory=list)  # (ms, event)

    @classmethod
    def from_config(cls, state: ArenaState, clock: Clock, config: Mapping[str, Any] | None = None) -> RealtimeDriver:
        """A driver with the real-time timings of a match config (declared defaults for missing keys)."""
        cfg = state.game.options.resolve(config, state.n)
        return cls(
            state,
            clock,
            min_action_interval_ms=cfg["min_action_interval_ms"],
            reaction_timeout_ms=cfg["reaction_timeout_ms"],
            grace_ms=cfg["grace_ms"],
            wall_clock_cap_s=float(cfg["wall_clock_cap_s"]),  # the declaration allows a whole number
        )

    def __post_init__(self) -> None:
        self._start = self.clock()
        self._queue: list[_Queued] = []
        self._seq = 0
        self._next_free = [0] * self.state.n
        self._bare: list[tuple[int, int]] = []  # (ms, seat): bare hits awaiting a claim
        self._pause: _Pause | None = None
        self._switch_deadline = -1
        st = self.state
        st.stitch_span = 3000
        st.tick_cap = 1 << 62
        st.t = 1

    # --- time -----------------------------------------------------------------------------

    def now_ms(self) -> int:
        """Milliseconds since the match started, from the injected clock."""
        return int((self.clock() - self._start) * 1000.0 + 1e-6)  # tolerate float round-off

    @property
    def paused(self) -> int:
        """The claimant of the running pause, or -1."""
        return self._pause.claimant if self._pause is not None else -1

    def next_deadline(self) -> float | None:
        """Clock time (seconds) at which `advance` has something to do, or None when over."""
        if self.state.over:
            return None
        due = [int(self.wall_clock_cap_s * 1000)]
        due += [q.at_ms + 1 for q in self._queue]
        due += [m + self.grace_ms + 1 for m, _ in self._bare]
        if self._pause is not None:
            due.append(self._pause.started_ms + self.reaction_timeout_ms)
        if self._switch_deadline >= 0:
            due.append(self._switch_deadline)
        return self._start + min(due) / 1000.0

    # --- input ------------------------------------------------------------------------------

    def submit(self, seat: int, action: Action) -> None:
        """An action arrived from `seat` now. It is queued behind the seat's previous one
        (minimum gap, except HITs, whose arrival time orders the Uzumaki), then due work runs."""
        now = self.now_ms()
        self.log.append((now, seat, action))
        gap = 0 if isinstance(action, Hit | Switch) else self.min_action_interval_ms
        at = max(now, self._next_free[seat] if gap else now)
        if gap:
            self._next_free[seat] = at + gap
        self._queue.append(_Queued(at, self._seq, seat, action))
        self._seq += 1
        self.advance()

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """What `seat` may send now: HIT during a pause, KEEP/SWITCH for a Duel decider."""
        st = self.state
        if st.over or st.eliminated[seat]:
            return []
        if st.pending_switch >= 0:
            return [KEEP, SWITCH] if seat == st.pending_switch else []
        if self._pause is not None:
            return [HIT]
        return st.legal_actions(seat)

    # --- processing ---------------------------------------------------------------------------

    def advance(self) -> None:
        """Process everything that is due at the current clock time, in time order."""
        st = self.state
        now = self.now_ms()
        cap_ms = int(self.wall_clock_cap_s * 1000)
        while not st.over:
            # Candidate events, earliest first: (ms, rank, what). At one ms, expiries come first.
            best: tuple[int, int] | None = None
            if self._switch_deadline >= 0 and self._switch_deadline <= now:
                best = (self._switch_deadline, 0)
            if self._pause is not None:
                end = self._pause.started_ms + self.reaction_timeout_ms
                if end <= now and (best is None or end < best[0]):
                    best = (end, 1)
            if self._bare:
                exp = self._bare[0][0] + self.grace_ms + 1
                if exp <= now and (best is None or exp < best[0]):
                    best = (exp, 2)
            if self._queue:
                first = min(q.at_ms for q in self._queue)
                if first < now and (best is None or first < best[0]):
                    best = (first, 3)
            if cap_ms <= now and (best is None or cap_ms <= best[0]):
                self._set_time(cap_ms)
                self._pause = None
                rules.cap_end(st)
                self._collect(cap_ms)
                return
            if best is None:
                return
            ms, what = best
            self._set_time(ms)
            if what == 0:
                self._decide_switch(st.pending_switch, KEEP)
            elif what == 1:
                self._finish_pause()
            elif what == 2:
                _, seat = self._bare.pop(0)
                if not st.eliminated[seat]:
                    rules.mistaken_hits(st, [seat], 1 << seat if st.ko[seat] else 0)
                    rules.end_check(st)
            else:
                batch = [q for q in self._queue if q.at_ms == ms]
                self._queue = [q for q in self._queue if q.at_ms != ms]
                batch.sort(key=lambda q: q.seq)
                if len(batch) > 1:
                    batch = st.chance.shuffled("tiebreak", batch)
                for q in batch:
                    if not st.over:
                        self._process(q.seat, q.action, ms)
            self._collect(ms)

    def _set_time(self, ms: int) -> None:
        self.state.t = ms + 1
        self.state.events = []
        self.state.forget_legal()

    def _collect(self, ms: int) -> None:
        self.events.extend((ms, e) for e in self.state.events)
        self.state.events = []
        self.state.forget_legal()

    def _process(self, seat: int, action: Action, ms: int) -> None:
        st = self.state
        if st.eliminated[seat]:
            return
        if st.pending_switch >= 0:
            if seat == st.pending_switch and isinstance(action, Switch):
                self._decide_switch(seat, action)
            else:
                st.events.append(("ignored", seat, action.label))
            return
        pause = self._pause
        if pause is not None:
            if isinstance(action, Hit) and seat not in pause.order:
                pause.order.append(seat)
                st.events.append(("hit", seat))
                if self._everyone_hit():
                    self._finish_pause()
            else:
                st.events.append(("ignored", seat, action.label))
            return
        if isinstance(action, Hit):
            kind = rules.claim_kind(st, seat)
            if not kind:
                self._bare.append((ms, seat))  # judged after grace_ms: early hit or Mistake
                st.events.append(("hit", seat))
                return
            early = [s for m, s in self._bare if ms - m <= self.grace_ms and s != seat]
            self._bare = [(m, s) for m, s in self._bare if s not in early and s != seat]
            self._pause = _Pause(seat, kind, ms, [seat] + early)
            st.events.append(("claim", seat, "power" if kind == rules.CLAIM_POWER else "recovery"))
            if self._everyone_hit():
                self._finish_pause()
            return
        if not rules.valid(st, seat, action):
            rules.mistake(st, seat, st.ko[seat])
            rules.end_check(st)
        elif isinstance(action, Roll):
            rules.do_roll(st, seat, action)
        elif isinstance(action, Activate):
            rules.do_activate(st, seat, action)
        elif not isinstance(action, Wait):  # pragma: no cover - valid() accepts nothing else
            return

    def _everyone_hit(self) -> bool:
        pause = self._pause
        assert pause is not None
        return all(p in pause.order for p in range(self.state.n) if not self.state.eliminated[p])

    def _finish_pause(self) -> None:
        st = self.state
        pause = self._pause
        assert pause is not None
        self._pause = None
        rest = [p for p in range(st.n) if not st.eliminated[p] and p not in pause.order]
        order = pause.order + (st.chance.shuffled("tiebreak", rest) if rest else [])
        if pause.kind == rules.CLAIM_POWER:
            rules.power_pause(st, order)
        else:
            rules.recovery_pause(st, order)
        # Early HITs queued while the pause ran were consumed; anything else waits its turn.
        if st.pending_switch >= 0:
            self._switch_deadline = st.t - 1 + self.reaction_timeout_ms

    def _decide_switch(self, seat: int, action: Switch) -> None:
        st = self.state
        st.pending_switch = -1
        self._switch_deadline = -1
        if action.switch:
            rules.switch_boards(st, seat)
        else:
            st.events.append(("keep", seat))
