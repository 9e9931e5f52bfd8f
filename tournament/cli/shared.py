"""What every command module shares: output, errors, common options, config.

Each command module (tournament/cli/*.py) makes its own Typer app, which main.py, the root, adds with
`add_typer`. Nothing here imports a command module, so the commands import one way.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from sqlalchemy.exc import ArgumentError

from tourney.engine.core import ConfigError, Options, TourneyError
from tourney.engine.core.environment import DB_ENV
from tourney.engine.core.printable import shown
from tourney.tournament.cli.given_values import UINT32, check_command_line, check_within
from tourney.tournament.rating.standings import Standing
from tourney.tournament.responses import StandingRow
from tourney.tournament.store.database import open_store, sqlite_file

if TYPE_CHECKING:
    from sqlalchemy import Engine

out = Console()
err = Console(stderr=True)

DEFAULT_GAME = "tiny-ninjas"
# Tables are printed at their natural width and never fold or cut a cell, even when stdout is a
# pipe (rich assumes 80 columns then) or a narrow terminal: a cut number is worse than a long line.
TABLE_WIDTH = 400
# Where a command writes (stdout, --out, the store) may fill up: the organiser's to mend, never a bug of ours.
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
ERROR_CHARS = 2000  # an error sentence is cut here: it may repeat a stranger's text (a bundle's file name)


def fail(message: str) -> NoReturn:
    """One sentence on stderr and exit code 2 (safe for the terminal: see `shown`)."""
    print(f"error: {shown(message, ERROR_CHARS)}", file=sys.stderr, flush=True)
    if "ray" in sys.modules and sys.stderr is sys.__stderr__:
        # Ray's C++ core writes straight to file descriptor 2 while the process ends (e.g. "Failed to
        # push error to driver" for a chunk stopped with its driver), after the sentence above, which
        # must stay the last line. Only the real command's own stderr is closed, never a test's.
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 2)
        os.close(quiet)
    raise typer.Exit(2)


def guarded(body: Callable[[], None]) -> None:
    """Run a command's body: an error a user can cause becomes one sentence and exit code 2.

    Its integer options and arguments are checked first (see given_values.py); an OverflowError
    later is a bug of ours, never the user's input, and surfaces as one."""
    try:
        check_command_line()
        body()
    except TourneyError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted: finished matches are stored; run `tourney resume` (with the same --db) to play the rest.")
    except OSError as exc:
        if exc.errno not in DISK_FULL:
            raise
        if sys.stdout is sys.__stdout__:  # the flush at exit would fail on the full disk again, with a traceback
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.close(quiet)
        fail(f"the disk is full ({exc.strerror}): free some space, or write elsewhere (--out, --db, another "
             "redirect), and run the command again.")


def parse_settings(options: Options, pairs: list[str] | None, mode: str | None,
                   handicaps: list[str] | None = None, game_flags: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game config from `--set key=value`, --mode, `--handicap SEAT:KEY=VALUE`, and the games'
    own flags (`game_flags`: option key -> the value given, e.g. {"genin_pack": True}).

    Each key must be one of the game's declared `options` (an unknown one is refused with the
    list of valid ones) and its text is read as that option's kind. A handicap sets a per-seat
    option: `--handicap 1:hand_limit=4` becomes {"hand_limit": {1: 4}}.
    """
    config: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"--set '{pair}' is not key=value: write e.g. --set round_cap=50.")
        config[key] = options.option(key).from_text(raw)
    for item in handicaps or []:
        seat, colon, rest = item.partition(":")
        key, sep, raw = rest.partition("=")
        if not (colon and sep and key and seat.isdigit()):
            raise ConfigError(f"--handicap '{item}' is not SEAT:KEY=VALUE: write e.g. --handicap 1:hand_limit=4.")
        option = options.option(key)
        if not option.per_seat:
            seated = ", ".join(o.key for o in options if o.per_seat) or "none in this game"
            raise ConfigError(f"--handicap '{item}' sets {key}, which is not per-seat: use one of {seated}.")
        per_seat = config.setdefault(key, {})
        if not isinstance(per_seat, dict):
            raise ConfigError(f"--handicap '{item}' clashes with --set {key}: give {key} one way only.")
        per_seat[int(seat)] = option.from_text(raw)
    if mode is not None:
        config["mode"] = mode
    config.update(game_flags or {})
    return config


def open_existing(db: str, made_by: str = "tourney run") -> Engine:
    """The store of a command that reads what `made_by` stored: a SQLite file that is not there is
    a typo in --db, never a new empty database (a SQLite URI filename's file included)."""
    try:
        path = sqlite_file(db)
    except ArgumentError:
        raise ConfigError(f"--db {db!r} is not a database URL: give a SQLite path or a SQLAlchemy URL "
                          "(e.g. --db tourney.db).") from None
    if path is not None and not Path(path).exists():
        raise ConfigError(f"there is no database {path}: check --db (`{made_by}` creates it).")
    return open_store(db)


def check_move_ms(move_ms: int | None, zero_allowed: bool = False) -> None:
    """Refuse a --move-ms that is not a positive number of milliseconds RunMatch's uint32 carries (49
    days: a wait that long still fits every timeout); `zero_allowed` where 0 means the arena's default."""
    if move_ms is None:
        return
    if move_ms <= 0 and not (zero_allowed and move_ms == 0):
        raise ConfigError(f"--move-ms must be a positive number of milliseconds, not {move_ms}.")
    check_within("--move-ms", move_ms, range(0 if zero_allowed else 1, UINT32.stop))


# The seeds a command takes: a tournament's or league's is kept in a signed 64-bit column of the store;
# a match's may be played on an arena (a program seat's match, `arena-match`), whose RunMatch carries a uint64.
STORED_SEEDS = range(-(1 << 63), 1 << 63)
MATCH_SEEDS = range(1 << 64)


def check_seed(seed: int | None, seeds: range) -> None:
    """Refuse a --seed outside `seeds` (STORED_SEEDS or MATCH_SEEDS) before anything is played or stored."""
    if seed is not None and seed not in seeds:
        raise ConfigError(f"--seed must be from {seeds.start} to {seeds.stop - 1}, not {seed}: pass a seed in "
                          "that range.")


GameOpt = Annotated[str, typer.Option("--game", "-g", help="Game id (see `tourney games`).")]
SeedOpt = Annotated[int | None, typer.Option(help="Seed; the same seed replays the same matches.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document and nothing else.")]
MoveOpt = Annotated[int | None, typer.Option("--move-ms", help="Per-move time limit in milliseconds.")]
PlayersOpt = Annotated[int | None, typer.Option(help="Number of players (for games of 2 or more).")]
ModeOpt = Annotated[str | None, typer.Option(help="Game mode (see `tourney games`).")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Game option key=value (repeatable).")]
HandicapOpt = Annotated[list[str] | None, typer.Option("--handicap", help="Per-seat option SEAT:KEY=VALUE, e.g. "
                                                       "1:hand_limit=4 (repeatable).")]
DbOpt = Annotated[str, typer.Option(envvar=DB_ENV, help="Results database: a SQLite path or SQLAlchemy URL "
                                                                f"(default ${DB_ENV}, else tourney.db).")]


def standing_doc(s: Standing) -> dict[str, Any]:
    """One standings row as `--json` prints it: the web API's row too (tournament/responses.py)."""
    return StandingRow.of(s).model_dump()

