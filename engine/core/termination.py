"""How a match ended, and the one way to rank a forfeit or an adjudication.

"normal" and "adjudication" come from the rules; the other kinds are a seat's fault (the
taxonomy follows cutechess). Every path that ends a match (the referee, real-time play, a
program that never started, a league bot that is offline) builds its ranking here, so a
forfeit is ranked the same wherever it happens.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum

from tourney.engine.core.game import Outcome


class Termination(StrEnum):
    """The kind of a match's end, as stored with its result."""

    NORMAL = "normal"
    ADJUDICATION = "adjudication"  # the game's hard cap, or the server's time limit, decided it
    TIMEOUT = "timeout"
    ILLEGAL_MOVE = "illegal_move"
    CRASH = "crash"
    DISCONNECTION = "disconnection"
    REPLAY_MISMATCH = "replay_mismatch"  # only while replaying: a stored decision the game no longer has
    ABORTED = "aborted"  # the arena voided a match whose game raised: nobody scores
    BYE = "BYE"  # a round without a game: its one seat alone in first place (spelled as stored since the start)


# The kinds a live seat can cause (a replay mismatch is the stored record's fault, not a seat's).
FAULT_KINDS = (Termination.TIMEOUT, Termination.ILLEGAL_MOVE, Termination.CRASH, Termination.DISCONNECTION)
CAP_REASON = "cap"  # the reason a game gives when its hard cap, not its rules of victory, ended it


def kind_of(text: str) -> str:
    """A fault kind or termination read back (stored, or sent over the wire) as its Termination member
    when it names one, else the text as it came (a kind this version does not know)."""
    return Termination(text) if text in _KINDS else text


_KINDS = frozenset(Termination.__members__.values())


def termination_of(outcome: Outcome) -> Termination:
    """A finished game's termination: an adjudication when the game's hard cap ended it, else normal."""
    return Termination.ADJUDICATION if outcome.reason == CAP_REASON else Termination.NORMAL


def fault_reason(seat: int, kind: Termination) -> str:
    """The stored reason of a forfeit by one seat, e.g. "seat 1 illegal move"."""
    return f"seat {seat} {kind.replace('_', ' ')}"


def forfeit(players: int, at_fault: Collection[int], reason: str) -> Outcome:
    """The seats not at fault share first place (score 1), the seats at fault share last (score 0).

    When every seat is at fault nobody played: one shared tier, every score 0.
    """
    losers = tuple(sorted(set(at_fault)))
    if any(not 0 <= s < players for s in losers):
        raise ValueError(f"seats {losers} are not all among the {players} players")
    winners = tuple(s for s in range(players) if s not in losers)
    ranking = (winners, losers) if winners and losers else (tuple(range(players)),)
    return Outcome(ranking, tuple(0.0 if s in losers else 1.0 for s in range(players)), reason)


def adjudicated_draw(players: int, reason: str) -> Outcome:
    """A match stopped before the rules decided it (the server's time limit): everyone shares one place."""
    return Outcome((tuple(range(players)),), tuple(0.0 for _ in range(players)), reason)
