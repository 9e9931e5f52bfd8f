"""Training-environment speed: decisions per CPU second of random masked play, per game.

    .venv/bin/python bench/envs.py                 # every game, 20 matches each
    .venv/bin/python bench/envs.py --matches 100

Columns: the bare engine (legal_actions, a random choice, apply), the AEC environment (tensor,
mask and JSON view for every step), and the Gymnasium environment against `random` (the learner's
steps only, its opponent's decisions included in the time). CPU time, so a loaded machine
measures the same work.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from tourney.engine.core import get_game
from tourney.envs import SeatEnv, TourneyAEC

CASES = [("tiny-ninjas", None), ("ninja-versus-ninja", None), ("maitre-ninja", 2), ("ninja-arena", 2)]


def engine_rate(game_id: str, players: int | None, matches: int) -> float:
    game, rng, decisions = get_game(game_id), random.Random(1), 0
    started = time.process_time()
    for seed in range(matches):
        state = game.new_state(seed, players=players)
        while not state.is_over():
            joint = {}
            for s in state.to_act():
                legal = state.legal_actions(s)
                joint[s] = legal[rng.randrange(len(legal))]
                decisions += 1
            state.apply(joint)
    return decisions / (time.process_time() - started)


def aec_rate(game_id: str, players: int | None, matches: int) -> float:
    env, rng, decisions = TourneyAEC(game_id, players), np.random.default_rng(1), 0
    started = time.process_time()
    for seed in range(matches):
        env.reset(seed=seed)
        for _agent in env.agent_iter(max_iter=100_000):
            observation, _, done, cut, _ = env.last()
            env.step(None if done or cut else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            decisions += 1
    return decisions / (time.process_time() - started)


def gym_rate(game_id: str, players: int | None, matches: int) -> float:
    env = SeatEnv(game_id, ",".join(["random"] * ((players or 2) - 1)))
    rng, steps = np.random.default_rng(1), 0
    started = time.process_time()
    for seed in range(matches):
        observation, _ = env.reset(seed=seed)
        over = False
        while not over:
            observation, _, over, _, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    table = Table(title=f"random masked play, {args.matches} matches per game (decisions per CPU second)")
    for column in ("game", "engine", "AEC env", "Gymnasium env (learner steps)"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for game_id, players in CASES:
        rates = [measure(game_id, players, args.matches) for measure in (engine_rate, aec_rate, gym_rate)]
        table.add_row(game_id, *(f"{rate:,.0f}" for rate in rates))
    Console().print(table)


if __name__ == "__main__":
    main()
