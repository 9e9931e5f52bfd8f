"""The end of a run counts achievements in SQL (issue 32: reading every earned row back grew with
the run): the same counts, labels and order as counting the stored rows one by one."""

from __future__ import annotations

from sqlmodel import Session, select

from tourney.tournament.entrants import Entrant
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import achievement_counts
from tourney.tournament.store.tables import Achievement


def counted_row_by_row(engine, tournament_id: int) -> dict[str, dict[str, int]]:
    """The plain way: every stored row, in insertion order."""
    counts: dict[str, dict[str, int]] = {}
    with Session(engine) as session:
        for a in session.exec(select(Achievement).where(Achievement.tournament_id == tournament_id)
                              .order_by(Achievement.id)):
            label = a.name if a.opponent is None else f"{a.name} ({a.opponent})"
            per_bot = counts.setdefault(a.alias, {})
            per_bot[label] = per_bot.get(label, 0) + 1
    return counts


def test_sql_counts_equal_row_by_row_counts_with_streaks_and_order(tmp_path):
    engine = open_store(str(tmp_path / "a.db"))
    plan = TournamentPlan(game="tiny-ninjas", entrants=[Entrant("greedy", "greedy"), Entrant("random", "random"),
                                                        Entrant("r2", "random")],
                          games_per_pair=12, seed_key="achievement-counts-test")
    report = run_tournament(engine, plan)
    counts = achievement_counts(engine, report.tournament_id)
    assert counts == counted_row_by_row(engine, report.tournament_id)
    # Dicts compare without order: the order first earned is part of what the CLI prints.
    assert list(counts) == list(counted_row_by_row(engine, report.tournament_id))
    for alias, names in counts.items():
        assert list(names) == list(counted_row_by_row(engine, report.tournament_id)[alias])
    labels = [label for names in counts.values() for label in names]
    assert any("(" in label for label in labels), "no streak (with its opponent) was earned: pick another seed"
    assert sum(n > 1 for names in counts.values() for n in names.values()), "no achievement earned twice"


def test_another_tournament_and_an_empty_one_count_apart(tmp_path):
    engine = open_store(str(tmp_path / "b.db"))
    plan = TournamentPlan(game="tiny-ninjas", entrants=[Entrant("greedy", "greedy"), Entrant("random", "random")],
                          games_per_pair=6, seed_key="achievement-counts-test")
    first = run_tournament(engine, plan).tournament_id
    second = run_tournament(engine, plan).tournament_id
    assert achievement_counts(engine, first) == counted_row_by_row(engine, first)
    assert achievement_counts(engine, second) == counted_row_by_row(engine, second)
    assert achievement_counts(engine, 999) == {}
