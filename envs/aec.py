"""A PettingZoo AEC environment for any game and mode.

Agents are `seat_0`, `seat_1`, ...; the agent to act is the first acting seat that has not chosen
yet. At a simultaneous decision each acting seat chooses in turn and the choices are applied
together once the last is in, so a later seat sees nothing of an earlier seat's choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv

from tourney.engine.core import Action
from tourney.envs.agents import SeatAgents, agent_name
from tourney.envs.table import RENDER_MODES, fresh_seed, show


class TourneyAEC(SeatAgents, AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # pettingzoo has no type hints
    """One game as an AEC environment (see the module docstring); the JSON view is in `infos[agent]["view"]`."""

    metadata = {"name": "tourney_aec_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": True}

    def __init__(self, game: str, players: int | None = None, config: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        """Raises ConfigError for an unknown game or a bad config."""
        super().__init__()
        self.seat_agents(game, players, config, render_mode)
        self._chosen: dict[int, Action | None] = {}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A fresh match from `seed` (a fresh random seed when None)."""
        self.table.reset(fresh_seed() if seed is None else seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._chosen = {}
        self._refresh_infos()
        self.agent_selection = self._next_agent()

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's tensor and mask (its mask is all 0 while it is not to act)."""
        seat = self.possible_agents.index(agent)
        observation = self.table.observation(seat)
        if seat in self._chosen:  # it has chosen for this step: nothing more to choose until it is played
            observation["action_mask"][:] = 0
        return observation

    def step(self, action: Any) -> None:
        """The selected agent's choice (an index into the fixed action space)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self._chosen[seat] = self.table.action_of(seat, action)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if all(s in self._chosen for s in self.table.acting()):
            offenders = self.table.play(self._chosen)
            self._chosen = {}
            self._refresh_infos(offenders)
            if self.table.over():
                self.rewards = {agent_name(s): r for s, r in enumerate(self.table.rewards())}
                self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._next_agent()
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        """Nothing to release: the match lives in this process."""

    def render(self) -> str | None:
        """The game's text render: printed ("human") or returned ("ansi")."""
        return show(self.table, self.render_mode)

    def _next_agent(self) -> str:
        waiting = [s for s in self.table.acting() if s not in self._chosen]
        return agent_name(waiting[0]) if waiting else self.agents[0]

    def _refresh_infos(self, offenders: list[int] | None = None) -> None:
        self.infos = {agent_name(s): self.table.info(s, offenders or []) for s in range(self.table.players)}


