"""`tourney serve` refuses an admin token that is no secret (placeholders, short words), from the flag or
the environment, with one sentence and exit code 2; a real secret, or none (one is generated), is fine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tourney.tournament.cli.admin_token import weak_reason

ROOT = Path(__file__).resolve().parents[2]
TOURNEY = [sys.executable, "-c", "from tourney.tournament.cli import app; app()"]


@pytest.mark.parametrize("token", ["change-me", "CHANGE_ME", "changeme123", "admin", "secret", "password",
                                   "adm", "t", "aaaaaaaaaaaaaaaaaaaa", "replace-me-please", "your-token-here"])
def test_weak_tokens_are_named(token: str) -> None:
    assert weak_reason(token) is not None


@pytest.mark.parametrize("token", ["Zq8-vY2rK1xW7pLm4tN0", "kJ3_9fQx0cVbN2mLp8Rt5sWy"])
def test_real_secrets_pass(token: str) -> None:
    assert weak_reason(token) is None


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_serve_refuses_a_placeholder_token(how: str, tmp_path) -> None:
    args = [*TOURNEY, "serve", "--port", "0", "--allow-anonymous"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TOURNEY_ADMIN_TOKEN": ""}
    if how == "flag":
        args += ["--admin-token", "change-me"]
    else:
        env["TOURNEY_ADMIN_TOKEN"] = "change-me"
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "the admin token is not a secret (it is a placeholder)" in done.stderr
    assert "Traceback" not in done.stderr and "arena listening" not in done.stdout


def test_no_default_admin_token_in_the_deploy_files() -> None:
    for path in [ROOT / "deploy" / "compose.yaml", *(ROOT / "deploy" / "k8s").glob("*.yaml")]:
        text = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("#"))
        assert "change-me" not in text and ":-admin}" not in text, path
    compose = (ROOT / "deploy" / "compose.yaml").read_text()
    assert "${TOURNEY_ADMIN_TOKEN:?" in compose and "${POSTGRES_PASSWORD:?" in compose
