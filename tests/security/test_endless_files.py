"""Attack on the files a command reads by name: one with no end, or a directory. `tourney pair` checked
its TRF's size with stat(), which is 0 for a device, a pipe or a /proc file, then read it whole; `serve`
read --tls-cert, --tls-key and its token file whole. So `pair /dev/zero` and `serve --tokens /dev/zero`
grew their memory until the kernel killed them, and a directory was an IsADirectoryError traceback.
Each read is now bounded: one sentence naming the file, and exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TOURNEY = str(Path(sys.executable).with_name("tourney"))
# So that, were a read unbounded again, the test fails instead of the machine swapping. It bounds address
# space, which gRPC's threads and arenas reserve generously: at 3 GiB a loaded run's child aborted in
# gRPC's poller (mmap failed) before reading anything; /dev/zero still passes 8 GiB within seconds.
MEMORY_CAP = 8 << 30
# The cap is set by a fresh interpreter that then becomes `tourney`, not by a preexec_fn: that runs in a fork
# of this test process, whose gRPC restarts its threads after a fork, and under a cap below this process's own
# address space they aborted there (a loaded run: gRPC's abort text on stderr, and its alarm, which outlives
# exec, killed the command after it had said its one sentence).
CAPPED = ("import os, resource, sys; resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]),) * 2); "
          "os.execv(sys.argv[2], sys.argv[2:])")


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("args", "named"), [
    (["pair", "/dev/zero"], "/dev/zero is larger than"),
    (["pair", "/tmp"], "cannot read the TRF file /tmp"),
    (["serve", "--port", "0", "--tls-cert", "/dev/zero", "--tls-key", "/dev/zero"], "--tls-cert /dev/zero is larger"),
    (["serve", "--port", "0", "--tls-cert", "/tmp", "--tls-key", "/tmp"], "cannot read --tls-cert /tmp"),
    (["serve", "--port", "0", "--tokens", "/dev/zero"], "token file /dev/zero is larger"),
    (["serve", "--port", "0", "--tokens", "/tmp"], "cannot read token file /tmp"),
    (["bots", "add", "x", "--tokens", "/tmp"], "cannot read token file /tmp"),
])
def test_a_file_without_end_or_a_directory_is_one_sentence(args: list[str], named: str) -> None:
    done = subprocess.run([sys.executable, "-c", CAPPED, str(MEMORY_CAP), TOURNEY, *args], capture_output=True,
                          text=True, timeout=90)
    assert done.returncode == 2, done.stderr[-500:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], lines


@pytest.mark.timeout(60)
def test_a_token_file_nested_past_the_parser_is_one_sentence(tmp_path: Path) -> None:
    deep = tmp_path / "bots.json"
    deep.write_text("[" * 100_000)
    done = subprocess.run([TOURNEY, "serve", "--port", "0", "--tokens", str(deep)], capture_output=True, text=True,
                          timeout=50)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [f"error: token file {deep} is not JSON: "
                                                                         "fix or delete it."], done.stderr[-500:]
