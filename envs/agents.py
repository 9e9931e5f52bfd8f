"""What the two PettingZoo environments share: the table, one agent per seat, the spaces."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gymnasium import spaces

from tourney.envs.table import Table, check_render_mode


def agent_name(seat: int) -> str:
    """The agent of a seat."""
    return f"seat_{seat}"


class SeatAgents:
    """A mixin: `seat_0`.. `seat_{n-1}` over one Table, every agent with the same spaces."""

    def seat_agents(self, game: str, players: int | None, config: Mapping[str, Any] | None,
                    render_mode: str | None) -> None:
        """Open the table (ConfigError for an unknown game, a bad config or render mode) and name the agents."""
        check_render_mode(render_mode)
        self.table = Table(game, players, config)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.table.players)]
        self.agents = list(self.possible_agents)
        self._observation_space = self.table.observation_space()
        self._action_space = self.table.action_space()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The tensor and mask Dict (the same for every seat)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The game's fixed action space."""
        return self._action_space
