"""Train the linear policy against `random` with REINFORCE (numpy alone), then measure it.

    python examples/policy/train.py --episodes 2000 --seed 1

The learner plays both seats in turn (a Gymnasium `SeatEnv` per seat); each finished match
moves the weights along the log-probability of the actions taken, scaled by how much better
than the running average the result was. It writes weights.npz and prints the greedy policy's
share of points against random over fresh seeded matches.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from tourney.envs import SeatEnv

try:
    from policy import WEIGHTS, Policy
except ImportError:  # imported as a package (the tests)
    from examples.policy.policy import WEIGHTS, Policy

GAME = "tiny-ninjas"
EVAL_SEED_BASE = 1_000_000  # evaluation matches use seeds the training never met


def train(episodes: int, seed: int, learning_rate: float = 0.03, opponent: str = "random") -> Policy:
    """A policy trained for `episodes` matches against `opponent`, reproducible from `seed`."""
    rng = np.random.default_rng(seed)
    policy = Policy()
    envs = [SeatEnv(GAME, opponent, seat=s) for s in (0, 1)]
    baseline = 0.0
    for episode in range(episodes):
        env = envs[episode % 2]
        observation, _ = env.reset(seed=seed * 100_003 + episode)
        taken: list[tuple[np.ndarray, np.ndarray, int]] = []
        reward, over = 0.0, False
        while not over:
            tensor, mask = observation["observation"], observation["action_mask"]
            probabilities = policy.probabilities(tensor, mask)
            action = int(rng.choice(len(probabilities), p=probabilities))
            taken.append((tensor, probabilities, action))
            observation, reward, over, _, _ = env.step(action)
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        for tensor, probabilities, action in taken:
            grad = -probabilities
            grad[action] += 1.0  # d log p(action) / d logits
            policy.weights += learning_rate * advantage * np.outer(tensor, grad)
            policy.bias += learning_rate * advantage * grad
    return policy


def score(policy: Policy, matches: int, opponent: str = "random") -> float:
    """The greedy policy's mean match points against `opponent`, seats alternating, fixed seeds."""
    total = 0.0
    for k in range(matches):
        env = SeatEnv(GAME, opponent, seat=k % 2)
        observation, _ = env.reset(seed=EVAL_SEED_BASE + k)
        reward, over = 0.0, False
        while not over:
            action = policy.best(observation["observation"], observation["action_mask"])
            observation, reward, over, _, _ = env.step(action)
        total += (reward + 1.0) / 2.0
    return total / matches


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval", type=int, default=400, help="matches against random to measure it")
    args = parser.parse_args(argv)
    started = time.process_time()
    policy = train(args.episodes, args.seed)
    policy.save()
    spent = time.process_time() - started
    print(f"trained {args.episodes} matches in {spent:.0f} s of CPU; weights in {WEIGHTS}")
    print(f"points against random over {args.eval} matches: {score(policy, args.eval):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
