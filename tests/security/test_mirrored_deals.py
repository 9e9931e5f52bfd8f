"""A bot that remembers cannot read a mirrored deal: its games never share a seed in a hidden game.

Shown for Tiny Ninjas' hidden hands and Ninja Versus Ninja's dice still to roll (the other game
with hidden chance, Ninja Arena, gets the same seeds from the same TournamentPlan.seed_of: the
parametrised test below checks every game).

The attack: in a duplicate pair both games share a deal with the seats swapped, so a bot that
keeps the hand it was dealt in one game knows its opponent's hand in the other. The remembering
bot here is a real remote bot over loopback gRPC in a `tourney run --arena` tournament; it
predicts, at its first decision of each match, that the opponent holds the hand it held itself
in the previous game of the table. With true duplicate pairs (the control) that prediction is
always right; with the deals a remembering seat gets it is no better than chance (its score on
the wrong pairs of games).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from tests.server.harness import ArenaHarness
from tourney.engine.core import available_games, get_game
from tourney.engine.server.client import Bot
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.tournament import plan as plan_module  # where a match is seeded (seed_of)
from tourney.tournament.entrants import Entrant, remembers
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match
from tourney.workers.arena import RemoteArenaExecutor

PAIRS = 6
KEY = "k" * 32


class Rememberer(Bot):
    """Answers at once; keeps, per match in the order they came, its own first hand and the hand
    it predicts for the opponent (its hand of the game before)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.first: dict[str, tuple[list[str], list[str] | None]] = {}
        self.last_hand: list[str] | None = None

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        with self.lock:
            if request.match_id not in self.first:
                self.first[request.match_id] = (observation["hand"], self.last_hand)
                self.last_hand = observation["hand"]
        return 0


def overlap(a: Sequence[str], b: Sequence[str]) -> float:
    """The share of hand `b`'s cards that hand `a` names (as multisets)."""
    return sum((Counter(a) & Counter(b)).values()) / len(b)


def opponent_hand(seed: int, seat_of_bot: int) -> list[str]:
    """The hand the opponent of the bot in seat `seat_of_bot` is dealt in a match seeded `seed`."""
    hand: list[str] = get_game("tiny-ninjas").new_state(seed, players=2).observe(1 - seat_of_bot)["hand"]
    return hand


def play(harness: ArenaHarness, tmp_path: Path, name: str) -> tuple[list[float], list[float]]:
    """A tournament of the rememberer against random; (its scores on the second game of every pair,
    the same predictions scored against the opponents of unrelated games)."""
    bot = Rememberer()
    harness.bot(name, bot)
    plan = TournamentPlan(game="tiny-ninjas", entrants=[Entrant(name, f"remote:{name}"), Entrant("r", "random")],
                          seed=3, games_per_pair=2 * PAIRS, seed_key=KEY)
    engine = open_store(str(tmp_path / f"{name}.db"))
    # One match at a time, so "the game before" is the previous match of the schedule.
    report = run_tournament(engine, plan, executor=RemoteArenaExecutor(harness.address, workers=1))
    with Session(engine) as session:
        matches = session.exec(select(Match).where(Match.tournament_id == report.tournament_id)
                               .order_by(Match.number)).all()  # type: ignore[arg-type]
    assert [m.termination for m in matches] == ["normal"] * 2 * PAIRS
    seen = list(bot.first.values())
    assert len(seen) == len(matches)
    # Seats swap every game: the bot sits in seat 0 of even numbers, seat 1 of odd ones.
    truths = [opponent_hand(m.seed, m.number % 2) for m in matches]
    hits = [overlap(seen[i][1] or [], truths[i]) for i in range(1, len(seen), 2)]
    unrelated = [overlap(seen[i][1] or [], truths[j]) for i in range(1, len(seen), 2)
                 for j in range(0, len(seen)) if j not in (i - 1, i)]
    return hits, unrelated


