"""Hostile bundles run for real in the sandbox, each while a well-behaved hosted bot's matches end normally."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tests.hosted.bundles import GAME
from tests.hosted.conftest import Beside, Store, processes_with
from tourney.engine.core import Termination
from tourney.tournament.hosted.seat import hosted_program
from tourney.workers import programs
from tourney.workers.programs import play_with_programs
from tourney.workers.sandbox import SandboxLimits
from tourney.workers.start_clock import StartClock

pytestmark = [pytest.mark.timeout(120)]


def test_no_network_reaches_the_organisers_listener(hosted_store: Store, beside: Beside) -> None:
    result = hosted_store.play("hosted:net", "random")
    assert result.termination in (Termination.NORMAL, Termination.ADJUDICATION), result.reason
    assert "NET: refused" in hosted_store.log("net")
    with pytest.raises(BlockingIOError):
        hosted_store.listener.accept()  # type: ignore[attr-defined]


def test_no_organiser_file_or_variable_is_visible(hosted_store: Store, beside: Beside,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_ADMIN_TOKEN", "organiser-admin-token-xyz")
    monkeypatch.setenv("TOURNEY_DB", "postgresql://organiser:password@db/tourney")
    result = hosted_store.play("hosted:snoop", "random")
    assert result.termination in (Termination.NORMAL, Termination.ADJUDICATION), result.reason
    log = hosted_store.log("snoop")
    assert "SNOOP: no file (FileNotFoundError)" in log
    assert "SNOOP: env ['TOURNEY_ARENA', 'TOURNEY_BOT_NAME', 'TOURNEY_TOKEN']" in log
    assert "organiser" not in log.replace("organiser-secret.txt", "")  # neither the secret, token nor URL
    assert "SNOOP: init" not in log or "'PWD=/'" in log  # not the organiser's working folder either


def test_scratch_files_are_gone_by_the_next_match(hosted_store: Store, beside: Beside) -> None:
    first = hosted_store.play("hosted:remember", "random", seed=1)
    assert "REMEMBER: /home/bot/memory fresh" in hosted_store.log("remember")
    second = hosted_store.play("hosted:remember", "random", seed=2)
    log = hosted_store.log("remember")
    assert "REMEMBER: /home/bot/memory fresh" in log and "REMEMBER: /tmp/memory fresh" in log
    assert "found" not in log
    assert {first.termination, second.termination} <= {Termination.NORMAL, Termination.ADJUDICATION}


def test_a_fork_bomb_is_capped_and_crashes(hosted_store: Store, beside: Beside) -> None:
    result = hosted_store.play("hosted:forkbomb", "random")
    assert result.termination is Termination.CRASH and result.forfeit_seat == 0, result.reason
    assert "cap of 64 processes" in result.reason  # read from the cgroup: forks were refused
    # Its 63 sleeping children were killed with it: the group is gone (a busy one would be left behind).
    assert not list(Path("/sys/fs/cgroup/pids/tourney").glob("forkbomb-0-*"))


def test_4_gib_is_killed_as_a_memory_crash(hosted_store: Store, beside: Beside) -> None:
    # A generous move limit: on a loaded machine the kernel takes seconds to reclaim and kill.
    result = hosted_store.play("hosted:hog", "random", move_ms=30_000)
    assert result.termination is Termination.CRASH and result.forfeit_seat == 0, result.reason
    assert "out of memory" in result.reason
    assert "HOG: allocated" not in hosted_store.log("hog")


def test_a_background_child_is_killed_at_the_match_end(hosted_store: Store, beside: Beside) -> None:
    result = hosted_store.play("hosted:orphan", "random")
    assert result.termination in (Termination.NORMAL, Termination.ADJUDICATION), result.reason
    assert "ORPHAN: child" in hosted_store.log("orphan")  # it did start one
    assert processes_with(hosted_store.marker) == []


def test_a_bot_that_never_says_hello_forfeits(hosted_store: Store, beside: Beside) -> None:
    result = hosted_store.play("hosted:silent", "random")
    assert result.termination is Termination.CRASH and result.forfeit_seat == 0
    assert "did not connect within 5 s" in result.reason
    assert "SILENT: connected" in hosted_store.log("silent")
    assert "SILENT" not in result.reason  # a hosted bot's log stays out of the stored (public) result


def _watch_clocks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, float, float]]:
    """(charged, wall, CPU used) of each start clock that expired, from now on; the connect limit made 3 s."""
    monkeypatch.setattr(programs, "CONNECT_WAIT_S", 3.0)
    decided: list[tuple[float, float, float]] = []

    class Watched(StartClock):
        def expired(self, limit_s: float) -> bool:
            done = super().expired(limit_s)
            if done:
                decided.append((self.charged(), self.wall(), self.cpu_used()))
            return done

    monkeypatch.setattr(programs, "StartClock", Watched)
    return decided


@pytest.mark.parametrize("cpus", [0.1, 1.0])
def test_a_silent_bot_spinning_past_its_cpu_forfeits_on_its_limit(hosted_store: Store, beside: Beside,
                                                                  monkeypatch: pytest.MonkeyPatch, cpus: float) -> None:
    # Before: the start clock took threads its own CPU cap throttled (a tenth of a CPU), or its own threads
    # queued behind each other (a whole CPU, on a loaded machine), for threads a busy machine kept waiting:
    # this bot was charged 0.1-0.6 s in 30 s and held its match to the 30 s wall ceiling.
    decided = _watch_clocks(monkeypatch)
    capped = functools.partial(hosted_program, hosted_store.url, limits=SandboxLimits(cpus=cpus))
    result = play_with_programs(GAME, ["hosted:spinner", "random"], 7, {}, 2000, hosted_store.logs, hosted=capped)
    assert result.termination is Termination.CRASH and result.forfeit_seat == 0, result.reason
    assert "did not connect within 3 s" in result.reason
    charged, wall, used = decided[0]
    # It is charged at least the CPU it burnt: on a machine that lets it spin, it runs out of its own 3 s
    # long before the wall's 30 s ceiling. Only a machine so loaded that it gave the spinner less than 3 s
    # of CPU in all that time (seen under the suite beside two CPU burners) may leave it to the ceiling.
    assert charged >= min(used, wall) - 0.01, (charged, wall, used)
    assert charged >= 3.0 or used < 3.0, (charged, wall, used)


def test_a_spinning_bot_does_not_stretch_its_opponents_wait(hosted_store: Store, beside: Beside,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: one clock timed every program of a match, so the spinner's threads, kept waiting, were
    # forgiven to the silent bot too: it stayed to the 30 s ceiling. Each program has its own clock now.
    # Neither bot ever connects, so either may be the first whose own clock runs out: the silent one when
    # it has been charged 3 s, the spinner when it has burnt 3 s of CPU (on a loaded machine, where the
    # arena's threads wait and the silent bot is forgiven those waits, the spinner can come first). What
    # may not happen is the one shared clock's forgiveness: a forfeit charged less than the limit.
    decided = _watch_clocks(monkeypatch)
    result = hosted_store.play("hosted:silent", "hosted:spinner")
    assert result.termination is Termination.CRASH and result.forfeit_seat in (0, 1), result.reason
    assert "did not connect within 3 s" in result.reason
    charged, wall, _ = decided[0]
    assert charged >= 3.0, (charged, wall)


def test_a_bot_that_sleeps_in_a_reply_times_out(hosted_store: Store, beside: Beside) -> None:
    result = hosted_store.play("hosted:sleeper", "random", move_ms=300)
    assert result.termination is Termination.TIMEOUT and result.forfeit_seat == 0, result.reason


def test_a_bot_cannot_connect_under_its_opponents_name(hosted_store: Store, beside: Beside) -> None:
    result = hosted_store.play("hosted:impostor", "hosted:good")
    assert result.termination in (Termination.NORMAL, Termination.ADJUDICATION), result.reason
    assert "IMPOSTOR: refused" in hosted_store.log("impostor")  # each program seat has its own token


def test_a_cmd_program_meets_a_hosted_bot_with_its_own_token(hosted_store: Store) -> None:
    example = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples" / "random_bot.py"
    result = hosted_store.play("hosted:good", f"cmd:python3 {example}")
    assert result.termination in (Termination.NORMAL, Termination.ADJUDICATION), result.reason
