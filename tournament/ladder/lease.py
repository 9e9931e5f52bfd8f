"""One `ladder run` per game at a time: the ladder row's lease (tournament/lease.py), in the ladder's words.

Two loops on one ladder would each schedule the same idle bots and rate from their own copy of the ratings.
"""

from __future__ import annotations

from sqlalchemy.engine import Engine

from tourney.tournament.lease import LEASE_S, RENEW_S, Lease
from tourney.tournament.store.ladder_rows import LADDERS


class LadderLease(Lease):
    """`with LadderLease(engine, ladder_id, game):` holds the ladder for this run; `.lost` is set if taken over."""

    def __init__(self, engine: Engine, ladder_id: int, game: str, me: str | None = None,
                 lease_s: float = LEASE_S, renew_s: float = RENEW_S) -> None:
        super().__init__(engine, LADDERS, ladder_id, me, lease_s, renew_s)
        self.game = game

    def refusal(self, runner: str, alive_s_ago: float) -> str:
        """Another `ladder run` plays this game's ladder."""
        return (f"another `tourney ladder run` ({runner}, alive {alive_s_ago:.0f} s ago) is playing the {self.game} "
                f"ladder: stop it first, or wait {self.lease_s:g} s if it died on another machine.")

    def lost_sentence(self) -> str:
        """This run stalled and another `ladder run` took the ladder over."""
        return (f"another `tourney ladder run` took the {self.game} ladder over while this one stalled: every rated "
                "match is stored; this run stops.")