def test_a_remembering_remote_bot_predicts_the_hidden_hand_no_better_than_chance(
        harness: ArenaHarness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hits, unrelated = play(harness, tmp_path, "keeper")
    chance = sum(unrelated) / len(unrelated)
    assert sum(hits) / len(hits) <= chance + 0.15  # a shared deal scores 1.0, as the control shows
    assert all(h < 1.0 for h in hits)

    # The control: the same bot, had the remote seat been taken for one that forgets, would read
    # every mirrored hand.
    monkeypatch.setattr(plan_module, "remembers", lambda spec: False)
    control, _ = play(harness, tmp_path, "keeper2")
    assert control == [1.0] * PAIRS


HIDDEN = [g.id for g in available_games() if g.hidden_information]


def test_the_games_declare_their_hidden_information() -> None:
    assert {"ninja-arena", "ninja-versus-ninja", "tiny-ninjas"} <= set(HIDDEN)
    assert "maitre-ninja" not in HIDDEN  # its seed only picks who starts, in plain sight


@pytest.mark.parametrize("game", [g.id for g in available_games()])
def test_only_seats_that_cannot_remember_share_a_deal(game: str) -> None:
    entrants = [Entrant("remote", "remote:bob"), Entrant("prog", "cmd:python3 bot.py"), Entrant("a", "random"),
                Entrant("b", "random"), Entrant("hosted", "hosted:alice")]
    assert [remembers(e.spec) for e in entrants] == [True, True, False, False, False]
    plan = TournamentPlan(game=game, entrants=entrants, seed_key=KEY)

    def seeds(a: int, b: int) -> tuple[int, int]:
        first, second = Pairing(10, 0, (a, b), 7), Pairing(11, 0, (b, a), 7)
        return plan.seed_of(first), plan.seed_of(second)

    builtin, hosted = seeds(2, 3), seeds(2, 4)
    assert builtin[0] == builtin[1] == hosted[0] == hosted[1] == plan.match_seed(7)
    for remembering in (seeds(0, 2), seeds(1, 2), seeds(0, 1)):
        shared = remembering[0] == remembering[1] == plan.match_seed(7)
        assert shared == (game not in HIDDEN)


class DiceRememberer(Bot):
    """Ninja Versus Ninja: keeps each match's log (seat, roll, move, note) and, at every decision of
    the next match, predicts its own roll: the roll its seat had at that turn of the match before
    (with the seats swapped on one seed, that is the opponent's dice of the game before)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.previous: list[list[Any]] = []  # the log of the match before, as last seen
        self.current: dict[str, list[list[Any]]] = {}
        self.asked: dict[str, int] = {}
        self.hits = 0
        self.tries = 0
        self.rolls: Counter[str] = Counter()  # every roll it was shown, for the chance of a blind guess

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        with self.lock:
            if request.match_id not in self.current:
                self.previous = next(reversed(self.current.values()), [])
            self.current[request.match_id] = observation["log"]
            self.rolls[str(observation["roll"])] += 1
            turn = self.asked.get(request.match_id, 0)
            self.asked[request.match_id] = turn + 1
            remembered = [entry[1] for entry in self.previous if entry[0] == request.seat]
            if turn < len(remembered):
                self.tries += 1
                self.hits += remembered[turn] == observation["roll"]
        return 0


def dice_play(harness: ArenaHarness, tmp_path: Path, name: str) -> tuple[float, float]:
    """The dice rememberer's share of rolls predicted right over a tournament against random, and the
    share a guess of an unrelated roll gets (the sum of the squared frequencies of the rolls seen)."""
    bot = DiceRememberer()
    harness.bot(name, bot)
    plan = TournamentPlan(game="ninja-versus-ninja", entrants=[Entrant(name, f"remote:{name}"),
                                                              Entrant("r", "random")],
                          seed=3, games_per_pair=2 * PAIRS, seed_key=KEY)
    engine = open_store(str(tmp_path / f"{name}.db"))
    report = run_tournament(engine, plan, executor=RemoteArenaExecutor(harness.address, workers=1))
    with Session(engine) as session:
        matches = session.exec(select(Match).where(Match.tournament_id == report.tournament_id)).all()
    assert {m.termination for m in matches} <= {"normal", "adjudication"}
    assert bot.tries > 20
    seen = sum(bot.rolls.values())
    return bot.hits / bot.tries, sum((n / seen) ** 2 for n in bot.rolls.values())


def test_a_remembering_remote_bot_predicts_its_dice_no_better_than_chance(
        harness: ArenaHarness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hits, chance = dice_play(harness, tmp_path, "dicer")
    assert hits <= chance + 0.06  # two four-sided dice: a blind guess is right about 1 time in 16
    monkeypatch.setattr(plan_module, "remembers", lambda spec: False)  # the control: true duplicate pairs
    control, _ = dice_play(harness, tmp_path, "dicer2")
    assert control > chance + 0.3
