"""Ninja Arena bots, evaluation, rendering, and play through the referee."""

from __future__ import annotations

from tests.ninja_arena.helpers import set_dice, table
from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, get_game
from tourney.engine.games.ninja_arena import GAME, ArenaState, rules
from tourney.engine.games.ninja_arena.actions import HIT, Activate, Roll
from tourney.engine.games.ninja_arena.bots import GreedyArenaBot, TacticianBot
from tourney.engine.referee import play_match


def _request(st: ArenaState, seat: int) -> DecisionRequest:
    return DecisionRequest(GAME, seat, st.observe(seat), st.legal_actions(seat), None, st)


def _choice(bot: GreedyArenaBot, st: ArenaState, seat: int) -> object:
    req = _request(st, seat)
    return req.legal[bot.act(req)]


def test_registry_finds_the_game_and_its_bots() -> None:
    assert get_game("ninja-arena") is GAME
    assert isinstance(make_bot("greedy", GAME, 1), GreedyArenaBot)
    assert isinstance(make_bot("tactician", GAME, 1), TacticianBot)
    assert GAME.handles_illegal_actions


def test_greedy_claims_its_power() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "HKKSS")
    assert _choice(GreedyArenaBot(1), st, 0) == HIT


def test_greedy_fires_at_the_target_that_takes_the_damage() -> None:
    st = table(["Sasuke", "Hinata", "Sakura"])
    st.power[1] = True
    st.byakugan[1] = 2
    set_dice(st, 0, "FF...")
    assert _choice(GreedyArenaBot(1), st, 0) == Activate("T1", (0, 1), target=2)


def test_greedy_rolls_toward_the_cheapest_technique() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "KRRFR")  # one FIST: Lion's Barrage {F,F} is one die away
    a = _choice(GreedyArenaBot(1), st, 0)
    assert isinstance(a, Roll) and a.dice == (0, 1, 2, 4)  # keeps the FIST on die 3


def test_tactician_hits_early_when_a_claim_shows() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    set_dice(st, 1, "HHHLL")  # Naruto shows his Power combo
    assert _choice(TacticianBot(1), st, 0) == HIT
    assert _choice(GreedyArenaBot(1), st, 0) != HIT


def test_greedy_never_hits_bare_and_beats_random() -> None:
    class Watch(GreedyArenaBot):
        bare = 0

        def act(self, request: DecisionRequest) -> int:
            i = super().act(request)
            st = request._state
            assert isinstance(st, ArenaState)
            if request.legal[i] == HIT and not rules.claim_kind(st, request.seat):
                Watch.bare += 1
            return i

    first = 0.0
    games = 12
    for g in range(games):
        seats = [make_bot("random", GAME, 10 * g + s) for s in range(4)]
        hero = g % 4
        seats[hero] = Watch(g)
        result = play_match("ninja-arena", seats, seed=g)
        if hero in result.ranking[0]:
            first += 1 / len(result.ranking[0])
    assert Watch.bare == 0
    assert first / games >= 0.5


def test_an_out_of_range_reply_is_a_mistake_not_a_forfeit() -> None:
    class Broken:
        def act(self, request: DecisionRequest) -> int:
            return 999

    seats = [Broken(), make_bot("random", GAME, 1)]
    result = play_match("ninja-arena", seats, seed=3, config={"characters": ["Sasuke", "Naruto"]})
    assert result.forfeit_seat is None
    assert result.ranking == ((1,), (0,))
    assert result.seats[0].faults.get("illegal_move", 0) >= 4


def test_evaluate_prefers_the_healthier_seat() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    assert -1 <= GAME.evaluate(st, 0) <= 1
    st.cube[1] = 3
    st.pool[1] = 4
    assert GAME.evaluate(st, 0) > 0 > GAME.evaluate(st, 1)


def test_render_shows_each_seat_and_the_events() -> None:
    st = table(["Sasuke", "Naruto"])
    set_dice(st, 0, "FF...")
    st.apply({0: Activate("T1", (0, 1), target=1), 1: Roll((0, 1))})
    text = GAME.render(st)
    assert "tick 2" in text and "Sasuke" in text and "Naruto" in text
    assert "seat 0 fires T1 Lion's Barrage" in text and "seat 1 +2 (attack)" in text and "pool  2" in text
