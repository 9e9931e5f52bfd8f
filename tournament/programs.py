"""Bot programs (`cmd:PROGRAM ARGS`) as tournament entrants.

A match that seats a program is played on a private arena that the process playing the
match (a Ray worker, or the driver with --local) serves on a free loopback port: the
programs are started for that match with TOURNEY_ARENA pointing at it, connect like any
bot, and are stopped (their whole process group) when the match ends. A program that never
connects forfeits the match as a crash; it cannot stall the tournament.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.referee import CRASH, MatchResult, Replay, SeatStats
from engine.server.arena import REMOTE_PREFIX, ArenaConfig
from engine.server.launcher import BotProcess, command_name, is_command
from engine.server.local import LocalArena
from engine.server.remote import ArenaUnavailable, run_remote_match

CONNECT_WAIT_S = 30.0  # how long a started program has to say Hello
LOG_DIR = Path("bot-logs")


def play_with_programs(game: str, specs: Sequence[str], seed: int, config: Mapping[str, Any],
                       move_ms: int | None, log_dir: Path = LOG_DIR, bot_seeds: Sequence[int] = ()) -> MatchResult:
    """Play one match whose seats include bot programs, on a private loopback arena.

    bot_seeds (one per seat) seed the built-in bots among them, as workers would.
    """
    token = secrets.token_urlsafe(12)
    arena_config = ArenaConfig(admin_token=token, allow_anonymous=True, seat_wait_s=CONNECT_WAIT_S)
    with contextlib.ExitStack() as stack:
        arena = stack.enter_context(LocalArena(arena_config))
        seats: list[str] = []
        processes: dict[int, BotProcess] = {}
        for i, spec in enumerate(specs):
            if is_command(spec):
                name = command_name(spec, i)
                processes[i] = stack.enter_context(BotProcess(spec, name, arena.address, "", log_dir))
                seats.append(REMOTE_PREFIX + name)
            else:
                seats.append(spec)
        try:
            return run_remote_match(arena.address, game, seats, seed, config, move_ms, token, bot_seeds=bot_seeds)
        except ArenaUnavailable as exc:
            # A program that never connected (crashed at start, wrong game, ...) forfeits.
            dead = [i for i, p in processes.items() if not p.alive()]
            culprit = dead[0] if dead else min(processes)
            return _forfeit(game, len(specs), seed, dict(config), culprit, str(exc))


def _forfeit(game: str, players: int, seed: int, config: dict[str, Any], seat: int, why: str) -> MatchResult:
    others = tuple(s for s in range(players) if s != seat)
    stats = [SeatStats() for _ in range(players)]
    stats[seat].faults[CRASH] = 1
    return MatchResult(game, seed, players, (others, (seat,)), tuple(float(s != seat) for s in range(players)),
                       CRASH, f"seat {seat} crash (the program did not play: {why})", stats,
                       Replay(game, players, config, seed), {}, forfeit_seat=seat)
