"""run_remote_match: a match through RunMatch comes back as the referee's MatchResult."""

from __future__ import annotations

import pytest

from tests.server.bots import SilentBot
from tests.server.harness import ArenaHarness
from tourney.engine.bots import make_bot
from tourney.engine.core import get_game
from tourney.engine.referee import play_match
from tourney.engine.server.remote import ArenaUnavailable, run_remote_match


def test_remote_match_result_matches_a_local_one(harness: ArenaHarness) -> None:
    remote = run_remote_match(harness.address, "sticks", ["random", "greedy"], seed=5)
    game = get_game("sticks")
    # The arena seeds built-in seat i with seed * 1009 + i: the same bots play the same match here.
    local = play_match("sticks", [make_bot("random", game, 5 * 1009), make_bot("greedy", game, 5 * 1009 + 1)], 5)
    assert remote.ranking == local.ranking and remote.scores == local.scores
    assert remote.termination == local.termination == "normal"
    assert [s.decisions for s in remote.seats] == [s.decisions for s in local.seats]
    assert remote.points(0) + remote.points(1) == 1.0


def test_remote_faults_and_refusals(harness: ArenaHarness) -> None:
    harness.bot("quiet", SilentBot())
    result = run_remote_match(harness.address, "sticks", ["remote:quiet", "random"], seed=1, move_ms=100)
    assert (result.termination, result.forfeit_seat) == ("timeout", 0)
    assert result.seats[0].faults == {"timeout": 1}
    with pytest.raises(ArenaUnavailable):
        run_remote_match(harness.address, "no-such-game", ["random", "random"], seed=1)


def test_a_tournament_plays_the_same_on_an_arena_as_on_workers(harness: ArenaHarness, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sqlmodel import Session, select

    from tourney.tournament.entrants import Entrant
    from tourney.tournament.runner import TournamentPlan, run_tournament
    from tourney.tournament.store.codec import unpack_replay
    from tourney.tournament.store.database import open_store
    from tourney.tournament.store.tables import Match, MatchSeat
    from tourney.workers import LocalExecutor
    from tourney.workers.arena import RemoteArenaExecutor

    # Bots that use their random stream, so a different bot seed would change the games.
    plan = TournamentPlan(game="sticks", entrants=[Entrant("r1", "random"), Entrant("g", "greedy"),
                                                   Entrant("r2", "random")], seed=11, games_per_pair=2)

    def stored(executor: object, name: str) -> list[tuple[object, ...]]:
        engine = open_store(str(tmp_path / name))
        report = run_tournament(engine, plan, executor=executor)  # type: ignore[arg-type]
        with Session(engine) as session:
            matches = session.exec(select(Match).where(Match.tournament_id == report.tournament_id)
                                   .order_by(Match.number)).all()  # type: ignore[arg-type]
            rows = []
            for m in matches:
                seats = session.exec(select(MatchSeat).where(MatchSeat.match_id == m.id)
                                     .order_by(MatchSeat.seat)).all()  # type: ignore[arg-type]
                decisions = [[d[:2] for d in step] for step in unpack_replay(m.replay_json)["steps"]]
                rows.append((m.number, m.seed, m.termination, m.plies, decisions,
                             [(s.alias, s.tier, s.points, s.score) for s in seats]))
            return rows

    on_workers = stored(LocalExecutor(), "workers.db")
    on_arena = stored(RemoteArenaExecutor(harness.address, workers=2), "arena.db")
    assert len(on_workers) == 6 and on_arena == on_workers
