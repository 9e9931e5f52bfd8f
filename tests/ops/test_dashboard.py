"""The Grafana dashboard: valid provisioning, valid PromQL, and only metrics that really exist."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from tourney.engine.server import metrics as m

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
DASHBOARD = DEPLOY / "grafana" / "dashboards" / "tourney.json"

FUNCTIONS_AND_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless",
                          "offset", "bool", "inf", "nan"}


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (functions, label names and keywords removed)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # string literals
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # range selectors
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)  # grouping labels
    label_values = re.fullmatch(r"\s*label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,.*\)\s*", expr)
    if label_values:  # a Grafana variable query: label_values(metric, label)
        return {label_values.group(1)}
    names = set()
    for match in re.finditer(r"[a-zA-Z_:][a-zA-Z0-9_:]*", text):
        word = match.group(0)
        rest = text[match.end():].lstrip()
        if rest.startswith("(") or word.lower() in FUNCTIONS_AND_KEYWORDS:
            continue  # a function call or a keyword
        names.add(word)
    return names


def queries() -> list[str]:
    dash = json.loads(DASHBOARD.read_text())
    out = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    out += [v["definition"] for v in dash["templating"]["list"] if v["type"] == "query"]
    return out


def ray_exported() -> str:
    """Text of Ray's own metric definitions and shipped dashboards (what a Ray node exports)."""
    import ray

    root = Path(ray.__file__).parent / "dashboard" / "modules"
    return "\n".join(p.read_text(errors="replace") for p in [*(root / "metrics" / "dashboards").glob("*.py"),
                                                              root / "reporter" / "reporter_agent.py"])


def test_extractor_finds_metrics_and_ignores_functions_and_labels() -> None:
    expr = 'histogram_quantile(0.9, sum by (le) (rate(foo_bucket{game=~"a|b"}[5m]))) / on(x) bar_total'
    assert metric_names(expr) == {"foo_bucket", "bar_total"}
    assert metric_names("label_values(tourney_matches_total, game)") == {"tourney_matches_total"}


def test_every_query_uses_only_exported_metrics() -> None:
    exported = m.exported_names()
    ray_text = ray_exported()
    used: set[str] = set()
    for expr in queries():
        names = metric_names(expr)
        assert names, f"no metric in {expr!r}"
        for name in names:
            if name.startswith("ray_"):
                assert f'"{name[4:]}"' in ray_text or name in ray_text, f"Ray does not export {name}"
            else:
                assert name in exported, f"{name} (in {expr!r}) is not exported by engine.server.metrics"
        used |= names
    # The panels are all there.
    for needed in ("tourney_matches_total", "tourney_decisions_total", "tourney_decision_seconds_bucket",
                   "tourney_bot_faults_total", "tourney_active_matches", "tourney_connected_bots",
                   "tourney_tournament_matches_remaining", "ray_node_cpu_utilization", "grpc_server_handled_total"):
        assert needed in used


def test_a_misspelt_metric_would_be_caught() -> None:
    assert "tourney_match_total" not in m.exported_names()
    assert metric_names("rate(tourney_match_total[1m])") == {"tourney_match_total"}


def test_queries_are_valid_promql(tmp_path: Path) -> None:
    """promtool (from the prometheus package) parses every query as a recording rule."""
    rules = [{"record": f"tourney:panel_{i}", "expr": expr.replace("$__rate_interval", "5m").replace("$game", ".*")}
             for i, expr in enumerate(queries()) if not expr.startswith("label_values")]
    path = tmp_path / "rules.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    done = subprocess.run(["promtool", "check", "rules", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_dashboard_and_provisioning_fit_together() -> None:
    dash = json.loads(DASHBOARD.read_text())
    datasources = yaml.safe_load((DEPLOY / "grafana" / "provisioning" / "datasources" / "prometheus.yaml").read_text())
    providers = yaml.safe_load((DEPLOY / "grafana" / "provisioning" / "dashboards" / "tourney.yaml").read_text())
    uids = {d["uid"] for d in datasources["datasources"]}
    # No hard-coded datasource: a variable of type datasource, defaulting to the provisioned one.
    (variable,) = [v for v in dash["templating"]["list"] if v["type"] == "datasource"]
    assert variable["query"] == "prometheus" and variable["current"]["value"] in uids
    chosen = "${" + variable["name"] + "}"
    for panel in dash["panels"]:
        assert panel["datasource"]["uid"] == chosen
        assert all(t["datasource"]["uid"] == chosen for t in panel["targets"])
    for query_variable in (v for v in dash["templating"]["list"] if v["type"] == "query"):
        assert query_variable["datasource"]["uid"] == chosen
    ids = [p["id"] for p in dash["panels"]]
    assert len(ids) == len(set(ids))
    assert providers["providers"][0]["options"]["path"] == "/var/lib/grafana/dashboards"


def test_the_dashboard_has_a_leagues_panel() -> None:
    dash = json.loads(DASHBOARD.read_text())
    league = [p for p in dash["panels"] if "League" in p["title"]]
    assert league
    used = {n for p in league for t in p["targets"] for n in metric_names(t["expr"])}
    assert {"tourney_league_rounds_total", "tourney_league_matches_total"} <= used


@pytest.mark.parametrize("path", sorted(DEPLOY.rglob("*.y*ml")), ids=lambda p: str(p.relative_to(DEPLOY)))
def test_every_yaml_file_parses(path: Path) -> None:
    docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    assert docs, f"{path} is empty"
