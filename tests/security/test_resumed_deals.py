"""A resumed tournament deals anew the matches a remembering bot may have seen.

The attack: `tourney run --arena` stops (Ctrl-C, a crash, its machine) while a match is played. The
arena plays that match on to its end (a caller that hangs up does not abort it), so the remote bot in
it sees the whole deal: its hand, the opponent's cards as they come down, every draw. The result is
never stored, so `tourney resume` plays that match again, and it did so with the same seed: the bot
met, from its first decision, a deal it had already seen to the end (its hand was the same, and so
was everything to come). The bot here is a real remote bot over loopback gRPC.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from tests.server.harness import ArenaHarness
from tourney.engine.server.client import Bot
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.registry import next_round
from tourney.tournament.runner import TournamentPlan, load_plan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match
from tourney.tournament.store.writes import create_tournament
from tourney.workers.arena import RemoteArenaExecutor

KEY = "k" * 32


class HandKeeper(Bot):
    """Answers at once; keeps its hand at its first decision of each match, in the order they came."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.hands: dict[str, list[str]] = {}

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        with self.lock:
            self.hands.setdefault(request.match_id, observation["hand"])
        return 0


def test_the_match_an_interruption_left_unstored_is_dealt_anew(harness: ArenaHarness, tmp_path: Path) -> None:
    bot = HandKeeper()
    harness.bot("keeper", bot)
    engine = open_store(str(tmp_path / "t.db"))
    plan = TournamentPlan(game="tiny-ninjas", entrants=[Entrant("keeper", "remote:keeper"), Entrant("r", "random")],
                          seed=3, games_per_pair=2, seed_key=KEY)
    tid = create_tournament(engine, plan)
    executor = RemoteArenaExecutor(harness.address, workers=1)
    first = (next_round(plan.spec(), 2, [], 0) or [])[0]
    # The interrupted run: the arena plays its first match to the end, and the runner dies before storing it.
    [[(_, lost, _)]] = list(executor.run(plan, [first]))
    assert lost.termination == "normal"

    _, resumed = load_plan(engine, tid)
    run_tournament(engine, resumed, tid, executor=executor)
    with Session(engine) as session:
        replayed = session.exec(select(Match).where(Match.number == first.number)).one()
    seen, again = list(bot.hands.values())[:2]  # one match at a time: the lost one, then its replay
    assert replayed.seed != plan.seed_of(first)
    assert again != seen
