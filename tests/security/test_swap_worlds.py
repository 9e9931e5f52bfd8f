"""The swap test: for every game and mode, worlds that differ only in what a seat never saw
(a hidden card, the face-down part of an opponent's secret line, a card or die not yet drawn)
look identical to that seat and to spectators at every step of the same public play."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.security.swap import Revealed, chance_drawn, drive, fork_future, fork_hidden, midgame
from tourney.engine.core import State, get_game
from tourney.engine.games.tiny_ninjas.data import INSTANCE_TYPE

SEEDS = 40  # forks per game and mode; each is compared for at most STEPS joint decisions
STEPS = 120

# A fork: the other world, and how to tell that the rules revealed the difference (None: no fork).
Fork = Callable[[State, int, random.Random], tuple[State, Revealed] | None]

# Tiny Ninjas events that show a card's identity to the observer: a card leaving a hand face
# up, entering the observer's hand, or dealt to the Solo AI from the pile.
TN_REVEALING = frozenset({"discard", "play", "defend", "revive", "grab", "doom", "abduct", "intel", "mulligan",
                          "drew", "reshuffle", "ai_draw", "ai_attack"})


def tn_swap(a: State, observer: int, rng: random.Random) -> tuple[State, Revealed] | None:
    """Tiny Ninjas with one hidden card swapped for the deepest draw-pile card of another type.

    The card is one of the opponent's unknown cards, preferably a copy of a type the observer
    knows the opponent holds (a revived or grabbed card): the case where copies are confused.
    Without a hidden hand (Solo, reveal_hand) two draw-pile cards are swapped instead.
    """
    b: Any = a.clone()
    opp = 1 - observer
    draw = b.draw
    if b.solo or b.cfg["reveal_hand"][opp]:
        if len({INSTANCE_TYPE[c] for c in draw}) < 2:
            return None
        i = rng.randrange(len(draw))
        j = next(j for j in range(len(draw)) if INSTANCE_TYPE[draw[j]] != INSTANCE_TYPE[draw[i]])
        draw[i], draw[j] = draw[j], draw[i]
        return b, tn_revealed
    hand, known = b.hands[opp], b.known[opp]
    unknown = [i for i, c in enumerate(hand) if c not in known]
    copies = [i for i in unknown if INSTANCE_TYPE[hand[i]] in {INSTANCE_TYPE[c] for c in known}]
    for i in rng.sample(copies, len(copies)) + rng.sample(unknown, len(unknown)):
        j = next((j for j in range(len(draw)) if INSTANCE_TYPE[draw[j]] != INSTANCE_TYPE[hand[i]]), None)
        if j is not None:
            hand[i], draw[j] = draw[j], hand[i]
            b._legal = None
            return b, tn_revealed
    return None


def tn_revealed(a: State, b: State, observer: int) -> bool:
    """The first event that differs between the worlds is one where the rules show a card."""
    events_a, events_b = a.observe(observer)["events"], b.observe(observer)["events"]
    for x, y in zip(events_a, events_b, strict=False):
        if x != y:
            return bool(x["type"] in TN_REVEALING and y["type"] in TN_REVEALING)
    return False  # the same events, yet a different view: something hidden leaked


def mn_fork(a: State, observer: int, rng: random.Random) -> tuple[State, Revealed] | None:
    """Maître Ninja with what the observer did not see redrawn: other seats' never-flipped attack
    cards, the line committed in the current fight, the defender's row so far (None: nothing)."""
    mn: Any = a
    pending = (mn.pending is not None and observer != mn.attacker) or (mn.laid and observer != mn.defender)
    if not pending and not any(rec.face_down and rec.attacker != observer for rec in mn.history):
        return None
    before = len(mn.history)

    def revealed(x: State, y: State, _observer: int) -> bool:
        """Only the fight in progress at the fork may show a difference, once it is resolved: the
        fights before it never show their face-down cards (spec A8), and there is no chance."""
        old_x, old_y = x.history, y.history  # type: ignore[attr-defined]
        return len(old_x) > before and [r.public for r in old_x[:before]] == [r.public for r in old_y[:before]]

    return fork_hidden(a, observer, rng), revealed


