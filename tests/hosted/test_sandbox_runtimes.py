"""What runs inside the sandbox: Python with grpcio, protobuf and the SDK, Node, and the rlimit fallback."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tourney.workers.sandbox import SandboxedProgram
from tourney.workers.sandbox import process as sandbox_process

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]
WAIT_S = 60.0


def run_in_sandbox(tmp_path: Path, command: str, files: dict[str, str] | None = None) -> tuple[int | None, str]:
    """Run `command` from a bundle of `files` until it exits; (exit status, log)."""
    bundle = tmp_path / "bundle"
    bundle.mkdir(exist_ok=True)
    bundle.chmod(0o755)
    for name, text in (files or {}).items():
        (bundle / name).write_text(text)
    program = SandboxedProgram(command, bundle, tmp_path / "arena.sock", "probe", tmp_path / "probe.log")
    with program:
        deadline = time.monotonic() + WAIT_S
        while program.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        code = program.process.poll() if program.process is not None else None
    return code, (tmp_path / "probe.log").read_text(errors="replace")


def test_python_imports_grpc_protobuf_and_the_sdk(tmp_path: Path) -> None:
    code, log = run_in_sandbox(tmp_path, "python3 probe.py", {"probe.py": (
        "import grpc, google.protobuf, tourney_bot, os\n"
        f"print('IMPORTED', os.getcwd(), os.environ['HOME'], os.path.exists({str(tmp_path)!r}),"
        " os.path.exists('/work'), os.path.exists('/etc/passwd'))\n")})
    assert code == 0, log
    assert "IMPORTED /bot /home/bot False False False" in log  # neither the test's files nor the host's


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_runs(tmp_path: Path) -> None:
    code, log = run_in_sandbox(tmp_path, "node probe.js", {"probe.js": "console.log('NODE', process.version)\n"})
    assert code == 0 and "NODE v" in log, log


def test_without_a_cgroup_memory_is_capped_by_rlimit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_process, "cgroups_usable", lambda: False)
    code, log = run_in_sandbox(tmp_path, "python3 -c \"b = b'x' * (2 << 30)\"")
    assert code != 0 and "MemoryError" in log


def test_limits_come_from_the_environment_or_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    from tourney.engine.core import ConfigError
    from tourney.workers.sandbox import SandboxLimits

    assert SandboxLimits.from_env() == SandboxLimits()
    monkeypatch.setenv("TOURNEY_SANDBOX_MEMORY_MIB", "512")
    monkeypatch.setenv("TOURNEY_SANDBOX_PIDS", "32")
    limits = SandboxLimits.from_env()
    assert (limits.memory_bytes, limits.pids, limits.cpus) == (512 << 20, 32, 1.0)
    monkeypatch.setenv("TOURNEY_SANDBOX_PIDS", "lots")
    with pytest.raises(ConfigError, match="TOURNEY_SANDBOX_PIDS='lots' is not a number from 8 to 4096"):
        SandboxLimits.from_env()
