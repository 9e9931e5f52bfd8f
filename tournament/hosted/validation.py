"""A new version's validation: one match against `random` in each of its games, in the sandbox.

Each validation match is dealt from a seed drawn afresh (`secrets`), never shown to the author: with one
fixed deal a bot could recognise its validation and behave well only there.

It is ranked (its status `validated`, and it joins the ladder of each of its games in place of its
older versions) only if every one ends normally; else the status says which
game and how the match ended, and the last lines of the bot's log are kept beside it (shown to the
organiser and, on the web, to the bot's author only).
"""

from __future__ import annotations

import json
import secrets
import tempfile
from pathlib import Path

from sqlalchemy.engine import Engine

from tourney.engine.core import Termination, get_game
from tourney.tournament.ladder.hosted_entries import enroll
from tourney.tournament.store.hosted import FAILED, VALIDATED, set_status
from tourney.tournament.store.hosted_tables import HostedVersion
from tourney.workers.program_specs import hosted_name, pinned

VALIDATION_MOVE_MS = 2000  # generous: a bot's first decisions include its imports
ENDED_NORMALLY = (Termination.NORMAL, Termination.ADJUDICATION)


def validate(engine: Engine, store: str, name: str, version: HostedVersion) -> tuple[str, str, str]:
    """Play the validation matches and record the status; returns (status, reason, its log's tail)."""
    from tourney.tournament.hosted.seat import hosted_starter, log_path
    from tourney.workers.programs import log_tail, play_with_programs

    spec = pinned(name, version.version)
    reason = tail = ""
    for game_id in json.loads(version.games_json):
        game = get_game(game_id)
        seats = [spec] + ["random"] * (game.min_players - 1)
        with tempfile.TemporaryDirectory(prefix="tourney-validation-") as logs:
            result = play_with_programs(game_id, seats, validation_seed(), {}, VALIDATION_MOVE_MS, Path(logs),
                                        hosted=hosted_starter(store))
            if result.termination not in ENDED_NORMALLY:
                tail = log_tail(log_path(Path(logs), hosted_name(spec, 0)))
                reason = f"{game_id}: {result.reason}"
                break
    status = FAILED if reason else VALIDATED
    assert version.id is not None
    set_status(engine, version.id, status, reason, tail)
    if status == VALIDATED:
        enroll(engine, name, version.version, json.loads(version.games_json))
    return status, reason, tail


def validation_seed() -> int:
    """A validation match's seed: unpredictable, so no bot can tell its validation from a ranked match."""
    return secrets.randbits(63)
