"""A Gymnasium environment: one seat is the learner, every other seat a bot named by a spec.

Opponents are read by `tournament.entrants.parse_entrants`, the function `tourney run --bots`
uses, so a spec means here what it means in a tournament (`random`, `greedy`, `ismcts:ms=20`, a
game's own bots). They are asked through the referee's `ask_seat`, so a bot that raises or
answers out of range forfeits the match as it would in a real one. Programs (`cmd:`) and hosted
bots play only through an arena, which runs whole matches: they are refused here, naming that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium

from tourney.engine.bots import make_bot
from tourney.engine.core import Action, ConfigError, DecisionRequest, Seat
from tourney.engine.referee import ask_seat
from tourney.engine.server.launcher import is_command
from tourney.envs.table import Table, show
from tourney.tournament.entrants import parse_entrants

SEED_LIMIT = 2**31  # match seeds drawn by a reset that names none are below this
ARENA_ONLY = ("hosted:", "remote:")  # besides programs (cmd:), the specs that need an arena
BOT_SEED_STRIDE = 1009  # a seat's bot seed is match seed * stride + seat, as the arena derives it


class SeatEnv(gymnasium.Env[dict[str, Any], Any]):
    """The learner plays `seat`; `opponents` (a comma-separated spec list or a sequence, one per other
    seat in seat order) play the rest. Reward at the end: 2 x match points - 1; 0 before."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, game: str, opponents: str | Sequence[str] = "random", seat: int = 0,
                 config: Mapping[str, Any] | None = None, render_mode: str | None = None) -> None:
        """Raises ConfigError for an unknown game, bot or seat, or a bad config."""
        text = opponents if isinstance(opponents, str) else ",".join(opponents)
        self.table = Table(game, None, config)
        specs = [e.spec for e in parse_entrants(text, self.table.game, unique=False)]
        for spec in specs:
            if is_command(spec) or spec.startswith(ARENA_ONLY):
                raise ConfigError(f"opponent '{spec}' plays through an arena: give built-in bots here "
                                  "(e.g. random,greedy), and play programs with `tourney run`.")
        players = len(specs) + 1
        self.table = Table(game, players, config)
        if not 0 <= seat < players:
            raise ConfigError(f"seat {seat} is not among the {players} seats: choose 0 to {players - 1}.")
        self.seat = seat
        self.specs = specs
        self.render_mode = render_mode
        self.observation_space = self.table.observation_space()
        self.action_space = self.table.action_space()
        self._bots: dict[int, Seat] = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A fresh match from `seed` (drawn from the env's generator when None), played to the learner's turn."""
        super().reset(seed=seed)
        match_seed = seed if seed is not None else int(self.np_random.integers(SEED_LIMIT))
        self.table.reset(match_seed)
        others = [s for s in range(self.table.players) if s != self.seat]
        self._bots = {s: make_bot(spec, self.table.game, match_seed * BOT_SEED_STRIDE + s)
                      for s, spec in zip(others, self.specs, strict=True)}
        self._advance()
        return self.table.observation(self.seat), self._info([])

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The learner's action (an index into the fixed space); the bots then play to its next turn."""
        if self.table.over():
            raise gymnasium.error.ResetNeeded("the match is over: call reset() before step().")
        joint = self._bot_choices()
        joint[self.seat] = self.table.action_of(self.seat, action)
        offenders = self.table.play(joint)
        if not offenders:
            offenders = self._advance()
        over = self.table.over()
        reward = self.table.rewards()[self.seat]
        if self.render_mode == "human":
            self.render()
        return self.table.observation(self.seat), reward, over, False, self._info(offenders)

    def render(self) -> str | None:
        """The game's text render: printed ("human") or returned ("ansi")."""
        return show(self.table, self.render_mode)

    def _bot_choices(self) -> dict[int, Action | None]:
        """The bots' answers for the acting seats other than the learner's (None: a fault, a forfeit)."""
        joint: dict[int, Action | None] = {}
        for s in self.table.acting():
            if s == self.seat:
                continue
            legal = self.table.legal(s)[0]
            request = DecisionRequest(self.table.game, s, None, legal, None, self.table.state)
            index, fault, _ = ask_seat(self._bots[s], request)
            request.seal()
            ok = fault is None and isinstance(index, int) and 0 <= index < len(legal)
            joint[s] = legal[index] if ok and isinstance(index, int) else None
        return joint

    def _advance(self) -> list[int]:
        """Let the bots play until the learner must act or the match ends; the seats that forfeited."""
        while not self.table.over() and self.seat not in self.table.acting():
            offenders = self.table.play(self._bot_choices())
            if offenders:
                return offenders
        return []

    def _info(self, offenders: list[int]) -> dict[str, Any]:
        return self.table.info(self.seat, offenders)
