"""A store holding the test bundles, and a well-behaved hosted bot playing beside each hostile one."""

from __future__ import annotations

import os
import secrets
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.hosted.bundles import GAME, submit
from tourney.engine.core import Termination
from tourney.engine.referee import MatchResult
from tourney.tournament.hosted.seat import hosted_starter, log_path
from tourney.tournament.store.database import open_store
from tourney.workers.programs import play_with_programs

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


@dataclass
class Store:
    url: str
    folder: Path
    marker: str
    secret_path: Path
    listener_port: int = 0
    logs: Path = field(default_factory=Path)

    def play(self, *specs: str, move_ms: int | None = 2000, seed: int = 7) -> MatchResult:
        """One match of the test game between `specs`, its logs under self.logs."""
        return play_with_programs(GAME, list(specs), seed, {}, move_ms, self.logs, hosted=hosted_starter(self.url))

    def log(self, name: str, seat: int = 0) -> str:
        return log_path(self.logs, f"{name}-{seat}").read_text(errors="replace")


@pytest.fixture(scope="session")
def hosted_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    import socket

    folder = tmp_path_factory.mktemp("hosted")
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0)
    secret = folder / "organiser-secret.txt"
    secret.write_text("the organiser's secret")
    store = Store(f"sqlite:///{folder / 'store.db'}", folder, f"tourney-orphan-{secrets.token_hex(6)}", secret,
                  listener.getsockname()[1], folder / "logs")
    engine = open_store(store.url)
    for name in ("good", "remember", "forkbomb", "hog", "sleeper", "silent", "impostor", "spinner",
                 "slow", "locker", "crowder", "hoarder", "peeker", "scribbler",
                 "elsewhere", "filer", "herd"):
        submit(engine, folder / "bundles", name)
    submit(engine, folder / "bundles", "net", PORT=store.listener_port)
    submit(engine, folder / "bundles", "snoop", SECRET_PATH=str(secret))
    submit(engine, folder / "bundles", "orphan", MARKER=store.marker)
    store.listener = listener  # type: ignore[attr-defined]
    yield store
    listener.close()


# The move limit of the honest matches played beside a hostile bot: what they check is that the hostile bot's
# caps keep it from breaking them, not the machine's speed; with 2 s a move, a loaded run (two CPU burners,
# the spinner at its 1-CPU cap, another test worker) once starved the honest bot of a whole move.
BESIDE_MOVE_MS = 10_000


class Beside:
    """Plays hosted:good against random, over and over on another thread, until stopped."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.results: list[MatchResult] = []
        self.errors: list[BaseException] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        seed = 100
        while not self._stop.is_set() and seed < 200:  # bounded: a test ends long before
            try:
                self.results.append(play_with_programs(GAME, ["hosted:good", "random"], seed, {}, BESIDE_MOVE_MS,
                                                       self.store.logs / "beside",
                                                       hosted=hosted_starter(self.store.url)))
            except BaseException as exc:  # noqa: BLE001  (reported by finish())
                self.errors.append(exc)
                return
            seed += 1

    def finish(self) -> None:
        """Stop after the match in play (at least one has ended) and check that all ended normally."""
        while not self.results and not self.errors and self._thread.is_alive():
            self._thread.join(0.1)
        self._stop.set()
        self._thread.join(120)
        assert not self.errors, self.errors
        assert self.results
        for result in self.results:
            assert result.termination in (Termination.NORMAL, Termination.ADJUDICATION), result.reason


@pytest.fixture
def beside(hosted_store: Store) -> Iterator[Beside]:
    """A well-behaved hosted bot's matches on the same machine while the test plays; checked at the end."""
    runner = Beside(hosted_store)
    yield runner
    runner.finish()


def crash_under_rlimits(store: Store, spec: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Play `spec` (seat 0) against random with the caps the image has (rlimits, no cgroup) and a generous
    move limit (what it does, it does in its first move, on a machine that may be loaded); it must crash
    in its own seat: the crash's reason."""
    from tourney.workers.sandbox import process as sandbox_process

    monkeypatch.setattr(sandbox_process, "cgroups_usable", lambda: False)
    result = store.play(spec, "random", move_ms=60_000)
    assert result.termination is Termination.CRASH and result.forfeit_seat == 0, result.reason
    return result.reason


def processes_with(marker: str) -> list[int]:
    """Pids of live processes whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and entry.name != str(os.getpid()):
            try:
                cmdline = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if marker.encode() in cmdline and state not in ("Z", "X"):
                found.append(int(entry.name))
    return found
