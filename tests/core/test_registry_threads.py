"""Games asked for from several threads at once, in a fresh process: every thread finds every game.

The first call imports the game packages; a thread that asked meanwhile used to find the registry
half filled (the arena answered "unknown game 'ninja-versus-ninja'" under load)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import threading
    from tourney.engine.core import get_game

    IDS = ["tiny-ninjas", "ninja-versus-ninja", "ninja-arena", "maitre-ninja"]
    start = threading.Barrier(16)
    failures = []

    def ask(i):
        start.wait()
        try:
            get_game(IDS[i % len(IDS)])
        except Exception as exc:
            failures.append(str(exc))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(len(failures), failures[:1])
""")


@pytest.mark.timeout(300)
def test_threads_asking_at_once_all_find_every_game() -> None:
    for _ in range(5):  # fresh processes: the race is in the first discovery
        done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("0 "), done.stdout
