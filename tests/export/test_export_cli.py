"""`tourney export`'s refusals are one sentence and exit 2, and leave no file behind; the web download is
the same bytes as the command's, streamed as JSON lines."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import stat
import subprocess
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tests.clients.arena import ENV, TOURNEY
from tests.export.conftest import ADMIN, Stored, match_copies
from tests.web.browser import served
from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app


def refused(args: list[str], env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(app, ["export", *args], env={"TOURNEY_ADMIN_TOKEN": "", **(env or {})})
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize(("args", "words"), [
    (["99"], "there is no tournament 99"),
    (["1", "--format", "csv"], "--format csv is not offered"),
    (["1", "--full"], "pass the admin token"),
    (["1", "--full", "--admin-token", "change-me"], "the admin token is not a secret"),
])
def test_bad_input_is_one_sentence(stored: Stored, args: list[str], words: str) -> None:
    assert words in refused([*args, "--db", str(stored.path)])


def test_a_weak_token_is_not_told_to_be_left_unset(stored: Stored) -> None:
    """Left unset, `--full` is refused: the sentence for a weak token must not offer that as the fix."""
    sentence = refused(["1", "--full", "--admin-token", "short", "--db", str(stored.path)])
    assert "not a secret" in sentence and "openssl rand" in sentence
    assert "unset" not in sentence


def test_a_missing_database_or_an_unwritable_file_is_one_sentence(stored: Stored, tmp_path: Path) -> None:
    assert "there is no database" in refused(["1", "--db", str(tmp_path / "nope.db")])
    assert not (tmp_path / "nope.db").exists()
    out = tmp_path / "missing-folder" / "x.jsonl"
    assert "cannot write" in refused(["1", "--db", str(stored.path), "--out", str(out)])


def test_a_refused_export_leaves_no_file(stored: Stored, tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    refused(["99", "--db", str(stored.path), "--out", str(out)])
    assert list(tmp_path.iterdir()) == []


def test_the_web_download_of_an_unknown_tournament_is_the_webs_sentence(stored: Stored) -> None:
    """A web reader has no --db to check: the 404 says what the other tournament pages say."""
    engine = open_store(str(stored.path))
    try:
        with served(create_app(engine, admin_token=ADMIN)) as base:
            response = httpx.get(f"{base}/api/tournaments/999/export.jsonl", timeout=30)
            assert response.status_code == 404
            assert response.json() == {"detail": "there is no tournament 999."}
            assert httpx.get(f"{base}/api/tournaments/999/standings", timeout=30).json() == response.json()
    finally:
        engine.dispose()


def test_the_web_download_is_the_commands_output(stored: Stored) -> None:
    tournament = stored.by_game["tiny-ninjas"]
    public = CliRunner().invoke(app, ["export", str(tournament), "--db", str(stored.path)]).stdout
    full = CliRunner().invoke(app, ["export", str(tournament), "--db", str(stored.path), "--full",
                                    "--admin-token", ADMIN]).stdout
    engine = open_store(str(stored.path))
    try:
        with served(create_app(engine, admin_token=ADMIN)) as base:
            url = f"{base}/api/tournaments/{tournament}/export.jsonl"
            with httpx.stream("GET", url, timeout=30) as response:
                assert response.status_code == 200
                assert response.headers["content-type"] == "application/x-ndjson"
                assert response.headers["content-disposition"] == \
                    f'attachment; filename="tournament-{tournament}.jsonl"'
                assert "content-length" not in response.headers  # streamed, not built whole first
                assert "".join(response.iter_text()) == public
            assert httpx.get(url, params={"full": "true"}, timeout=30).status_code == 403  # no token
            assert httpx.get(url, params={"full": "true"}, headers={"X-Admin-Token": ADMIN}, timeout=30).text == full
            missing = httpx.get(f"{base}/api/tournaments/99/export.jsonl", timeout=30)
            assert missing.status_code == 404 and "there is no tournament 99" in missing.json()["detail"]
            page = httpx.get(f"{base}/tournaments/{tournament}", timeout=30).text
            assert f'href="/api/tournaments/{tournament}/export.jsonl"' in page
    finally:
        engine.dispose()


def test_an_out_that_is_no_regular_file_is_written_in_place(stored: Stored, tmp_path: Path) -> None:
    """A FIFO (like /dev/null) stays what it is: only a regular file is written beside and renamed."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        read = pool.submit(fifo.read_text)
        try:
            result = CliRunner().invoke(app, ["export", str(stored.by_game["ninja-versus-ninja"]), "--db",
                                              str(stored.path), "--out", str(fifo)])
        finally:
            if not read.done():  # the export never opened the pipe: let the reader see an empty one
                with contextlib.suppress(OSError):  # (or the reader finished meanwhile: nothing to release)
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        lines = read.result(timeout=60).splitlines()
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(fifo.stat().st_mode) and sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
    assert len(lines) == 6 and all(json.loads(line)["game"] == "ninja-versus-ninja" for line in lines)


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """`tourney export 1 | head`: the export stops quietly when its reader goes away."""
    path = tmp_path / "store.db"
    tournament = match_copies(path, 30)  # some 3 MB of lines: more than a pipe holds (64 KiB, 1 MiB at most)
    proc = subprocess.Popen([*TOURNEY, "export", str(tournament), "--db", str(path)],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    try:
        assert proc.stdout.read(20).startswith(b'{"tournament":')
        proc.stdout.close()  # more than a pipe's buffer is still to come: the next write meets a closed pipe
        err = proc.stderr.read()
        proc.wait(120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(20)
    assert proc.returncode == 0 and err == b"", err


def test_out_dash_is_stdout(stored: Stored, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--out -` used to write a file named '-' in the working folder; it means stdout, as the default."""
    monkeypatch.chdir(tmp_path)
    args = ["export", str(stored.by_game["maitre-ninja"]), "--db", str(stored.path)]
    dashed, plain = (CliRunner().invoke(app, [*args, *extra]) for extra in (["--out", "-"], []))
    assert dashed.exit_code == plain.exit_code == 0, dashed.output
    lines = dashed.stdout.splitlines()
    assert lines and dashed.stdout == plain.stdout and all(json.loads(line)["game"] == "maitre-ninja" for line in lines)
    assert list(tmp_path.iterdir()) == []
