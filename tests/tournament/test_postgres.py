"""A real PostgreSQL 15 stores tournaments exactly like SQLite: same standings for the same seed."""

from __future__ import annotations

import json

from sqlalchemy import text
from typer.testing import CliRunner

from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store

SWISS = ["run", "--game", "sticks", "--bots", "random,greedy,random@r2,greedy@g2,random@r3", "--format", "swiss",
         "--rounds", "4", "--games-per-pair", "2", "--seed", "11",
         "--seed-key", "test-key-0123456789", "--local", "--json"]


def test_postgres_and_sqlite_give_identical_standings(postgres_url, tmp_path):
    runner = CliRunner()
    lite = runner.invoke(app, [*SWISS, "--db", str(tmp_path / "t.db")])
    pg = runner.invoke(app, [*SWISS, "--db", postgres_url])
    assert pg.exit_code == 0, pg.output
    a, b = json.loads(lite.stdout), json.loads(pg.stdout)
    assert a["standings"] == b["standings"] and a["matches"] == b["matches"]
    with open_store(postgres_url).connect() as con:
        assert con.execute(text("select count(*) from match where tournament_id = :t"),
                           {"t": b["tournament_id"]}).scalar() == b["matches"]
        # Seeds use the full 62 bits: the column must be BIGINT.
        assert con.execute(text("select max(seed) from match")).scalar() > 2**31


def test_resume_against_postgres(postgres_url):
    runner = CliRunner()
    args = ["run", "--game", "sticks", "--bots", "random,greedy,random@r2", "--games-per-pair", "4", "--local",
            "--json", "--db", postgres_url, "--seed", "2"]
    first = json.loads(runner.invoke(app, args).stdout)
    engine = open_store(postgres_url)
    with engine.begin() as con:
        t = first["tournament_id"]
        con.execute(text("delete from matchseat where match_id in (select id from match where tournament_id = :t "
                         "and number >= 5)"), {"t": t})
        con.execute(text("delete from match where tournament_id = :t and number >= 5"), {"t": t})
        con.execute(text("update tournament set status = 'running' where id = :t"), {"t": t})
    again = json.loads(runner.invoke(app, ["resume", str(first["tournament_id"]), "--db", postgres_url, "--local",
                                           "--json"]).stdout)
    assert again["standings"] == first["standings"]
