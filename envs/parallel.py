"""A PettingZoo Parallel environment for any game and mode.

Every live agent sends an action each step; the actions of the seats that must act are played
together and the others' are ignored (their mask is all 0). It fits the simultaneous games
(Ninja Arena's ticks, Maître Ninja's commitments, the Blitz mulligan) and plays the sequential
ones one seat at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import ParallelEnv

from tourney.engine.core import Action
from tourney.envs.agents import SeatAgents, agent_name
from tourney.envs.table import RENDER_MODES, fresh_seed, show

Step = tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]


class TourneyParallel(SeatAgents, ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # pettingzoo has no type hints
    """One game as a Parallel environment (see the module docstring); the JSON view is in `infos[agent]["view"]`."""

    metadata = {"name": "tourney_parallel_v0", "render_modes": list(RENDER_MODES)}

    def __init__(self, game: str, players: int | None = None, config: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        """Raises ConfigError for an unknown game or a bad config."""
        self.seat_agents(game, players, config, render_mode)

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A fresh match from `seed` (a fresh random seed when None): observations and infos."""
        self.table.reset(fresh_seed() if seed is None else seed)
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos([])

    def step(self, actions: dict[str, Any]) -> Step:
        """Play the acting seats' actions; a missing one counts as an illegal choice."""
        joint: dict[int, Action | None] = {
            s: self.table.action_of(s, actions[agent_name(s)]) if agent_name(s) in actions else None
            for s in self.table.acting()}
        offenders = self.table.play(joint)
        observations, infos = self._observations(), self._infos(offenders)
        over = self.table.over()
        rewards = {agent_name(s): r for s, r in enumerate(self.table.rewards())}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def close(self) -> None:
        """Nothing to release: the match lives in this process."""

    def render(self) -> str | None:
        """The game's text render: printed ("human") or returned ("ansi")."""
        return show(self.table, self.render_mode)

    def _observations(self) -> dict[str, Any]:
        return {agent_name(s): self.table.observation(s) for s in range(self.table.players)}

    def _infos(self, offenders: list[int]) -> dict[str, dict[str, Any]]:
        return {agent_name(s): self.table.info(s, offenders) for s in range(self.table.players)}
