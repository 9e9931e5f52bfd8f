"""Tiny Ninjas' `montecarlo` bot: keeps to its budget (an injected clock, never wall time), is a pure
function of its seed given a count, plays the simultaneous Blitz mulligan, and beats greedy in
a seeded sample."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.clocks import FakeClock, NoClock
from tourney.engine.bots import bot_infos, make_bot
from tourney.engine.core import Action, DecisionRequest
from tourney.engine.games.tiny_ninjas import GAME, bots
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas.bots import DEFAULT_ITERATIONS, PairedMonteCarloBot
from tourney.engine.games.tiny_ninjas.data import INSTANCE_TYPE, TYPE_BY_NAME
from tourney.engine.games.tiny_ninjas.playout import ATTACK_WORTH, SHIELD_WORTH, playout_action, undominated
from tourney.engine.games.tiny_ninjas.rules import P_DEFEND, P_MULLIGAN, P_PLAY
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState
from tourney.engine.referee import play_match


def state_at(phase: int, config: dict | None = None, seed: int = 3) -> TinyNinjasState:
    """The first state of a randomly played match that reaches `phase`."""
    rng = random.Random(seed)
    state = GAME.new_state(seed, config=config)
    while state.phase != phase:
        assert not state.is_over()
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
    return state


def request_for(state: TinyNinjasState, seat: int, deadline_s: float | None = None) -> DecisionRequest:
    return DecisionRequest(GAME, seat, state.observe(seat), state.legal_actions(seat), deadline_s, state)


@pytest.mark.parametrize("phase", [P_PLAY, P_DEFEND])
def test_given_20_ms_it_never_takes_40(phase: int) -> None:
    state = state_at(phase)
    clock = FakeClock(step=0.001)
    bot = PairedMonteCarloBot(seed=1, ms=20, clock=clock)
    start = clock.now
    bot.act(request_for(state, state.to_act()[0]))
    assert clock.now - start < 0.040
    assert bot.last_iterations >= 10  # it searched until the time ran out


def test_the_request_deadline_stops_a_long_count() -> None:
    state = state_at(P_PLAY)
    clock = FakeClock(step=0.001)
    bot = PairedMonteCarloBot(seed=1, iterations=1_000_000, clock=clock)
    start = clock.now
    bot.act(request_for(state, state.to_act()[0], deadline_s=0.02))
    assert clock.now - start < 0.02


def test_a_count_is_the_default_and_never_reads_the_clock() -> None:
    bot = PairedMonteCarloBot(seed=1, clock=NoClock())
    assert (bot.iterations, bot.ms) == (DEFAULT_ITERATIONS, None)
    state = state_at(P_PLAY)
    bot.act(request_for(state, state.to_act()[0]))
    assert bot.last_iterations == DEFAULT_ITERATIONS


def match_choices(spec: str, config: dict | None = None) -> list[int]:
    log: list[int] = []

    class Recorder:
        def __init__(self, bot: object) -> None:
            self.bot = bot

        def act(self, request: DecisionRequest) -> int:
            choice: int = self.bot.act(request)  # type: ignore[attr-defined]
            log.append(choice)
            return choice

    play_match(GAME.id, [Recorder(make_bot(spec, GAME, 7)), make_bot("greedy", GAME, 8)], 11, config=config)
    return log


def test_same_seed_and_count_give_the_same_match() -> None:
    first = match_choices("montecarlo:iterations=20")
    assert len(first) > 5  # it attacks hard: a match against greedy lasts a few Rounds
    assert match_choices("montecarlo:iterations=20") == first


def test_the_blitz_mulligan_is_searched() -> None:
    state = state_at(P_MULLIGAN, {"mode": "blitz"})
    assert len(state.to_act()) == 2
    bot = PairedMonteCarloBot(seed=2, iterations=60)
    request = request_for(state, 0)
    choice = bot.act(request)
    assert 0 <= choice < len(request.legal)
    # A whole Blitz match with the bot in it plays to the end, its mulligan steps included.
    assert match_choices("montecarlo:iterations=20", {"mode": "blitz"})


def test_the_playout_defends_a_big_hit_with_a_matching_shield_and_lets_a_small_one_through() -> None:
    state = state_at(P_DEFEND)
    seat = state.to_act()[0]
    rng = random.Random(1)
    state.p_amount, state.p_undef = 1, 0
    state.health[seat] = 10
    assert type(playout_action(state, seat, rng, 0.0)).__name__ == "NoDefend"
    state.p_amount = 5
    answer = playout_action(state, seat, rng, 0.0)
    if type(answer).__name__ == "Defend":
        from tourney.engine.games.tiny_ninjas.data import DEF_SHIELD, INSTANCE_TYPE
        assert DEF_SHIELD[INSTANCE_TYPE[answer.card]] & state.p_colour  # type: ignore[attr-defined]
    assert max(ATTACK_WORTH) > min(ATTACK_WORTH) and max(SHIELD_WORTH) > 0


def test_the_playout_attacker_ends_its_round_when_it_holds_keep_cards() -> None:
    state = state_at(P_PLAY)
    rng = random.Random(1)
    while not (state.phase == P_PLAY and state.attacks and len(state.hands[state.attacker]) > 1):
        # END_ROUND is legal after a first attack, and a second card makes attacking a choice.
        assert not state.is_over()
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
    seat = state.attacker
    held = len(state.hands[seat])
    assert playout_action(state, seat, rng, 0.0, keep=held) is A.END_ROUND
    assert isinstance(playout_action(state, seat, rng, 0.0, keep=held - 1), A.Play)


def test_plays_whose_tokens_add_no_damage_are_not_compared() -> None:
    trio = next(c for c, t in enumerate(INSTANCE_TYPE) if t == TYPE_BY_NAME["Trio"])  # a red attack of 3
    legal = [A.PLAY[trio][0], A.PLAY[trio][1], A.PLAY[trio][2], A.PLAY[trio][3], A.END_ROUND]
    assert [legal[i].label for i in undominated(legal)] == ["play Trio", "play Trio +RED", "end round"]
    princess = next(c for c, t in enumerate(INSTANCE_TYPE) if t == TYPE_BY_NAME["Princess"])
    heal_with_token = A.PLAY_MODE[1][princess][2]
    assert heal_with_token.mode == A.HEAL and heal_with_token.tokens
    assert undominated([A.PLAY_MODE[1][princess][0], heal_with_token]) == [0]


def test_the_playout_runs_until_the_seats_next_own_round(monkeypatch: pytest.MonkeyPatch) -> None:
    state = state_at(P_PLAY)
    seat = state.to_act()[0]
    request = request_for(state, seat)
    world = request.determinize(random.Random(9))
    assert isinstance(world, TinyNinjasState)
    asked: list[tuple[int, int]] = []  # (round, attacker) at each playout move

    def recording(s: TinyNinjasState, *args: Any) -> Action:
        asked.append((s.round, s.attacker))
        return playout_action(s, *args)

    monkeypatch.setattr(bots, "playout_action", recording)
    # Keeping 4 cards, the seat's Round ends after this attack (the battle goes on for sure).
    PairedMonteCarloBot(seed=4, keep=4)._playout(request, world, request.legal[0], 5)
    # The other seat's Round was played out, and nothing past the start of the seat's own next one.
    assert (state.round + 1, 1 - seat) in asked
    assert all(r <= state.round + 1 for r, _ in asked)
    asked.clear()
    PairedMonteCarloBot(seed=4, lookahead="none")._playout(request, world, request.legal[0], 5)
    assert all(attacker == seat for _, attacker in asked)  # at most the defence to the attack


def test_it_beats_greedy_in_a_seeded_sample_of_duplicate_pairs() -> None:
    """A smoke test: the real figure comes from `bench/ladder.py` (README). Twenty games cannot
    show a wide margin (one standard error is about 0.1), so it asserts only that the sample is
    won: it fails when a change makes the search lose it."""
    points = 0.0
    games = 0
    for seed in range(10):
        for seat in (0, 1):
            bots = [make_bot("greedy", GAME, 100 + seed), make_bot("montecarlo:iterations=400", GAME, 200 + seed)]
            if seat == 0:
                bots.reverse()
            points += play_match(GAME.id, bots, seed).points(seat)
            games += 1
    assert points / games > 0.5


def test_tourney_games_lists_it_with_its_options() -> None:
    info = {i.name: i for i in bot_infos(GAME)}["montecarlo"]
    assert "same sampled worlds" in info.description
    assert [o.name for o in info.options] == ["ms", "iterations", "lookahead", "keep", "epsilon", "hand"]


def test_every_action_is_scored_in_the_same_world_with_the_same_dice() -> None:
    """The comparison is paired: a playout depends only on (world, seed, action), never on the
    bot's own generator, so two actions differ only by what they do."""
    state = state_at(P_PLAY)
    seat = state.to_act()[0]
    request = request_for(state, seat)
    bot = PairedMonteCarloBot(seed=4)
    world = request.determinize(random.Random(9))
    assert isinstance(world, TinyNinjasState)
    scores = [bot._playout(request, world, a, 1234) for a in request.legal]
    bot.rng.random()
    assert [bot._playout(request, world, a, 1234) for a in request.legal] == scores
    assert len(set(scores)) > 1  # and the actions do differ


