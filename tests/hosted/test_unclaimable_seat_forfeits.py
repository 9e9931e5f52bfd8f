"""A hosted bot that connects but never takes its seat forfeits the match itself, not its opponent.

The bot says Hello for another game only: it counts as connected, the arena's RunMatch then finds no
free seat of its for this game and refuses the match, and the match was charged to the lowest program
seat whose process was alive: the honest bot, whenever it sat first, lost a rated match it was ready
to play.
"""

from __future__ import annotations

from tests.hosted.conftest import Store
from tourney.engine.core import Termination


def test_the_seat_that_was_never_free_forfeits(hosted_store: Store) -> None:
    result = hosted_store.play("hosted:good", "hosted:elsewhere")
    assert "ELSEWHERE: connecting" in hosted_store.log("elsewhere", seat=1)
    assert result.termination == Termination.CRASH
    assert result.forfeit_seat == 1, result.reason
    assert "elsewhere" in result.reason
