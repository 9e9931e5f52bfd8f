"""Digests of everything Ninja Arena shows a seat, a spectator or a trainer, over many seeded
random playouts: the yardstick that a faster rules engine still plays the same game.

For each table (players, config) and each seed, a random playout (with now and then a hand-made
action that is probably illegal, so Mistakes are exercised too) feeds a SHA-256 with: who acts,
every acting seat's legal labels, every seat's view and training tensor, the public view and the
tick's events, the joint action, a clone's and a determinized world's views at a few steps, and
the outcome. `reference_digests.json` beside this file was recorded from main's code at commit
65d529e (before the arenarules branch changed the rules) with:

    .venv/bin/python -m tests.ninja_arena.digests --record

`test_same_as_before.py` compares the first CHUNK seeds of every table against it; the same
command without `--record` compares all SEEDS (a few minutes).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from tourney.engine.core import Action
from tourney.engine.games.ninja_arena import GAME
from tourney.engine.games.ninja_arena.actions import HIT, Activate, Roll

REFERENCE = Path(__file__).with_name("reference_digests.json")
SEEDS = 300
CHUNK = 50  # the test plays the first chunk of every table; `python -m` plays them all

# (name, players, config): both player counts of the issue, both tick modes, and the Genin Pack.
TABLES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("standard/2", 2, {}),
    ("standard/3", 3, {}),
    ("standard/4", 4, {}),
    ("duel/2", 2, {"mode": "duel"}),
    ("genin/2", 2, {"genin_pack": True}),
    ("genin/4", 4, {"genin_pack": True}),
    ("genin/6", 6, {"genin_pack": True}),
)


def stray_action(rng: random.Random, players: int) -> Action:
    """A submission a bot might send that is often not on the legal list (a Mistake, or a legal
    action in a form the list does not show, such as unsorted dice)."""
    kind = rng.randrange(4)
    dice = tuple(rng.sample(range(5), rng.randint(1, 4)))
    if kind == 0:
        return Roll(dice, stream_target=rng.randrange(-1, players))
    if kind == 1:
        return HIT
    key = rng.choice(("T1", "T2", "T3", "B1"))
    if kind == 2:
        return Activate(key, dice, target=rng.randrange(-1, players))
    share = rng.randint(1, 4)
    return Activate(key, dice, allocation=((rng.randrange(players), share),), bonus_target=rng.randrange(-1, players))


def table_digest(players: int, config: dict[str, Any], seeds: range) -> str:
    """The SHA-256 of the random playouts of one table on `seeds` (see the module docstring)."""
    encoding = GAME.encoding()
    h = hashlib.sha256()

    def put(item: Any) -> None:
        h.update(json.dumps(item, sort_keys=True).encode())

    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_state(seed, players=players, config=config)
        step = 0
        while not state.is_over():
            acting = list(state.to_act())
            put(["act", acting])
            joint: dict[int, Action] = {}
            for seat in acting:
                legal = state.legal_actions(seat)
                put([seat, [a.label for a in legal]])
                joint[seat] = stray_action(rng, players) if rng.random() < 0.03 else legal[rng.randrange(len(legal))]
            for seat in range(state.n):
                view = state.observe(seat)
                put(view)
                h.update(repr(encoding.encode(view)).encode())
            if step % 17 == 5:
                put(state.clone().observe(step % state.n))
                put(state.determinize(0, random.Random(seed + step)).public_view())
            put([[seat, a.label] for seat, a in sorted(joint.items())])
            state.apply(joint)
            put(state.public_view())
            step += 1
        h.update(repr(state.outcome()).encode())
    return h.hexdigest()


def all_digests(chunks: int = SEEDS // CHUNK) -> dict[str, list[str]]:
    """Every table's digests, one per CHUNK seeds (the first `chunks` chunks)."""
    return {
        name: [table_digest(players, config, range(k * CHUNK, (k + 1) * CHUNK)) for k in range(chunks)]
        for name, players, config in TABLES
    }


def stored() -> dict[str, list[str]]:
    """The reference digests recorded from main's code."""
    found: dict[str, list[str]] = json.loads(REFERENCE.read_text())["digests"]
    return found


if __name__ == "__main__":
    found = all_digests()
    if "--record" in sys.argv:
        REFERENCE.write_text(json.dumps({"seeds": SEEDS, "chunk": CHUNK, "digests": found}, indent=1) + "\n")
    elif found != stored():
        sys.exit("the digests differ from reference_digests.json: " + json.dumps(found, indent=1))
    print(f"{len(found)} tables x {SEEDS} seeds: the same as the reference")
