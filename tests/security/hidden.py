"""Recording seats for hidden-information tests: what each seat was shown, and the true state then."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, State, get_game
from tourney.engine.referee import MatchResult, play_match


@dataclass
class Shown:
    """One decision: the seat, the observation it was given (as JSON data) and the true state."""

    seat: int
    observation: Any
    state: State
    step: int


class RecordingSeat:
    """Plays like a built-in random bot and keeps everything the referee showed it."""

    def __init__(self, game_id: str, seat: int, seed: int, log: list[Shown]) -> None:
        self.bot = make_bot("random", get_game(game_id), seed)
        self.seat = seat
        self.log = log

    def act(self, request: DecisionRequest) -> int:
        # The observation as the wire would carry it (JSON), and a copy of the true state.
        self.log.append(Shown(request.seat, json.loads(json.dumps(request.observation)),
                              request._state.clone(), len(self.log)))
        return int(self.bot.act(request))


def play_recorded(game_id: str, players: int, seed: int, config: dict[str, Any] | None = None
                  ) -> tuple[MatchResult, list[Shown]]:
    """One match of random seats through the referee; every observation delivered, in order."""
    log: list[Shown] = []
    seats = [RecordingSeat(game_id, s, seed * 31 + s, log) for s in range(players)]
    result = play_match(game_id, seats, seed, config, players=players)
    return result, log


def invariant_under_determinization(shown: Shown, tries: int = 2) -> bool:
    """True when the seat's observation and legal actions are the same in states it cannot tell apart.

    determinize(seat) resamples everything hidden from the seat (other hands, face-down cards,
    deck order, future chance): an observation that changes with it depends on hidden information.
    """
    truth = json.loads(json.dumps(shown.state.observe(shown.seat)))
    if truth != shown.observation:
        return False
    legal = [a.label for a in shown.state.legal_actions(shown.seat)]
    rng = random.Random(shown.step)
    for _ in range(tries):
        other = shown.state.determinize(shown.seat, rng)
        if json.loads(json.dumps(other.observe(shown.seat))) != truth:
            return False
        # The legal list goes to the seat too: it must not depend on what the seat cannot see.
        if [a.label for a in other.legal_actions(shown.seat)] != legal:
            return False
    return True


def public_invariant(state: State, players: int, seed: int) -> bool:
    """The spectator view does not change when any seat's hidden information is resampled."""
    view = json.loads(json.dumps(state.public_view()))
    rng = random.Random(seed)
    return all(json.loads(json.dumps(state.determinize(s, rng).public_view())) == view for s in range(players))


def jsonable(value: Any) -> Any:
    """`value` as it travels on the wire (tuples become lists)."""
    return json.loads(json.dumps(value))


def keys(value: Any) -> set[str]:
    """Every dict key anywhere inside a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


class ReplayingSeat:
    """Answers a recorded list of indices and keeps what it was shown (to rebuild a played match)."""

    def __init__(self, indices: list[int], seat: int, log: list[Shown]) -> None:
        self.indices = indices
        self.seat = seat
        self.log = log
        self.next = 0

    def act(self, request: DecisionRequest) -> int:
        self.log.append(Shown(request.seat, jsonable(request.observation), request._state.clone(), len(self.log)))
        index = self.indices[self.next]
        self.next += 1
        return index


def rebuild(record_replay: dict[str, Any]) -> tuple[list[list[Shown]], list[Any]]:
    """Replay a stored match: per seat, every observation it was shown; and the public view after each step."""
    players = int(record_replay["players"])
    per_seat: list[list[int]] = [[] for _ in range(players)]
    for step in record_replay["steps"]:
        for seat, index, _ms, fault in step:
            assert fault is None, "rebuild() is for matches without faults"
            per_seat[seat].append(index)
    logs: list[list[Shown]] = [[] for _ in range(players)]
    seats = [ReplayingSeat(per_seat[s], s, logs[s]) for s in range(players)]
    game_id = str(record_replay["game"])
    state = get_game(game_id).new_state(int(record_replay["seed"]), players=players,
                                        config=record_replay.get("config") or None)
    views = [jsonable(state.public_view())]
    play_match(game_id, seats, int(record_replay["seed"]), record_replay.get("config") or None, players=players,
               on_step=lambda st, _joint: views.append(jsonable(st.public_view())))
    return logs, views
