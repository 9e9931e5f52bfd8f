"""An environment playing against a program leaves nothing behind: close() stops the program, the arena and
the match's threads, and so does dropping the environment without close() (a training loop that makes one
per evaluation match would otherwise gather a program and an arena per match)."""

from __future__ import annotations

import gc
import threading
from pathlib import Path

import numpy as np
import pytest

from tourney.envs import SeatEnv

PROGRAM = f"cmd:python3 {Path(__file__).resolve().parents[2] / 'clients/python/examples/random_bot.py'}"
MATCH_THREADS = ("envs-program-match", "local-arena")  # the match's and its arena's threads, by name
JOIN_S = 60.0  # a bound on the wait for a thread that was told to stop, not a measure of speed


def _children() -> set[int]:
    """This process's live child processes (a zombie has exited: it is not counted)."""
    pids: set[int] = set()
    for listing in Path("/proc/self/task").glob("*/children"):
        pids.update(int(p) for p in listing.read_text().split())
    return {p for p in pids if _alive(p)}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _match_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name in MATCH_THREADS]


def _started() -> tuple[SeatEnv, set[int]]:
    """An environment one step into a match against the program, and the program's process."""
    before = _children()
    env = SeatEnv("tiny-ninjas", PROGRAM)
    observation, _ = env.reset(seed=2)
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    program = _children() - before
    assert program, "the program runs while the match is on"
    return env, program


def _assert_released(program: set[int]) -> None:
    for thread in _match_threads():
        thread.join(JOIN_S)
    assert not _match_threads()
    assert not program & _children()


@pytest.mark.timeout(300)
def test_close_stops_the_program_and_the_match_threads():
    env, program = _started()
    env.close()
    _assert_released(program)


@pytest.mark.timeout(300)
def test_an_environment_dropped_without_close_stops_its_program():
    env, program = _started()
    del env
    gc.collect()
    _assert_released(program)