def test_the_horizon_counts_the_seats_attackers_and_the_others_shields() -> None:
    """Two worlds that differ only in which cards the hands hold: the game's evaluation (it counts
    cards) cannot tell them apart, the search's horizon value can, in the direction of the tables."""
    state = state_at(P_PLAY)
    seat = state.to_act()[0]
    by_attack = sorted(range(len(INSTANCE_TYPE)), key=lambda c: ATTACK_WORTH[INSTANCE_TYPE[c]])
    strong, weak = state.clone(), state.clone()
    size = len(state.hands[seat])
    strong.hands[seat] = by_attack[-size:]
    weak.hands[seat] = by_attack[:size]
    assert GAME.evaluate(strong, seat) == GAME.evaluate(weak, seat)
    value = {name: bots.horizon_value(GAME.evaluate(w, seat), w, seat, 1.0) for name, w in
             (("strong", strong), ("weak", weak))}
    assert value["strong"] > value["weak"]
    assert bots.horizon_value(0.25, weak, seat, 0.0) == 0.25  # weight 0: the game's evaluation alone
    shielded = state.clone()
    by_shield = sorted(range(len(INSTANCE_TYPE)), key=lambda c: SHIELD_WORTH[INSTANCE_TYPE[c]])
    other = 1 - seat
    shielded.hands[other] = by_shield[-len(state.hands[other]):]
    bare = state.clone()
    bare.hands[other] = by_shield[:len(state.hands[other])]
    assert bots.horizon_value(0.0, shielded, seat, 1.0) < bots.horizon_value(0.0, bare, seat, 1.0)


def test_what_the_seat_cannot_see_does_not_change_its_choice() -> None:
    """Two worlds that differ only in the other seat's unseen cards (swapped with the draw pile)
    and the order of that pile: the seat's view is identical, so is every search it runs."""
    for phase in (P_PLAY, P_DEFEND):
        state = state_at(phase, seed=5)
        seat = state.to_act()[0]
        other = 1 - seat
        twin = state.clone()
        unseen = [i for i, c in enumerate(twin.hands[other]) if c not in twin.known[other]]
        assert unseen and twin.draw
        i = unseen[0]
        twin.hands[other][i], twin.draw[0] = twin.draw[0], twin.hands[other][i]
        twin.draw.reverse()
        assert twin.hands[other] != state.hands[other]
        assert twin.observe(seat) == state.observe(seat)
        picks = []
        for world in (state, twin):
            bot = PairedMonteCarloBot(seed=8, iterations=150)
            picks.append((bot.act(request_for(world, seat)), bot.last_iterations))
        assert picks[0] == picks[1]
