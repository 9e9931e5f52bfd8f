"""Metrics without blind spots: every labelled series exists at zero before the first event, so a real
Prometheus sees the first faults (increase() needs an earlier sample) and every dashboard panel has
data from the first scrape."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.ops.prom import free_port, prometheus, query, targets_up, wait_for
from tourney.engine.core import FAULT_KINDS, available_games

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "dashboards" / "tourney.json"
# Panels whose series only exist while something runs that a bare arena does not have.
NEEDS_A_RUN = {"Tournament progress (matches remaining)"}


def _series(url: str, expr: str) -> int:
    import urllib.parse
    import urllib.request

    with urllib.request.urlopen(f"{url}/api/v1/query?" + urllib.parse.urlencode({"query": expr}), timeout=10) as r:
        return len(json.load(r)["data"]["result"])


def panel_queries() -> list[tuple[str, str]]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [(p["title"], t["expr"].replace("$game", ".*").replace("$__rate_interval", "10s"))
            for p in dashboard["panels"] for t in p["targets"]]


def test_an_idle_arena_exports_every_panels_series_before_any_match(tmp_path) -> None:
    metrics_port = free_port()
    env = {**os.environ, "TOURNEY_ADMIN_TOKEN": "", "PYTHONPATH": str(ROOT)}
    arena = subprocess.Popen([sys.executable, "-c", "from tourney.tournament.cli import app; app()",
                              "serve", "--port", "0",
                              "--allow-anonymous", "--admin-token", "Zq8-vY2rK1xW7pLm4tN0",
                              "--metrics-port", str(metrics_port)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        with prometheus([f"127.0.0.1:{metrics_port}"], tmp_path) as url:
            wait_for(lambda: targets_up(url) == 1, "the idle arena to be scraped")
            games = len({g.id for g in available_games()} - {"sticks"})  # the test game lives in this process only
            # Every game (and "other") with every fault kind (and "other"), at zero.
            assert query(url, "count(tourney_bot_faults_total == 0)") == (games + 1) * (len(FAULT_KINDS) + 1)
            assert query(url, 'sum(tourney_matches_total)') == 0
            assert _series(url, 'grpc_server_handled_total{grpc_method="Play",grpc_code="OK"}') == 1
            assert _series(url, "tourney_league_rounds_total") == 4
            # rate() and increase() need two samples of a series: wait for them, then ask every panel.
            wait_for(lambda: _series(url, "rate(tourney_bot_faults_total[10s])") > 0, "two scrapes")
            # A panel has data when one of its queries returns a series (Ray's own series come from Ray nodes).
            with_data = {title for title, expr in panel_queries() if _series(url, expr) > 0}
            panels = {title for title, _ in panel_queries()}
            assert with_data == panels - NEEDS_A_RUN, sorted(panels - NEEDS_A_RUN - with_data)
    finally:
        arena.terminate()
        arena.communicate(timeout=60)


FAULTS_LATER = """
import sys, time
from tourney.engine.server import metrics as m
port = m.serve_metrics(int(sys.argv[1]))
print("ready", flush=True)
sys.stdin.readline()  # the test says when Prometheus has seen the zeros
m.FAULTS.labels("tiny-ninjas", "timeout").inc(10)
print("faulted", flush=True)
sys.stdin.readline()
"""


def test_the_first_faults_show_in_increase(tmp_path) -> None:
    """Ten timeouts, the first of their kind, are visible to increase() (they were not before priming)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", FAULTS_LATER, str(port)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "ready"
        with prometheus([f"127.0.0.1:{port}"], tmp_path) as url:
            timeouts = 'tourney_bot_faults_total{game="tiny-ninjas",kind="timeout"}'
            wait_for(lambda: query(url, f"count_over_time({timeouts}[1m])") == 2, "two scrapes of the zero")
            proc.stdin.write("go\n")
            proc.stdin.flush()
            assert proc.stdout.readline().strip() == "faulted"
            wait_for(lambda: query(url, timeouts) == 10, "the faults to be scraped")
            seen = query(url, f"increase({timeouts}[5m])")
            assert seen is not None and seen > 9  # increase() extrapolates a little; without a zero it is empty
    finally:
        proc.stdin.close()
        proc.wait(60)
