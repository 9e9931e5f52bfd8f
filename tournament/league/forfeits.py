"""Matches a league records without playing them: a seat whose bot is offline forfeits, an offline bot gets no bye."""

from __future__ import annotations

from tourney.engine.core import Outcome, SeatStats, Termination
from tourney.engine.core import forfeit as forfeit_outcome
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.records import BYE_OUTCOME, FORFEIT_DETAILS, Played, StoredMatch, unplayed

OFFLINE = Termination.DISCONNECTION  # the fault of a seat that is not there


def is_forfeit(record: StoredMatch) -> bool:
    """A match not played because a bot was offline (made by `forfeit`)."""
    return record.details_json == FORFEIT_DETAILS


def forfeit(plan: TournamentPlan, pairing: Pairing, online: dict[int, bool]) -> Played:
    """The record of a match not played because a seat's bot was offline: the present seats win."""
    n = len(pairing.seats)
    away = tuple(i for i, e in enumerate(pairing.seats) if not online[e])
    reason = "offline: " + ", ".join(f"seat {i}" for i in away) if away else ""
    outcome = forfeit_outcome(n, away, reason)
    nobody_came = len(away) == n  # a double forfeit: no points for anyone
    points = [0.0 if nobody_came else outcome.points(i) for i in range(n)]
    stats = [_offline() if i in away else SeatStats() for i in range(n)]
    return pairing, unplayed(plan.game, plan.aliases_of(pairing), outcome, OFFLINE, stats, points,
                             FORFEIT_DETAILS), 0.0


def _offline() -> SeatStats:
    """The stats of a seat whose bot was not there: one offline fault, nothing played."""
    return SeatStats(faults={OFFLINE: 1})


def no_bye(plan: TournamentPlan, pairing: Pairing) -> Played:
    """The bye of a bot that is offline: stored (Swiss sees the bye was used), worth nothing."""
    no_game = Outcome(BYE_OUTCOME.ranking, BYE_OUTCOME.scores, "offline: no bye")
    return pairing, unplayed(plan.game, (plan.entrants[pairing.seats[0]].alias,), no_game, OFFLINE, (_offline(),),
                             (0.0,), FORFEIT_DETAILS), 0.0
