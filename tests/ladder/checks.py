"""What every ladder test checks of a store: nothing lost, nothing counted twice, ratings as rated in arrival order."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import text
from sqlalchemy.engine import Engine

from tourney.tournament.rating.ratings import initial_skill


def rows(engine: Engine, query: str) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(text(query)).all())


def assert_consistent(engine: Engine) -> None:
    """Numbers run 0..n-1 once each; every done match was rated once, in a distinct order; each bot's stored
    match count and rating are exactly those replayed from the stored results in rating order."""
    matches = rows(engine, "select number, status, rated, seats_json, aliases_json from laddermatch order by number")
    assert [m.number for m in matches] == list(range(len(matches)))
    done = [m for m in matches if m.status == "done"]
    assert sorted(m.rated for m in done) == list(range(len(done)))
    model = PlackettLuce()
    bots = {b.alias: b for b in rows(engine, "select alias, mu, sigma, matches from ladderbot")}
    current = {a: model.rating(mu=initial_skill(a).mu, sigma=initial_skill(a).sigma) for a in bots}
    played: Counter[str] = Counter()
    for m in sorted(done, key=lambda m: m.rated):
        seats = json.loads(m.seats_json)
        assert [s["alias"] for s in seats] == json.loads(m.aliases_json)
        rated = model.rate([[current[s["alias"]]] for s in seats], ranks=[float(s["tier"]) for s in seats])
        for s, team in zip(seats, rated, strict=True):
            current[s["alias"]] = team[0]
            played[s["alias"]] += 1
            assert abs(team[0].mu - s["mu"]) < 1e-9  # the rating stored with the match is the replayed one
    for alias, bot in bots.items():
        assert bot.matches == played[alias], alias
        assert abs(bot.mu - current[alias].mu) < 1e-9 and abs(bot.sigma - current[alias].sigma) < 1e-9, alias


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"
