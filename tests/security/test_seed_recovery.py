"""A hostile bot cannot work out its matches' seeds from what it sees or can guess.

The attacker plays a tournament over real loopback gRPC, keeps the hand it was dealt at its
first decision of each match, and afterwards tries every obvious derivation of the seed: the
old unkeyed match_seed(s, k) for small tournament seeds and match numbers, small raw seeds,
the clock around the match, and the (public) seeds of the tournament's other finished
matches. Against unkeyed seeds it recovers every match (the attack is real); against the
keyed seeds of a stored tournament it recovers none.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from sqlmodel import Session, select

from tests.server.harness import ArenaHarness
from tourney.engine.core import get_game
from tourney.engine.core.chance import stream_start
from tourney.engine.server.client import Bot
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.seeding import LEGACY_KEY
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match
from tourney.workers.arena import RemoteArenaExecutor

GAME = "tiny-ninjas"
GAMES = 6  # three duplicate pairs, as in the report: 6 of 6 recovered


class HandKeeper(Bot):
    """Answers at once, and keeps the observation of its first decision in each match."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.first: dict[str, tuple[int, dict[str, Any]]] = {}

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        with self.lock:
            self.first.setdefault(request.match_id, (request.seat, observation))
        return 0


def guesses(public_seeds: Sequence[int], around_s: float) -> Iterator[int]:
    """Every seed an attacker would try first."""
    for s in range(8):  # the default --seed is 1
        for k in range(256):
            yield stream_start(s, f"match/{k}") >> 2  # the old unkeyed derivations: shared deals,
            yield stream_start(s, f"deal/{k}") >> 2  # and the own deal of a seat that remembers
    yield from range(4096)
    now = int(around_s)
    for t in range(now - 600, now + 600):
        yield t
        yield t * 1000
    for seen in public_seeds:
        yield seen
        for k in range(256):
            yield stream_start(seen, f"match/{k}") >> 2


def hands(seed: int) -> list[list[str]]:
    """The hands a match seeded `seed` deals, seat by seat."""
    state = get_game(GAME).new_state(seed, players=2)
    return [state.observe(seat)["hand"] for seat in range(2)]


def deals(seed: int, seat: int, hand: list[str]) -> bool:
    """Whether a match seeded `seed` deals `hand` to `seat`."""
    return hands(seed)[seat] == hand


def recovered(first: dict[str, tuple[int, dict[str, Any]]], seeds: Sequence[int], around_s: float) -> int:
    """How many matches' seeds the attacker finds: a guess that deals the hand it was dealt
    and so predicts the opponent's hidden hand too.

    A five-card hand has few enough values that some of ten thousand wrong guesses deal it by
    chance; such a guess tells the attacker nothing about the opponent, so only a guess whose
    deal matches the real one for both seats counts. It knows the seeds of the other duplicate
    pairs (a finished match's seed is shown with its result); a twin of its own match sharing its
    deal (a seat that cannot remember gets one) would be left out.
    """
    found = 0
    for seat, observation in first.values():
        own = [s for s in seeds if deals(s, seat, observation["hand"])]
        assert len(set(own)) == 1  # the test's oracle: which stored seed was this match's
        truth = hands(own[0])
        others = sorted(set(seeds) - set(own))
        if any(deals(guess, seat, observation["hand"]) and hands(guess) == truth
               for guess in guesses(others, around_s)):
            found += 1
    return found


def attack(harness: ArenaHarness, tmp_path: Any, seed_key: str | None) -> tuple[int, list[int]]:
    """Run a seed-1 tournament of the attacker against greedy on the arena; (matches recovered, stored seeds)."""
    thief = HandKeeper()
    harness.bot("thief", thief)
    plan = TournamentPlan(game=GAME, entrants=[Entrant("thief", "remote:thief"), Entrant("greedy", "greedy")],
                          seed=1, games_per_pair=GAMES, seed_key=seed_key)
    engine = open_store(str(tmp_path / f"attack-{seed_key is None}.db"))
    started = time.time()
    report = run_tournament(engine, plan, executor=RemoteArenaExecutor(harness.address, workers=2))
    with Session(engine) as session:
        seeds = [m.seed for m in session.exec(select(Match).where(Match.tournament_id == report.tournament_id))]
    assert len(thief.first) == len(seeds) == GAMES
    return recovered(thief.first, seeds, started), seeds


def test_unkeyed_seeds_fall_to_the_attack(harness: ArenaHarness, tmp_path: Any) -> None:
    # The control: with the old derivation the attacker finds every match's seed.
    found, _ = attack(harness, tmp_path, LEGACY_KEY)
    assert found == GAMES


def test_keyed_seeds_resist_the_attack(harness: ArenaHarness, tmp_path: Any) -> None:
    found, seeds = attack(harness, tmp_path, None)
    assert len(set(seeds)) == GAMES  # a remote bot remembers, so no two of its games share a deal
    assert found == 0
