"""A linear softmax policy over Tiny Ninjas's observation tensor and fixed action space, in numpy alone.

logits = tensor @ weights + bias; actions outside the mask get no probability.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tourney.engine.games.tiny_ninjas.tensor import ENCODING

WEIGHTS = Path(__file__).with_name("weights.npz")


class Policy:
    """Weights (tensor size x action count) and a bias per action."""

    def __init__(self, weights: np.ndarray | None = None, bias: np.ndarray | None = None) -> None:
        self.weights = np.zeros((ENCODING.size, ENCODING.action_count)) if weights is None else weights
        self.bias = np.zeros(ENCODING.action_count) if bias is None else bias

    def probabilities(self, tensor: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The chance of each action: a softmax of the logits over the legal ones."""
        logits = tensor @ self.weights + self.bias
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        odds = np.exp(logits)
        return odds / odds.sum()

    def best(self, tensor: np.ndarray, mask: np.ndarray) -> int:
        """The most likely legal action (how the trained bot plays)."""
        return int(np.argmax(self.probabilities(tensor, mask)))

    def save(self, path: Path = WEIGHTS) -> None:
        """Write the weights as float32 (small enough to commit)."""
        np.savez_compressed(path, weights=self.weights.astype(np.float32), bias=self.bias.astype(np.float32))

    @staticmethod
    def load(path: Path = WEIGHTS) -> Policy:
        """The policy saved at `path`."""
        with np.load(path) as data:
            return Policy(data["weights"].astype(np.float64), data["bias"].astype(np.float64))
