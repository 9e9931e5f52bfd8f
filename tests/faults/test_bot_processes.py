"""Bot programs (real processes launched like `cmd:` seats) that crash or fork."""

from __future__ import annotations

import sys
from pathlib import Path

import grpc
import pytest

from tests.faults.faultlib import GAME, with_good_matches
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.launcher import BotProcess, group_members

ROOT = Path(__file__).resolve().parents[2]


def _program(mode: str) -> str:
    return f"cmd:{sys.executable} -m tests.faults.procbot {mode}"


def _launch(harness: ArenaHarness, mode: str, name: str, tmp_path: Path) -> BotProcess:
    """The bot program, not started yet (`with` starts it)."""
    import os

    os.environ.setdefault("PYTHONPATH", str(ROOT))
    return BotProcess(_program(mode), name, harness.address, log_dir=tmp_path, stop_grace_s=2.0)


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] == "Z"


def test_a_program_that_crashes_at_its_first_move_forfeits_by_disconnection(harness: ArenaHarness,
                                                                              tmp_path: Path) -> None:
    with _launch(harness, "crash-first", "crasher", tmp_path) as bot:
        assert wait_for(lambda: bool(harness.arena.connected("crasher"))), bot.log_path.read_text()
        bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["random", "remote:crasher"], 21))
        assert (bad.termination, bad.forfeit_seat) == ("disconnection", 1)
        assert wait_for(lambda: not bot.alive())
        assert bot.process is not None and bot.process.wait(WAIT_S) == 3
    assert not _zombie(bot.process.pid)


def test_a_program_that_crashes_before_hello_leaves_a_clear_refusal_and_no_match(harness: ArenaHarness,
                                                                                  tmp_path: Path) -> None:
    with _launch(harness, "crash-start", "stillborn", tmp_path) as bot:
        assert bot.process is not None and bot.process.wait(WAIT_S) == 5
        with pytest.raises(grpc.RpcError) as err:
            harness.run_match(GAME, ["remote:stillborn", "random"], 22, wait_s=1)
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "stillborn" in str(err.value.details()) and "connect it first" in str(err.value.details())
    # No match was started, so nothing is stored for it, and the arena still plays.
    assert harness.stored.results == {}  # type: ignore[attr-defined]
    with_good_matches(harness, lambda: harness.run_match(GAME, ["random", "random"], 23))


def test_a_program_that_forks_and_exits_leaves_no_process_behind(harness: ArenaHarness, tmp_path: Path) -> None:
    bot = _launch(harness, "fork", "forker", tmp_path).start()
    assert bot.process is not None
    try:
        assert bot.process.wait(WAIT_S) == 0  # the launched program itself is gone at once...
        assert wait_for(lambda: bool(harness.arena.connected("forker"))), bot.log_path.read_text()
        # ...but its child plays, and a grandchild helper sleeps on.
        assert len(group_members(bot.process.pid)) == 2
        record, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["remote:forker", "random"], 24))
        assert record.termination in ("normal", "adjudication")
    finally:
        bot.stop()
    # Stopping the bot reaches every process it forked; none is left running, none a zombie of ours.
    assert wait_for(lambda: not group_members(bot.process.pid), 10)
    assert not _zombie(bot.process.pid)
    assert wait_for(lambda: not harness.arena.connected("forker"))
