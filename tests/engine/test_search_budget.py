"""Search bots think within their budget (an injected clock, never wall time) and, given a
budget in iterations, are a pure function of their seed."""

from __future__ import annotations

import pytest

import tests.sticks  # noqa: F401
from tests.clocks import FakeClock, NoClock
from tourney.engine.bots import make_bot
from tourney.engine.bots.ismcts import IsmctsBot
from tourney.engine.core import Budget, ConfigError, DecisionRequest, Game, State, get_game
from tourney.engine.referee import play_match

STICKS = get_game("sticks")
NVN = get_game("ninja-versus-ninja")




def first_request(game: Game, deadline_s: float | None = None) -> DecisionRequest:
    state: State = game.new_state(seed=3)
    seat = state.to_act()[0]
    return DecisionRequest(game, seat, state.observe(seat), state.legal_actions(seat), deadline_s, state)


@pytest.mark.parametrize("game", [STICKS, NVN], ids=lambda g: g.id)
def test_ismcts_given_20_ms_never_takes_40(game: Game) -> None:
    clock = FakeClock(step=0.001)
    bot = IsmctsBot(seed=1, ms=20, clock=clock)
    start = clock.now
    bot.act(first_request(game))
    assert clock.now - start < 0.040
    assert clock.reads >= 10  # it searched until the time ran out, it did not just stop


def test_ismcts_stops_inside_the_request_deadline_even_with_a_larger_own_budget() -> None:
    clock = FakeClock(step=0.001)
    bot = IsmctsBot(seed=1, ms=1000, clock=clock)
    start = clock.now
    bot.act(first_request(NVN, deadline_s=0.05))
    assert clock.now - start < 0.05


def test_ismcts_with_iterations_obeys_the_deadline_too() -> None:
    clock = FakeClock(step=0.001)
    bot = IsmctsBot(seed=1, iterations=1_000_000, clock=clock)
    start = clock.now
    bot.act(first_request(NVN, deadline_s=0.02))
    assert clock.now - start < 0.02


def test_ismcts_defaults_to_a_fixed_count_and_iterations_never_read_the_clock() -> None:
    assert (IsmctsBot(seed=1).iterations, IsmctsBot(seed=1).ms) == (150, None)  # reproducible by default
    assert (IsmctsBot(seed=1, ms=50).iterations, IsmctsBot(seed=1, ms=50).ms) == (None, 50)
    IsmctsBot(seed=1, clock=NoClock()).act(first_request(NVN))
    IsmctsBot(seed=1, iterations=5, clock=NoClock()).act(first_request(NVN))


class Recorder:
    """A seat that remembers every answer of the bot it wraps."""

    def __init__(self, bot: object, log: list[int]) -> None:
        self.bot = bot
        self.log = log

    def act(self, request: DecisionRequest) -> int:
        choice: int = self.bot.act(request)  # type: ignore[attr-defined]
        self.log.append(choice)
        return choice


def match_choices(spec: str) -> list[int]:
    log: list[int] = []
    seats = [Recorder(make_bot(spec, NVN, 7), log), Recorder(make_bot("greedy", NVN, 8), log)]
    play_match(NVN.id, seats, seed=11)
    return log


def test_same_seed_and_iterations_give_the_same_match() -> None:
    first = match_choices("ismcts:iterations=8:rollout_depth=3")
    assert len(first) > 10
    assert match_choices("ismcts:iterations=8:rollout_depth=3") == first


@pytest.mark.parametrize(("spec", "message"), [
    ("ismcts:ms=abc", "bot option ismcts:ms=abc is not a number: write e.g. ismcts:ms=50."),
    ("ismcts:ms=-1", "bot option ismcts:ms=-1 is below 1: write e.g. ismcts:ms=50."),
    ("ismcts:iterations=2.5", "bot option ismcts:iterations=2.5 is not a whole number"),
    ("ismcts:rollout=deep", "bot option ismcts:rollout=deep is not one of greedy, random"),
    ("ismcts:speed=3", "bot 'ismcts' has no option 'speed': its options are ms, iterations,"),
    ("expectimax:ms=inf", "bot option expectimax:ms=inf is not a number"),
    ("greedy:samples=0", "bot option greedy:samples=0 is below 1"),
])
def test_bad_option_values_are_one_clear_sentence(spec: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        make_bot(spec, NVN, 1)
    assert str(caught.value).startswith(message)
    assert str(caught.value).endswith(".") and "\n" not in str(caught.value)


def test_a_budget_of_checks_passes_that_many_and_never_reads_the_clock() -> None:
    budget = Budget(NoClock(), None, None, checks=3)
    assert [budget.spent() for _ in range(5)] == [False, False, False, True, True]
    assert budget.passed == 3
