"""The batch writer: the rows it stores, duplicates, a failure in the middle of a batch, and what the
end of a run reads."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import Engine

import tests.sticks  # noqa: F401  (registers the fast test game)
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store import writes
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import load_standings, stored_numbers
from tourney.tournament.store.records import Played
from tourney.tournament.store.tables import Achievement, Match, MatchSeat
from tourney.tournament.store.writes import (
    ACHIEVEMENT_COLUMNS,
    MATCH_COLUMNS,
    SEAT_COLUMNS,
    create_tournament,
    entrant_ids,
    match_rows,
    record_matches,
    save_streaks,
)
from tourney.workers import LocalExecutor

KEY = "store-writes-test-key"


def plan_of(game: str = "tiny-ninjas", fmt: str = "round-robin", games: int = 2) -> TournamentPlan:
    bots = [Entrant("r", "random"), Entrant("g", "greedy"), Entrant("r2", "random")]
    return TournamentPlan(game=game, entrants=bots, seed=5, games_per_pair=games, format=fmt, seed_key=KEY)


def played_of(plan: TournamentPlan) -> list[Played]:
    return [item for chunk in LocalExecutor().run(plan, plan.schedule()) for item in chunk]


def table_rows(engine: Engine, table: str, leave_out: Sequence[str] = ("finished_at",)) -> list[tuple[Any, ...]]:
    """Every row of `table` in id order, without the columns in `leave_out`, read with plain SQL."""
    with engine.connect() as con:
        result = con.execute(text(f"select * from {table} order by id"))  # noqa: S608  (a fixed table name)
        keep = [i for i, name in enumerate(result.keys()) if name not in leave_out]
        return [tuple(row[i] for i in keep) for row in result]


def test_the_writer_stores_the_rows_a_plain_executemany_of_the_converter_stores(tmp_path, monkeypatch):
    plan = plan_of()
    played = played_of(plan)
    byes = [Pairing(len(played), 0, (2,), -1)]  # a bye too: its row is built by the same converter
    when = datetime.now(UTC)
    monkeypatch.setattr(writes, "now", lambda: when)  # both stores get the same finished_at, compared too
    ours = open_store(str(tmp_path / "writer.db"))
    tid = create_tournament(ours, plan)
    for i in range(0, len(played), 4):
        record_matches(ours, tid, plan, played[i:i + 4], byes if i == 0 else ())
    raw = open_store(str(tmp_path / "raw.db"))
    raw_tid = create_tournament(raw, plan)
    with raw.begin() as con:
        ids = entrant_ids(con, raw_tid)
        for i in range(0, len(played), 4):
            rows = match_rows(raw_tid, plan, played[i:i + 4], byes if i == 0 else (), ids, when)
            for r in rows:
                match = dict(zip(MATCH_COLUMNS, r.match, strict=True))
                match_id = con.execute(Match.__table__.insert(), match).inserted_primary_key[0]  # type: ignore[attr-defined]
                con.execute(MatchSeat.__table__.insert(),  # type: ignore[attr-defined]
                            [dict(zip(SEAT_COLUMNS, (match_id, *s), strict=True)) for s in r.seats])
                if r.achievements:
                    con.execute(Achievement.__table__.insert(),  # type: ignore[attr-defined]
                                [dict(zip(ACHIEVEMENT_COLUMNS, (match_id, *e), strict=True)) for e in r.achievements])
    for table in ("match", "matchseat", "achievement", "entrant"):
        assert table_rows(ours, table, leave_out=()) == table_rows(raw, table, leave_out=()), table
    # The same values stored the same way: SQLite keeps an int and a float that compare equal apart.
    kinds = ("select typeof(m.finished_at), typeof(m.duration_s), typeof(m.seed), typeof(s.points), typeof(s.score), "
             "typeof(s.think_s), typeof(s.entrant_id) from matchseat s join match m on m.id = s.match_id order by s.id")
    with ours.connect() as a, raw.connect() as b:
        assert a.execute(text(kinds)).all() == b.execute(text(kinds)).all()
    with ours.connect() as con:
        assert {row[0] for row in con.execute(text("select finished_at from match"))} == {when.replace(tzinfo=None)
                                                                                            .isoformat(" ")}
    assert len(table_rows(ours, "match")) == len(played) + 1
    assert table_rows(ours, "achievement"), "Tiny Ninjas matches earn achievements: the test would see none"
    # Each seat row points at its own match: the batch's ids, read back by number, are matched right.
    with ours.connect() as con:
        pairs = con.execute(text("select m.number, s.seat, s.alias from matchseat s join match m on m.id = s.match_id"
                                 " order by m.number, s.seat")).all()
    expected = [(p.number, seat, rec.aliases[seat]) for p, rec, _ in played for seat in range(len(rec.seats))]
    assert sorted(pairs)[:len(expected)] == sorted(expected)


def test_seats_join_their_own_match_when_batches_arrive_out_of_order_and_around_stored_ones(tmp_path):
    # Ray hands chunks back in any order; a batch's ids are read back by number, so a batch whose
    # numbers are reversed and straddle matches stored before must still link every seat to its match.
    plan = plan_of(games=4)
    played = played_of(plan)
    engine = open_store(str(tmp_path / "order.db"))
    tid = create_tournament(engine, plan)
    record_matches(engine, tid, plan, played[4:6])  # stored first, inside the next batch's range
    record_matches(engine, tid, plan, [*reversed(played[6:]), *reversed(played[:4])])
    with engine.connect() as con:
        pairs = con.execute(text("select m.number, s.seat, s.alias, s.points from matchseat s join match m "
                                 "on m.id = s.match_id")).all()
    expected = [(p.number, seat, alias, sr.points) for p, rec, _ in played
                for seat, (alias, sr) in enumerate(zip(rec.aliases, rec.seats, strict=True))]
    assert sorted(pairs) == sorted(expected)
    assert len({(number, seat) for number, seat, _, _ in pairs}) == len(pairs)


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_a_repeated_or_overlapping_batch_writes_each_match_once(tmp_path, request, where):
    url = str(tmp_path / "dup.db") if where == "sqlite" else request.getfixturevalue("postgres_url")
    engine = open_store(url)
    plan = plan_of("sticks", games=4)
    played = played_of(plan)
    tid = create_tournament(engine, plan)
    record_matches(engine, tid, plan, played[:6])
    record_matches(engine, tid, plan, played[:6])  # a retried chunk: nothing new
    record_matches(engine, tid, plan, played[3:9] + played[8:9])  # half stored already, one twice in the batch
    with engine.connect() as con:
        numbers = [n for (n,) in con.execute(text(f"select number from match where tournament_id = {tid}"))]
        seats = con.execute(text("select count(*) from matchseat s join match m on m.id = s.match_id "
                                 f"where m.tournament_id = {tid}")).scalar()
    assert sorted(numbers) == [p.number for p, _, _ in played[:9]]
    assert seats == 2 * 9


class Chunks:
    """An executor that hands back `size` matches at a time, played in this process."""

    workers = 1

    def __init__(self, size: int) -> None:
        self.size = size

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing]) -> Iterator[list[Played]]:
        for i in range(0, len(pairings), self.size):
            yield [plan.play(p) for p in pairings[i:i + self.size]]


def test_a_failure_in_the_middle_of_a_batch_loses_nothing_finished_and_resume_completes(tmp_path, monkeypatch):
    plan = plan_of("sticks", games=4)  # 12 matches, written 4 at a time
    whole = run_tournament(open_store(str(tmp_path / "whole.db")), plan, executor=Chunks(4))

    engine = open_store(str(tmp_path / "failed.db"))
    real = writes.insert_rows
    calls = []

    def dies_in_the_third_batch(con: Any, rows: Sequence[writes.MatchRows]) -> None:
        calls.append(len(rows))
        if len(calls) == 3:
            con.execute(Match.__table__.insert(),  # type: ignore[attr-defined]
                        [dict(zip(writes.MATCH_COLUMNS, r.match, strict=True)) for r in rows])
            raise RuntimeError("the driver died with the batch half written")
        real(con, rows)

    monkeypatch.setattr(writes, "insert_rows", dies_in_the_third_batch)
    with pytest.raises(RuntimeError):
        run_tournament(engine, plan, executor=Chunks(4))
    tid = 1
    assert stored_numbers(engine, tid) == set(range(8))  # the two finished batches, nothing of the third
    monkeypatch.setattr(writes, "insert_rows", real)
    resumed = run_tournament(engine, plan, tournament_id=tid, executor=Chunks(4))
    assert resumed.matches == whole.matches == 12
    assert [(s.alias, s.points, s.mu) for s in resumed.standings] == [
        (s.alias, s.points, s.mu) for s in whole.standings]
    leave_out = ("id", "match_id", "finished_at", "duration_s", "think_s")
    uninterrupted = open_store(str(tmp_path / "whole.db"))
    assert table_rows(engine, "matchseat", leave_out) == table_rows(uninterrupted, "matchseat", leave_out)


def test_the_end_of_a_run_never_reads_a_replay(tmp_path):
    engine = open_store(str(tmp_path / "reads.db"))
    plan = plan_of("sticks", fmt="swiss", games=2)
    plan.rounds = 2
    report = run_tournament(engine, plan)
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    standings = load_standings(engine, report.tournament_id, [e.alias for e in plan.entrants])
    save_streaks(engine, report.tournament_id, [(1, 2, "two in a row")])
    assert [s.alias for s in standings] == [s.alias for s in report.standings]
    assert statements and not any("replay_json" in s for s in statements)


def test_float_columns_store_the_same_values_whether_or_not_their_conversion_is_skipped(tmp_path):
    """A batch whose float columns hold only floats goes to SQLite as it is; a batch with an int (or None) in one is
    converted as SQLAlchemy would: either way a float column holds REAL values equal to what was given."""
    from sqlalchemy import Column, Float, Integer, MetaData, Table, create_engine

    from tourney.tournament.store.bulk import insert_many

    table = Table("floats", MetaData(), Column("id", Integer, primary_key=True), Column("x", Float, nullable=True))
    engine = create_engine(f"sqlite:///{tmp_path / 'f.db'}")
    table.metadata.create_all(engine)
    all_floats = [(1, 0.1), (2, 2.5e-300), (3, -0.0)]
    mixed = [(4, 0.5), (5, 3), (6, None)]
    with engine.begin() as conn:
        insert_many(conn, table, ("id", "x"), all_floats)
        insert_many(conn, table, ("id", "x"), mixed)
        stored = conn.execute(text("SELECT id, x, typeof(x) FROM floats ORDER BY id")).all()
    assert [(i, x) for i, x, _ in stored] == [*all_floats, (4, 0.5), (5, 3.0), (6, None)]
    assert [kind for _, _, kind in stored] == ["real"] * 5 + ["null"]
    assert isinstance(stored[4][1], float)  # the int was stored as a float
