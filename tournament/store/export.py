"""A stored tournament's matches as JSON lines: one record per match, public unless the organiser asks.

A public record holds what a spectator may see: who sat where, how each seat placed and scored, how
the match ended, and the public replay as the arena's GetMatch sends it (`as_changes`): `first`, the
public view before the first step, and `changes`, each later step's change of it (engine.view_diff).
A record is thus itself a public replay document: `engine.public_replay.frames_of(record)` rebuilds
the frames (`public_frames`, the same the web's replay viewer shows). Whole frames would repeat the
view each step (a Tiny Ninjas view holds every event so far), and a record would grow with the square
of its match's length; changes grow with it. A replay stored by an earlier version of its game has
`first` null, no changes and `unavailable`, one sentence saying why.

A public record never holds the seed, the decisions or their timing: from the seed every hidden card
follows. The full record (the organiser's, `--full` with the admin token) adds the seed, the
configuration, the stored replay (every decision, which `engine.referee.replay_match` plays again to
the same result) and the outcome's details.

Matches are read in batches (`match_batches`) and each line is produced as it is written, so the
memory of an export does not grow with the number of matches stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson  # an export writes every step's change: orjson encodes it about twice as fast as json
from sqlalchemy.engine import Engine

from tourney.engine.core import ReplayMismatch
from tourney.engine.public_replay import as_changes, public_frames
from tourney.engine.referee import Replay
from tourney.tournament.store.codec import loads, unpack_replay
from tourney.tournament.store.reads import match_batches, stored_tournament
from tourney.tournament.store.records import BYE
from tourney.tournament.store.tables import Match, MatchSeat

FORMATS = ("jsonl",)


def _seat(seat: MatchSeat, full: bool) -> dict[str, Any]:
    doc: dict[str, Any] = {"seat": seat.seat, "bot": seat.alias, "place": seat.tier + 1, "points": seat.points,
                           "score": seat.score, "faults": loads(seat.faults_json)}
    if full:  # how long each seat thought differs run to run: the organiser's detail, not the result
        doc.update(decisions=seat.decisions, think_s=seat.think_s)
    return doc


def match_export(tournament_id: int, match: Match, seats: list[MatchSeat], full: bool) -> dict[str, Any]:
    """One match's export record (public, or the organiser's with `full`)."""
    doc: dict[str, Any] = {"tournament": tournament_id, "match": match.id, "number": match.number,
                           "round": match.round, "game": match.game, "players": match.players,
                           "seats": [_seat(s, full) for s in seats], "termination": match.termination,
                           "reason": match.reason, "plies": match.plies}
    if match.termination == BYE:
        return doc
    replay = Replay.from_dict(unpack_replay(match.replay_json))
    if full:
        doc.update(seed=match.seed, config=loads(match.config_json), details=loads(match.details_json),
                   replay=replay.to_dict())
        return doc
    # GetMatch's document (its game and players are the record's own): `frames_of(record)` rebuilds the frames.
    try:
        doc.update(as_changes(match.game, match.players, public_frames(replay)))
    except ReplayMismatch as exc:  # stored by an earlier version of its game: the result stands, the frames do not
        doc.update(as_changes(match.game, match.players, []), unavailable=str(exc))
    return doc


def export_lines(engine: Engine, tournament_id: int, full: bool = False) -> Iterator[str]:
    """The tournament's matches in schedule order, one JSON line each (newline included).

    Raises StoreError (one sentence) when there is no such tournament, before any line.
    """
    stored_tournament(engine, tournament_id)
    return _lines(engine, tournament_id, full)


def _lines(engine: Engine, tournament_id: int, full: bool) -> Iterator[str]:
    for batch in match_batches(engine, tournament_id):
        for match, seats in batch:
            yield orjson.dumps(match_export(tournament_id, match, seats, full)).decode() + "\n"
