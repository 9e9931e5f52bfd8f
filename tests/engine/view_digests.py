"""Digests of every view and training tensor along seeded random playouts, to show that a faster
`observe()` or tensor changes nothing a seat, a spectator or a trainer is shown.

`view_digests.json` was recorded from the code before the views were made cheaper; rewrite it
(`.venv/bin/python -m tests.engine.view_digests`) only for a deliberate change of what a view
holds, and say which cases changed in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from tourney.engine.core import get_game

DIGEST_FILE = Path(__file__).with_name("view_digests.json")
SEEDS = 30  # random playouts per case

# (game, players, config): every mode and the options that change what a view holds. Ninja Arena is
# another engineer's (its views follow its rules), so it is not pinned here.
CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    *(("tiny-ninjas", 2, {"mode": mode}) for mode in ("standard", "blitz", "survivor", "champion", "solo")),
    ("tiny-ninjas", 2, {"use_expansion": True, "mulligan": 2}),
    ("tiny-ninjas", 2, {"reveal_hand": [True, False], "start_health": [5, 8], "hand_limit": [4, 6]}),
    ("tiny-ninjas", 2, {"mode": "solo", "difficulty": "hard"}),
    ("maitre-ninja", 2, {}),
    ("maitre-ninja", 3, {}),
    ("maitre-ninja", 4, {}),
    ("maitre-ninja", 3, {"fight_cap": 12}),
    ("ninja-versus-ninja", 2, {}),
    ("ninja-versus-ninja", 2, {"target_score": 3, "turn_cap": 40}),
)


def case_name(game_id: str, players: int, config: dict[str, Any]) -> str:
    """The case's key in the digest file."""
    return f"{game_id}/{players}/{json.dumps(config, sort_keys=True)}"


def case_digest(game_id: str, players: int, config: dict[str, Any], seeds: int = SEEDS) -> str:
    """SHA-256 over every seat's view and tensor and the public view at every decision of `seeds`
    random playouts (and at their ends)."""
    game = get_game(game_id)
    encoding = game.encoding()
    assert encoding is not None
    digest = hashlib.sha256()

    def take(state: Any) -> None:
        for seat in range(players):
            view = state.observe(seat)
            digest.update(json.dumps(view, sort_keys=True).encode())
            digest.update(json.dumps(encoding.encode(view)).encode())
        digest.update(json.dumps(state.public_view(), sort_keys=True).encode())

    for seed in range(seeds):
        state = game.new_state(seed, players=players, config=config)
        rng = random.Random(seed)
        while not state.is_over():
            take(state)
            state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
        take(state)
    return digest.hexdigest()


def record_all() -> dict[str, str]:
    """Every case's digest from the current code."""
    return {case_name(*case): case_digest(*case) for case in CASES}


def main() -> None:
    """Rewrite the digest file from the current code."""
    DIGEST_FILE.write_text(json.dumps(record_all(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {DIGEST_FILE}")


if __name__ == "__main__":
    main()
