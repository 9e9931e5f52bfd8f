"""The program executor: matches that seat bot programs (`cmd:PROGRAM ARGS`) and hosted bots (`hosted:NAME`).

A match that seats a program is played on a private arena that the process playing the
match (a Ray worker, or the driver with --local) serves on a free loopback port: the
programs are started for that match with TOURNEY_ARENA pointing at it, connect like any
bot, and are stopped (their whole process group) when the match ends. A program that never
connects forfeits the match as a crash; it cannot stall the tournament.

A hosted seat is its bundle run in a sandbox with no network: the arena then listens on a Unix
socket of that seat's own too, in a private folder bound into its sandbox, and the bot connects
through it (a seat's limits are its socket's: no seat spends another's). A
hosted bot that a sandbox cap stopped (memory, processes, wall time) forfeits as a crash that
says which cap. Where a hosted bot's bundle comes from (the store) is the caller's: it passes a
`HostedStart` (tournament/hosted/seat.py's hosted_starter).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tourney.engine.core import ConfigError, Termination
from tourney.engine.core.printable import shown
from tourney.engine.core.termination import FAULT_KINDS
from tourney.engine.referee import MatchResult, Replay, SeatStats, forfeit_result
from tourney.engine.server import (
    REMOTE_PREFIX,
    ArenaConfig,
    ArenaUnavailable,
    BotProcess,
    LocalArena,
    command_name,
    run_remote_match,
    token_hash,
)
from tourney.workers.program_specs import NOT_PLAYED, hosted_name, is_hosted, is_program
from tourney.workers.sandbox import BundleError, SandboxedProgram
from tourney.workers.start_clock import StartClock

CONNECT_WAIT_S = 5.0  # how long a started program has to say Hello, on its start clock (start_clock.py)
CONNECT_CEILING_S = 30.0  # ... and on the wall, however busy the machine
POLL_S = 0.05  # how often the wait looks for a program that exited or connected
LOG_TAIL_LINES = 3  # lines of a failed program's log quoted in the forfeit's reason
LOG_TAIL_CHARS = 400  # ... and at most this many characters of them
LOG_DIR = Path("bot-logs")
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SOCKET_NAME = "arena.sock"
# Connections each listener of a match's private arena takes (a public arena takes 4,096, ~17 KB each): a
# program needs one, the organiser's RunMatch one, so a hosted bot cannot fill its worker with idle ones.
PROGRAM_CONNECTIONS = 16


class HostedStart(Protocol):
    """Makes the sandboxed program of a hosted seat (not started): its bundle, connecting to the arena at
    socket_path as `name` with `token`, logging under log_dir."""

    def __call__(self, spec: str, name: str, token: str, socket_path: Path, log_dir: Path) -> SandboxedProgram: ...


class Program(Protocol):
    """A started bot program: a plain one (BotProcess) or a sandboxed hosted bot (SandboxedProgram)."""

    name: str
    log_path: Path
    log_start: int

    @property
    def process(self) -> Any: ...

    def alive(self) -> bool: ...


class SeatForfeit(Exception):  # noqa: N818  (an outcome, not an error)
    """A program seat could not be started or did not connect: that seat forfeits, for `why`."""

    def __init__(self, seat: int, why: str) -> None:
        super().__init__(why)
        self.seat, self.why = seat, why


@dataclass
class ProgramArena:
    """A private arena serving one match, with its program seats started and connected."""

    arena: LocalArena
    admin_token: str
    seats: list[str]  # what RunMatch seats: remote:NAME for programs and guests, the spec of built-in bots
    processes: dict[int, Program]
    hosted: dict[int, SandboxedProgram]
    guest_tokens: dict[str, str]  # a token for each guest (empty when the arena admits anyone)


def open_program_arena(stack: contextlib.ExitStack, specs: Sequence[str], hosted: HostedStart | None, log_dir: Path,
                       guests: Sequence[str] = (), guests_connect: Callable[[ProgramArena], None] | None = None
                       ) -> ProgramArena:
    """Serve a private arena for one match on `stack` and start the programs among `specs`.

    A `remote:NAME` spec whose NAME is in `guests` is a participant the caller connects itself
    (`guests_connect`, before the wait for everyone). With a hosted seat, every program seat and
    guest gets a token of its own for this match (TOURNEY_TOKEN) and the arena admits no other: a
    hostile bot cannot connect under its opponent's name. Raises SeatForfeit for a seat that could
    not start or connect. hosted makes the hosted seats' programs (None: a hosted seat forfeits).
    """
    any_hosted = any(is_hosted(spec) for spec in specs)
    names = {i: hosted_name(spec, i) if is_hosted(spec) else command_name(spec, i)
             for i, spec in enumerate(specs) if is_program(spec)}
    tokens = {name: secrets.token_urlsafe(16) if any_hosted else "" for name in [*names.values(), *guests]}
    admin_token = secrets.token_urlsafe(12)
    arena_config = ArenaConfig(admin_token=admin_token, allow_anonymous=not any_hosted,
                               seat_wait_s=CONNECT_WAIT_S, tokens={n: token_hash(t) for n, t in tokens.items() if t},
                               max_connections=PROGRAM_CONNECTIONS)
    # Each hosted seat its own socket, in a folder of its own (the one its sandbox sees): the arena counts
    # a socket's callers as one address, so no seat can spend its opponent's limits (server.py).
    sockets: dict[int, Path] = {}
    if any_hosted:
        folder = tempfile.mkdtemp(prefix="tourney-arena-")  # short: a socket path has 107 bytes at most
        stack.callback(shutil.rmtree, folder, True)
        for i, spec in enumerate(specs):
            if is_hosted(spec):
                (Path(folder) / str(i)).mkdir()
                sockets[i] = Path(folder) / str(i) / SOCKET_NAME
    arena = stack.enter_context(LocalArena(arena_config, unix_paths=[str(path) for path in sockets.values()]))
    table = ProgramArena(arena, admin_token, [], {}, {}, {g: tokens[g] for g in guests})
    for i, spec in enumerate(specs):
        if i not in names:
            table.seats.append(spec)
            continue
        name = names[i]
        try:
            if i in sockets:
                if hosted is None:
                    raise ConfigError(f"{spec} is a hosted bot, and this match has no store to read it from: "
                                      "pass --db.")
                table.hosted[i] = stack.enter_context(hosted(spec, name, tokens[name], sockets[i], log_dir))
                table.processes[i] = table.hosted[i]
            else:
                table.processes[i] = stack.enter_context(BotProcess(spec, name, arena.address, tokens[name], log_dir))
        except (ConfigError, BundleError) as exc:  # no such program here, a hosted bot retired meanwhile, or
            raise SeatForfeit(i, str(exc)) from None  # its stored bundle no longer unpacks
        table.seats.append(REMOTE_PREFIX + name)
    if guests_connect is not None:
        guests_connect(table)
    silent = _await_connections(arena, table.processes)
    if silent is not None:
        raise SeatForfeit(*silent)
    return table


def play_with_programs(game: str, specs: Sequence[str], seed: int, config: Mapping[str, Any],
                       move_ms: int | None, log_dir: Path = LOG_DIR, bot_seeds: Sequence[int] = (),
                       realtime: bool = False, hosted: HostedStart | None = None) -> MatchResult:
    """Play one match whose seats include bot programs, on a private loopback arena (open_program_arena).

    bot_seeds (one per seat) seed the built-in bots among them, as workers would; with realtime
    the arena plays it on its clock (the programs see MatchStarted.realtime). hosted makes the
    hosted seats' programs. A program that cannot play forfeits the match.
    """
    with contextlib.ExitStack() as stack:
        try:
            table = open_program_arena(stack, specs, hosted, log_dir)
        except SeatForfeit as forfeit:
            return _forfeit(game, len(specs), seed, dict(config), forfeit.seat, forfeit.why)
        processes = table.processes
        try:
            result = run_remote_match(table.arena.address, game, table.seats, seed, config, move_ms,
                                      table.admin_token, realtime=realtime, bot_seeds=bot_seeds)
        except ArenaUnavailable as exc:
            # Connected, but not for this game (or gone meanwhile): that program forfeits, never one ready.
            culprit = _unready(table.arena, processes, game)
            return _forfeit(game, len(specs), seed, dict(config), culprit, _why(processes[culprit], str(exc)))
        return _capped(result, table.hosted)


def _capped(result: MatchResult, hosted: Mapping[int, SandboxedProgram]) -> MatchResult:
    """A forfeit by a hosted seat that a sandbox cap stopped, made a crash that names the cap."""
    seat = result.forfeit_seat
    if seat is None or seat not in hosted or result.termination not in FAULT_KINDS:
        return result
    cap = hosted[seat].limit_hit()
    if cap is None:
        return result
    stats = [s.stats() for s in result.seats]
    faults = dict(stats[seat].faults)
    faults[result.termination] = faults.get(result.termination, 1) - 1
    stats[seat].faults = {k: n for k, n in faults.items() if n > 0}
    return forfeit_result(result.replay, stats, seat, Termination.CRASH, cap, result.details)


def _await_connections(arena: LocalArena, processes: Mapping[int, Program]) -> tuple[int, str] | None:
    """Wait until every program has connected; else (seat, why) for the first that exited or stayed silent.

    Each program's wait is timed on its own start clock: time a loaded machine kept it off the CPU is
    not held against it (up to CONNECT_CEILING_S on the wall); time its sandbox's own CPU cap or its own
    other threads did is. Its own: one program's threads never stretch another's wait."""
    arena_process = os.getpid()  # the arena answers from this process
    clocks = {i: StartClock([p.process.pid] if p.process is not None else [], CONNECT_CEILING_S,
                            serving=arena_process, held=_sandbox_hold(p)) for i, p in processes.items()}
    while True:
        waiting = [i for i, p in processes.items() if not arena.arena.connected(p.name)]
        if not waiting:
            return None
        for i in waiting:
            process = processes[i]
            if not process.alive():
                return i, _why(process, "it exited before connecting")
        for i in waiting:
            if clocks[i].expired(CONNECT_WAIT_S):
                return i, _why(processes[i], silent_for(clocks[i]))
        time.sleep(POLL_S)


def _unready(arena: LocalArena, processes: Mapping[int, Program], game: str) -> int:
    """The program seat to blame for a match the arena would not start: the first that exited, else the
    first with no open session playing `game` (it left, or said Hello for other games), else the first."""
    dead = [i for i, p in processes.items() if not p.alive()]
    seatless = [i for i, p in processes.items() if not any(s.plays(game) for s in arena.arena.connected(p.name))]
    return (dead or seatless or sorted(processes))[0]


def _sandbox_hold(program: Program) -> dict[int, Callable[[], float]]:
    """A sandboxed program's root with its cgroup's CPU hold (see StartClock's `held`); nothing for any other."""
    if isinstance(program, SandboxedProgram) and program.process is not None:
        return {program.process.pid: program.cgroup.throttled_s if program.cgroup is not None else _uncapped}
    return {}


def _uncapped() -> float:
    """The CPU hold of a sandbox without a cgroup (its caps are rlimits): none."""
    return 0.0


def silent_for(clock: StartClock) -> str:
    """Why a program that never said Hello forfeits: the limit, and the wall time when the machine was busy."""
    wall = clock.wall()
    busy = f" ({wall:.0f} s on the wall, most of it waiting for a busy CPU)" if wall >= CONNECT_WAIT_S + 1 else ""
    return f"it did not connect within {CONNECT_WAIT_S:g} s{busy}"


def _why(process: Program, what: str) -> str:
    """What happened to a program, its exit status and the tail of its log, in one line."""
    code = process.process.poll() if process.process is not None else None
    status = "" if code is None else (f", killed by signal {-code}" if code < 0 else f", exit status {code}")
    if isinstance(process, SandboxedProgram) and (cap := process.limit_hit()) is not None:
        status += f" ({cap})"
    if isinstance(process, SandboxedProgram):  # a stranger's log is its author's: it is kept out of results
        return f"{what}{status}"
    tail = log_tail(process.log_path, process.log_start)
    return f"{what}{status}" + (f"; its log {process.log_path} ends: {tail}" if tail else "")


def log_tail(path: Path, start: int = 0) -> str:
    """The last few non-blank lines of a log after byte `start`, colour codes removed, joined with ' | '
    and bounded. Whatever else cannot be shown as it is (bytes that are not UTF-8, control and
    format characters) is written as an escape such as \\x00 or \\u202e: this text goes to the
    organiser's terminal, where a bot's raw bytes could otherwise move the cursor, retitle the
    window or reverse the text."""
    try:
        with path.open("rb") as log:
            log.seek(0, 2)
            size = log.tell()
            log.seek(max(start, size - 8192))
            text = log.read().decode("utf-8", "backslashreplace")
    except OSError:
        return ""
    # Each line whole (the joined tail is cut below, keeping its end).
    lines = [shown(ANSI_ESCAPE.sub("", line), sys.maxsize).strip() for line in text.splitlines()]
    joined = " | ".join([line for line in lines if line][-LOG_TAIL_LINES:])
    return joined if len(joined) <= LOG_TAIL_CHARS else "..." + joined[-LOG_TAIL_CHARS:]


def _forfeit(game: str, players: int, seed: int, config: dict[str, Any], seat: int, why: str) -> MatchResult:
    """The match forfeited as a crash by the program in `seat`, which never played it."""
    return forfeit_result(Replay(game, players, config, seed), [SeatStats() for _ in range(players)], seat,
                          Termination.CRASH, f"{NOT_PLAYED}: {why}")
