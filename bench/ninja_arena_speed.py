"""Ninja Arena engine speed: ticks per CPU-second of random play (legal lists + apply), one core.

    PYTHONPATH=. .venv/bin/python bench/ninja_arena_speed.py [games]
"""

from __future__ import annotations

import os
import random
import sys
import time

# bench/engine.py would shadow the engine package when this script runs from bench/.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

from tourney.engine.games.ninja_arena import GAME  # noqa: E402


def run(players: int, games: int, config: dict[str, object]) -> tuple[int, float]:
    """(ticks played, seconds) for `games` random games."""
    rng = random.Random(players)
    ticks = 0
    t0 = time.process_time()
    for g in range(games):
        st = GAME.new_state(g, players=players, config=config)
        while not st.is_over():
            st.apply({p: rng.choice(st.legal_actions(p)) for p in st.to_act()})
            ticks += 1
    return ticks, time.process_time() - t0


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rows = [(2, {}), (4, {}), (6, {"genin_pack": True}), (2, {"mode": "duel"})]
    print(f"{'players':>7} {'mode':<8} {'games':>5} {'ticks':>8} {'ticks/s':>9} {'ticks/game':>10}")
    for players, cfg in rows:
        run(players, 20, cfg)  # warm the legal-list and matching caches
        ticks, dt = run(players, games, cfg)
        mode = str(cfg.get("mode", "standard"))
        print(f"{players:>7} {mode:<8} {games:>5} {ticks:>8} {ticks / dt:>9.0f} {ticks / games:>10.1f}")


if __name__ == "__main__":
    main()
