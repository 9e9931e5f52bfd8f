"""The ladder pages: JSON and HTML agree with the store, names are text, specs stay private, and Chromium
shows the standings in rating order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from tests.web.browser import chromium, served
from tests.web.conftest import ARTIFACTS, HOSTILE
from tourney.tournament.ladder.loop import run_ladder
from tourney.tournament.ladder.members import add_bot, standings
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app
from tourney.workers import LocalExecutor

SECRET_NAME = "organiser-secret-bot.py"  # in a cmd: spec: the organiser's file system, never shown


@pytest.fixture(scope="module")
def ladder_store(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    folder = tmp_path_factory.mktemp("ladder-web")
    secret = folder / SECRET_NAME
    secret.write_text("raise SystemExit(1)\n")  # `ladder add` checks a program exists, as `run` does
    engine = open_store(str(folder / "store.db"))
    for spec in ("greedy", "random", f"random@{HOSTILE}", f"cmd:python3 {secret}@program"):
        add_bot(engine, "tiny-ninjas", spec)
    # The program does not exist: its matches end as crashes, stored and rated like any other.
    run_ladder(engine, "tiny-ninjas", LocalExecutor(), matches=24)
    return engine


def test_the_ladder_api_matches_the_store_and_hides_specs(ladder_store: Engine) -> None:
    client = TestClient(create_app(ladder_store))
    doc = client.get("/api/ladders/tiny-ninjas").json()
    assert doc["done"] == 24 and doc["scheduled"] == 0
    stored = standings(ladder_store, "tiny-ninjas")
    assert [b["bot"] for b in doc["bots"]] == [e.alias for e in stored]
    assert [b["matches"] for b in doc["bots"]] == [e.matches for e in stored]
    assert len(doc["matches"]) == 24 and all(len(m["seats"]) == 2 for m in doc["matches"])
    assert doc["bots"][-1]["bot"] == "program"  # it never connected: last
    assert SECRET_NAME not in client.get("/api/ladders/tiny-ninjas").text
    assert SECRET_NAME not in client.get("/ladders/tiny-ninjas").text
    assert client.get("/api/ladders").json() == {"ladders": [{"game": "tiny-ninjas", "bots": 4}]}


def test_an_unknown_ladder_is_a_404_sentence(ladder_store: Engine) -> None:
    client = TestClient(create_app(ladder_store))
    for game in ("maitre-ninja", "no-such-game", "x" * 150):
        answer = client.get(f"/api/ladders/{game}")
        assert answer.status_code == 404 and answer.json()["detail"].startswith("there is no ladder for")
    assert client.get("/api/ladders/" + "x" * 300).status_code == 404  # a bounded name: past it, nothing stored


@pytest.fixture(scope="module")
def site(ladder_store: Engine) -> Iterator[tuple[str, Any]]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with served(create_app(ladder_store)) as base, chromium() as page:
        yield base, page


def test_the_ladder_page_in_chromium(site: tuple[str, Any], ladder_store: Engine) -> None:
    base, page = site
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/ladders")
    page.click("#ladders a")
    assert page.url.endswith("/ladders/tiny-ninjas")
    shown = page.locator("#ladder-standings td.bot").all_inner_texts()
    assert shown == [e.alias for e in standings(ladder_store, "tiny-ninjas")]
    assert HOSTILE in shown and page.evaluate("window.__pwned === undefined")  # the name shown as text
    assert page.locator("#done").inner_text() == "24"
    assert page.locator("#ladder-matches tr").count() == 25  # a header and every match
    page.screenshot(path=str(Path(ARTIFACTS) / "ladder.png"), full_page=True)
    assert errors == []
