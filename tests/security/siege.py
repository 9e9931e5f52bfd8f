"""The siege fixture: an arena with an admin token, a well-behaved remote bot, and its small
`tourney run --arena` tournament playing in a thread while a test attacks the same arena."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from sqlmodel import Session, select

from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.arena import Arena
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.tournament.entrants import Entrant
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match
from tourney.workers.arena import RemoteArenaExecutor

ADMIN = "siege-admin-token-0123456789"
BASE = ArenaConfig(admin_token=ADMIN, allow_anonymous=True, default_move_ms=5000)


def long_match_request(harness: ArenaHarness) -> bytes:
    """Play a long Tiny Ninjas champion match on the arena (its public record is large); returns a
    serialized GetMatchRequest for it, the body of raw HTTP/2 calls that never grant window."""
    harness.run_match("tiny-ninjas", ["greedy", "greedy"], seed=7, admin_token=ADMIN, match_id="long",
                      config_json='{"mode": "champion"}')
    return pb.GetMatchRequest(match_id="long").SerializeToString()


def siege_arena(good_bot: bool = True, **limits: object) -> ArenaHarness:
    """A fresh arena on loopback with the admin token and these limits, and the good bot connected."""
    harness = ArenaHarness(replace(BASE, **limits))  # type: ignore[arg-type]
    if good_bot:
        harness.bot("good", max_concurrent_matches=4)
    return harness


def peak_unauthenticated(arena: Arena, finished: Callable[[], bool], timeout: float) -> tuple[bool, int]:
    """Poll until `finished()` (or `timeout` seconds), watching the arena's count of unauthenticated calls
    in flight: (whether it finished, the most that count reached meanwhile)."""
    most = 0

    def ended() -> bool:
        nonlocal most
        with arena.admission.lock:
            most = max(most, arena.admission.unauthenticated)
        return finished()

    return wait_for(ended, timeout), most


class GoodTournament:
    """A round robin of the good remote bot and two built-ins on the arena, in a thread."""

    def __init__(self, harness: ArenaHarness, tmp_path: Path, first: str = "remote:good") -> None:
        """`first` is the good remote bot, or a built-in on an arena that admits no anonymous bot."""
        self.engine = open_store(str(tmp_path / "siege.db"))
        self.plan = TournamentPlan(game="sticks", entrants=[Entrant("good", first), Entrant("r", "random"),
                                                           Entrant("g", "greedy")], seed=5, games_per_pair=4)
        self.executor = RemoteArenaExecutor(harness.address, admin_token=ADMIN, workers=2)
        self.errors: list[BaseException] = []
        self.tournament_id: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.tournament_id = run_tournament(self.engine, self.plan, executor=self.executor).tournament_id
        except BaseException as exc:  # kept for the test to show
            self.errors.append(exc)

    def running(self) -> bool:
        return self.thread.is_alive()

    def terminations(self) -> list[str]:
        """Wait for the end (bounded) and return every stored match's termination, in schedule order."""
        self.thread.join(4 * WAIT_S)
        assert not self.thread.is_alive(), "the good tournament did not finish"
        assert not self.errors, f"the good tournament failed: {self.errors[0]}"
        with Session(self.engine) as session:
            return [m.termination for m in session.exec(
                select(Match).where(Match.tournament_id == self.tournament_id).order_by(Match.number))]
