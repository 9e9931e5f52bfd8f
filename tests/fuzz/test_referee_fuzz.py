"""The referee under arbitrary bot answers: any int (negative, huge), None, floats, strings, exceptions.

The first unusable answer ends the match with the right typed forfeit (illegal_move, or crash
for an exception) for that seat, except in Ninja Arena where an illegal index is a Mistake and
play goes on; every result replays identically from its record.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.engine.core import DecisionRequest, get_game
from tourney.engine.referee import play_match, replay_match

GAMES = {"tiny-ninjas": 2, "ninja-versus-ninja": 2, "maitre-ninja": 3, "ninja-arena": 3}


class Boom(Exception):
    """A bot bug."""


answers = st.one_of(
    st.integers(0, 3),  # small indices: mostly legal
    st.integers(-(2**70), 2**70),  # anything
    st.sampled_from([None, 1.0, "0", b"\x00", [0], Boom]),
)


class Scripted:
    """Answers from a shared script (in decision order); legal answers are reduced modulo the list."""

    def __init__(self, script: list[Any], log: list[tuple[int, Any, int]]) -> None:
        self.script = script
        self.log = log

    def act(self, request: DecisionRequest) -> Any:
        k = len(self.log)
        answer = self.script[k] if k < len(self.script) else 0
        self.log.append((request.seat, answer, len(request.legal)))
        if answer is Boom:
            raise Boom("bug")
        if isinstance(answer, int) and 0 <= answer <= 3:
            return answer % len(request.legal)
        return answer


def _usable(answer: Any, n: int) -> bool:
    if answer is Boom:
        return False
    if isinstance(answer, int) and 0 <= answer <= 3:
        return True
    return isinstance(answer, int) and 0 <= answer < n


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**31), script=st.lists(answers, max_size=40))
def test_any_answer_gets_the_right_typed_outcome(game_id: str, seed: int, script: list[Any]) -> None:
    players = GAMES[game_id]
    log: list[tuple[int, Any, int]] = []
    seats = [Scripted(script, log) for _ in range(players)]
    result = play_match(game_id, seats, seed, players=players)
    handles = get_game(game_id).handles_illegal_actions
    first_bad = next(((seat, answer) for seat, answer, n in log if not _usable(answer, n)
                      and (answer is Boom or not handles)), None)
    if first_bad is None:
        assert result.forfeit_seat is None
        assert result.termination in ("normal", "adjudication")
    else:
        seat, answer = first_bad
        assert result.forfeit_seat == seat
        assert result.termination == ("crash" if answer is Boom else "illegal_move")
        assert log[-1][:2] == first_bad  # nothing was asked after the forfeit
        assert result.ranking[-1] == (seat,)  # the faulty seat is last, alone
    if handles:  # every illegal answer was recorded as a Mistake, none forfeited
        illegal = sum(1 for _, a, n in log if not _usable(a, n) and a is not Boom)
        recorded = sum(1 for step in result.replay.steps for d in step if d.fault == "illegal_move")
        assert recorded == illegal
    again = replay_match(result.replay)
    assert (again.termination, again.forfeit_seat, again.ranking, again.scores) == (
        result.termination, result.forfeit_seat, result.ranking, result.scores)
