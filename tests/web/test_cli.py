"""`tourney web` and `tourney serve --web-port` as a user runs them: real processes, real ports on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.ops.prom import free_port
from tests.web.conftest import Filled

TOURNEY = str(Path(sys.executable).with_name("tourney"))
WAIT_S = 60.0
ADMIN = "web-test-admin-Q7v2xK9pLm4"  # serve refuses weak admin tokens


@contextmanager
def running(*args: str, ready: str) -> Iterator[subprocess.Popen[str]]:
    """Start `tourney ARGS`, wait until stdout shows `ready`, stop it with SIGINT at the end."""
    env = dict(os.environ, TOURNEY_ADMIN_TOKEN=ADMIN)
    proc = subprocess.Popen([TOURNEY, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seen = threading.Event()
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if ready in line:
                seen.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert seen.wait(WAIT_S), f"never printed {ready!r}: {lines} {proc.poll()}"
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(WAIT_S)


def test_tourney_web_serves_the_store(filled: Filled) -> None:
    port = free_port()
    with running("web", "--db", str(filled.path), "--port", str(port), ready="tourney web on"):
        home = httpx.get(f"http://127.0.0.1:{port}/api/tournaments", timeout=WAIT_S).json()
        assert {t["id"] for t in home["tournaments"]} >= set(filled.by_game.values())
        assert "<h1>Tournaments</h1>" in httpx.get(f"http://127.0.0.1:{port}/", timeout=WAIT_S).text
        match_id = httpx.get(f"http://127.0.0.1:{port}/api/tournaments/{filled.sprt}/matches",
                             timeout=WAIT_S).json()["matches"][0]["id"]
        # The admin token comes from the environment like the arena's.
        full = httpx.get(f"http://127.0.0.1:{port}/api/matches/{match_id}/full", headers={"X-Admin-Token": ADMIN},
                         timeout=WAIT_S)
        assert full.status_code == 200 and full.json()["full"] is True


def test_serve_with_web_port_serves_the_pages_beside_the_arena(filled: Filled) -> None:
    port = free_port()
    with running("serve", "--port", "0", "--allow-anonymous", "--db", str(filled.path), "--web-port", str(port),
                 ready="web on http://"):
        live = httpx.get(f"http://127.0.0.1:{port}/api/live", timeout=WAIT_S).json()
        assert live["arena"].startswith("127.0.0.1:") and live["matches"] == []
        assert httpx.get(f"http://127.0.0.1:{port}/tournaments/{filled.sprt}", timeout=WAIT_S).status_code == 200


def test_bad_input_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    for args in (["web", "--db", "postgresql://nobody@127.0.0.1:1/none", "--port", str(free_port())],
                 ["web", "--db", str(tmp_path / "x.db"), "--port", "0"],
                 ["web", "--db", str(tmp_path / "missing.db"), "--port", str(free_port())]):
        done = subprocess.run([TOURNEY, *args], capture_output=True, text=True, timeout=WAIT_S)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "missing.db").exists()  # a read-only app makes no store
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        done = subprocess.run([TOURNEY, "serve", "--port", "0", "--allow-anonymous", "--db", str(tmp_path / "y.db"),
                               "--web-port", str(busy)], capture_output=True, text=True, timeout=WAIT_S)
        assert done.returncode == 2 and "--web-port" in done.stderr and "Traceback" not in done.stderr
        done = subprocess.run([TOURNEY, "web", "--db", str(tmp_path / "y.db"), "--port", str(busy)],
                              capture_output=True, text=True, timeout=WAIT_S)
        assert done.returncode == 2 and "pick another --port" in done.stderr and "Traceback" not in done.stderr


def test_a_weak_admin_token_is_refused_before_the_pages_are_served(filled: Filled) -> None:
    """The web app's admin token unlocks every seed and hidden card, and it answers a wrong guess at once, so it
    must be a secret, as `tourney serve`'s is: a placeholder or a short word is refused, given either way."""
    port = free_port()
    for args, env in ((["--admin-token", "change-me"], {}), ([], {"TOURNEY_ADMIN_TOKEN": "org"})):
        done = subprocess.run([TOURNEY, "web", "--db", str(filled.path), "--port", str(port), *args],
                              capture_output=True, text=True, timeout=WAIT_S, env=dict(os.environ, **env))
        assert done.returncode == 2 and "the admin token is not a secret" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert "tourney web on" not in done.stdout
    with socket.socket() as probe:  # nothing was left listening
        probe.bind(("127.0.0.1", port))