CASES: list[tuple[str, dict[str, Any], tuple[int, ...]]] = [
    *[("tiny-ninjas", {"mode": m}, (2,)) for m in get_game("tiny-ninjas").modes],
    ("tiny-ninjas", {"use_expansion": True}, (2,)),
    ("tiny-ninjas", {"mulligan": 2}, (2,)),
    ("maitre-ninja", {}, (2, 3, 4)),
    ("ninja-versus-ninja", {}, (2,)),
    *[("ninja-arena", {"mode": m}, (2,) if m == "duel" else (2, 3, 4)) for m in get_game("ninja-arena").modes],
]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in c.items()) or 'standard'}" for g, c, _ in CASES]
# Games with hidden information besides future chance (the others are perfect information).
HIDDEN: dict[str, Fork] = {"tiny-ninjas": tn_swap, "maitre-ninja": mn_fork}
HIDDEN_CASES = [c for c in CASES if c[0] in HIDDEN]
HIDDEN_IDS = [i for i, c in zip(IDS, CASES, strict=True) if c[0] in HIDDEN]


def start(game_id: str, config: dict[str, Any], players: tuple[int, ...], seed: int
          ) -> tuple[State, list[int], random.Random]:
    """A random position of a random playout of this game and mode, and its seats in random order."""
    rng = random.Random(seed)
    n = rng.choice(players)
    state = midgame(get_game(game_id).new_state(seed, players=n, config=config), rng)
    return state, rng.sample(range(n), n), rng


@pytest.mark.parametrize(("game_id", "config", "players"), HIDDEN_CASES, ids=HIDDEN_IDS)
def test_what_is_hidden_now_stays_hidden(game_id: str, config: dict[str, Any], players: tuple[int, ...]) -> None:
    forked = compared = 0
    for seed in range(SEEDS):
        a, seats, rng = start(game_id, config, players, seed)
        for observer in seats:
            fork = HIDDEN[game_id](a, observer, rng)
            if fork is not None:
                forked += 1
                compared += drive(a, fork[0], observer, rng, STEPS, fork[1]).steps
                break
    assert forked >= SEEDS // 10 and compared > forked  # not vacuous


@pytest.mark.parametrize(("game_id", "config", "players"), CASES, ids=IDS)
def test_chance_still_to_come_stays_hidden(game_id: str, config: dict[str, Any], players: tuple[int, ...]) -> None:
    compared = 0
    for seed in range(SEEDS):
        a, seats, rng = start(game_id, config, players, seed)
        b = fork_future(a, rng)
        at_fork = [dict(w.chance._state) for w in (a, b)]  # type: ignore[attr-defined]

        def revealed(x: State, y: State, _observer: int, at_fork: list[dict[str, int]] = at_fork) -> bool:
            return chance_drawn(x, at_fork[0]) or chance_drawn(y, at_fork[1])

        compared += drive(a, b, seats[0], rng, STEPS, revealed).steps
    assert compared > 0  # not vacuous: some decisions come before the next chance event


def test_the_issue_14_reproduction_sees_no_second_copy() -> None:
    """Seat 0 revives a Solo and then plays the first Solo in hand order, a hidden one or that one."""
    from tourney.engine.core import Inject

    views = []
    for second in ("Solo", "Pyro"):
        deck = ["Angel", second, "Trio", "Pirate", "Robot", "Solo", "Medic", "Turtle", "Wolf", "Archer"]
        state = get_game("tiny-ninjas").new_state(1, config={"chooser": 0}, inject=Inject(deck_order=deck))
        for label in ("attack first", "discard Solo", "play Angel", "revive Solo", "play Solo"):
            (seat,) = state.to_act()
            state.apply({seat: next(x for x in state.legal_actions(seat) if x.label == label)})
        views.append((state.observe(1), state.public_view()))
    assert views[0][0]["events"] == views[1][0]["events"]  # every public event is the same...
    assert views[0][0]["known_cards"] == views[1][0]["known_cards"] == [[], []]  # ...and so is what is known
    assert views[0] == views[1]
