"""A real Prometheus server (Debian's `prometheus` package) on a free loopback port, for integration tests."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml

WAIT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def prometheus(targets: Sequence[str], workdir: Path, job: str = "tourney") -> Iterator[str]:
    """Run Prometheus scraping `targets` every second; yields its base URL once it is ready."""
    binary = shutil.which("prometheus")
    if binary is None:
        pytest.fail("Prometheus is not installed: install Debian's `prometheus` package (as .ci/run does).",
                    pytrace=False)
    config = {"global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
              "scrape_configs": [{"job_name": job, "scrape_interval": "1s", "scrape_timeout": "900ms",
                                  "static_configs": [{"targets": list(targets)}]}]}
    (workdir / "prometheus.yml").write_text(yaml.safe_dump(config))
    port = free_port()
    log = (workdir / "prometheus.log").open("w")
    proc = subprocess.Popen([binary, f"--config.file={workdir / 'prometheus.yml'}",
                             f"--storage.tsdb.path={workdir / 'data'}", f"--web.listen-address=127.0.0.1:{port}"],
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _get(f"{url}/-/ready") is not None, "Prometheus to be ready",
                 lambda: (workdir / "prometheus.log").read_text()[-2000:])
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(15)
        log.close()


def _get(url: str) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            body: bytes = response.read()
            return body
    except OSError:
        return None


def wait_for(check: Callable[[], bool], what: str, detail: Callable[[], str] = lambda: "") -> None:
    """Poll `check` every 0.25 s for at most WAIT_S seconds."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}. {detail()}")


def query(url: str, expr: str) -> float | None:
    """The value of an instant query with one series (None when there is no series yet)."""
    body = _get(f"{url}/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
    if body is None:
        return None
    doc = json.loads(body)
    assert doc["status"] == "success", doc
    result = doc["data"]["result"]
    if not result:
        return None
    return float(result[0]["value"][1])


def targets_up(url: str) -> int:
    body = _get(f"{url}/api/v1/targets")
    if body is None:
        return 0
    return sum(1 for t in json.loads(body)["data"]["activeTargets"] if t["health"] == "up")
