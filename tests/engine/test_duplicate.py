"""Duplicate matches: the same seed with the seats swapped hands each player the other's luck."""

from __future__ import annotations

from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, get_game
from tourney.engine.referee import play_match

GAME = get_game("tiny-ninjas")


class Recorder:
    """A random bot that remembers every observation it was given."""

    def __init__(self, seed: int) -> None:
        self.bot = make_bot("random", GAME, seed)
        self.seen: list[dict] = []

    def act(self, request: DecisionRequest) -> int:
        self.seen.append(request.observation)
        return self.bot.act(request)


def opening_hand(bot: Recorder) -> list:
    return sorted(bot.seen[0]["hand"])


def test_swapping_seats_with_the_same_seed_swaps_the_deal():
    for seed in range(8):
        a, b = Recorder(1), Recorder(2)
        play_match("tiny-ninjas", [a, b], seed, config={"chooser": 0})
        a2, b2 = Recorder(1), Recorder(2)
        play_match("tiny-ninjas", [b2, a2], seed, config={"chooser": 0})
        if not (a.seen and b.seen and a2.seen and b2.seen):
            continue
        assert opening_hand(a) == opening_hand(b2)
        assert opening_hand(b) == opening_hand(a2)
        assert opening_hand(a) != opening_hand(b)
