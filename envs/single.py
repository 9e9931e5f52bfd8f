"""A Gymnasium environment: one seat is the learner, every other seat a bot named by a spec.

Opponents are read by `tournament.entrants.parse_entrants`, the function `tourney run --bots`
uses, so a spec means here what it means in a tournament (`random`, `greedy`, `ismcts:ms=20`, a
game's own bots). They are asked through the referee's `ask_seat`, so a bot that raises or
answers out of range forfeits the match as it would in a real one. When an opponent is a program
(`cmd:PROGRAM ARGS`), the match is played by a private arena instead, the learner connected to it
like any bot (`envs.programs`); a hosted bot (`hosted:NAME`, read from `store`) goes to that arena as a
seat too, in its sandbox, pinned to its latest validated version when the environment is made (so
every episode meets the same bot). Bots connected to some other arena (`remote:`) are refused.
"""

from __future__ import annotations

import copy
import json
import os
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from tourney.engine.bots import make_bot
from tourney.engine.core import Action, ConfigError, DecisionRequest, Observation, Seat, Termination
from tourney.engine.core.environment import DB_ENV
from tourney.engine.referee import MatchResult, ask_seat
from tourney.envs.float32 import float32_array
from tourney.envs.programs import ProgramMatch
from tourney.envs.table import RENDER_MODES, Table, check_render_mode, show, whole_number
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.hosted.pinning import pin_entrants
from tourney.tournament.store.database import StoreError, open_store
from tourney.workers.program_specs import is_hosted, is_program

SEED_LIMIT = 2**31  # match seeds drawn by a reset that names none are below this
ELSEWHERE = "remote:"  # a bot connected to another arena cannot be seated here
BOT_SEED_STRIDE = 1009  # a seat's bot seed is match seed * stride + seat, as the arena derives it


class SeatEnv(gymnasium.Env[dict[str, Any], Any]):
    """The learner plays `seat`; `opponents` (a comma-separated spec list or a sequence, one per other
    seat in seat order) play the rest. Reward at the end: 2 x match points - 1; 0 before."""

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(self, game: str, opponents: str | Sequence[str] = "random", seat: int = 0,
                 config: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 store: str | None = None) -> None:
        """Raises ConfigError for an unknown game, bot or seat, or a bad config. `store` holds the hosted
        bots (default: $TOURNEY_DB, else tourney.db)."""
        check_render_mode(render_mode)
        seat = whole_number(seat, f"seat is {seat!r:.40}: give the learner's seat as a whole number, e.g. seat=0.")
        text = _spec_list(opponents)
        self.table = Table(game, None, config)
        entrants = parse_entrants(text, self.table.game, unique=False)
        self.store = store if store is not None else os.environ.get(DB_ENV, "tourney.db")
        if any(is_hosted(e.spec) for e in entrants):
            try:
                entrants = pin_entrants(open_store(self.store), entrants)
            except StoreError:
                raise ConfigError(f"the store {self.store!r:.200} holding the hosted bots cannot be opened: "
                                  "pass store= the path of a reachable database.") from None
        specs = [e.spec for e in entrants]
        for spec in specs:
            if spec.startswith(ELSEWHERE):
                raise ConfigError(f"opponent '{spec}' is connected to another arena: start it as a program "
                                  "here instead (cmd:PROGRAM ARGS).")
        players = len(specs) + 1
        rules = self.table.game
        if not rules.min_players <= players <= rules.max_players:  # said here in opponents, not in --players
            fewest, most = rules.min_players - 1, rules.max_players - 1
            wanted = f"{fewest}" if fewest == most else f"{fewest} to {most}"
            raise ConfigError(f"{game} seats {wanted} opponent{'s' if most > 1 else ''} beside the learner, not "
                              f"{len(specs)}: give {'fewer' if len(specs) > most else 'more'} opponents.")
        self.table = Table(game, players, config)
        if not 0 <= seat < players:
            raise ConfigError(f"seat {seat} is not among the {players} seats: choose 0 to {players - 1}.")
        self.seat = seat
        self.specs = specs
        self.render_mode = render_mode
        self.observation_space = self.table.observation_space()
        self.action_space = self.table.action_space()
        self._bots: dict[int, Seat] = {}
        # Programs, and hosted bots (which a store keeps and an arena starts), play through an arena.
        self.programs = any(is_program(spec) for spec in specs)
        self._match: ProgramMatch | None = None
        # Closes the match's programs and arena if the environment is dropped without close(): the
        # match's own threads keep it alive, so its own finalizer would wait for the match to end.
        self._reaper: weakref.finalize[Any, Any] | None = None
        self._request: tuple[Observation, list[Action]] | None = None
        self._result: MatchResult | None = None
        self._last_view: Observation = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A fresh match from `seed` (drawn from the env's generator when None), played to the learner's turn."""
        super().reset(seed=seed)
        match_seed = seed if seed is not None else int(self.np_random.integers(SEED_LIMIT))
        self.table.reset(match_seed)
        if self.programs:
            return self._reset_on_arena(match_seed)
        others = [s for s in range(self.table.players) if s != self.seat]
        self._bots = {s: make_bot(spec, self.table.game, match_seed * BOT_SEED_STRIDE + s)
                      for s, spec in zip(others, self.specs, strict=True)}
        self._advance()
        return self.table.observation(self.seat), self._info([])

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The learner's action (an index into the fixed space); the bots then play to its next turn."""
        if self.programs:
            return self._step_on_arena(action)
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

    def close(self) -> None:
        """Stop a match still playing on an arena (its programs, its arena)."""
        if self._reaper is not None:
            self._reaper()  # closes the match, once
            self._reaper = None
        self._match = None

    def _reset_on_arena(self, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
        self.close()
        specs: list[str | None] = list(self.specs)
        specs.insert(self.seat, None)
        seeds = [seed * BOT_SEED_STRIDE + s for s in range(len(specs))]
        self._match = ProgramMatch(self.table.game, specs, seed, self.table.config, seeds, store=self.store)
        self._reaper = weakref.finalize(self, self._match.close)
        self._result = None
        self._await_arena()
        return self._arena_observation(), self._arena_info()

    def _step_on_arena(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._match is None or self._request is None:
            raise gymnasium.error.ResetNeeded("the match is over: call reset() before step().")
        indices = self.table.encoding.action_indices(self._request[1])
        chosen = int(action) if isinstance(action, int | np.integer) else -1
        self._match.answer(indices.index(chosen) if chosen in indices else None)
        self._await_arena()
        reward = 0.0 if self._result is None else 2.0 * self._result.points(self.seat) - 1.0
        return self._arena_observation(), reward, self._result is not None, False, self._arena_info()

    def _await_arena(self) -> None:
        """Wait for the learner's next request on the arena, or the end of the match."""
        assert self._match is not None
        got = self._match.next()
        if isinstance(got, MatchResult):
            self._result, self._request = got, None
            self.close()
        else:
            self._request = got
            self._last_view = got[0]

    def _arena_observation(self) -> dict[str, Any]:
        encoding = self.table.encoding
        mask = np.zeros(encoding.action_count, np.int8)
        if self._request is not None:
            mask[encoding.action_indices(self._request[1])] = 1
        return {"observation": float32_array(encoding.encode(self._last_view)), "action_mask": mask}

    def _arena_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"view": copy.deepcopy(self._last_view), "illegal_action": False}
        if self._result is not None:
            info["reason"] = self._result.reason
            info["illegal_action"] = (self._result.termination == Termination.ILLEGAL_MOVE
                                      and self._result.points(self.seat) == 0.0)
        return info

    def render(self) -> str | None:
        """The game's text render: printed ("human") or returned ("ansi"). A match played on an arena has
        no state here: its render is the learner's last JSON view."""
        if not self.programs:
            return show(self.table, self.render_mode)
        text = json.dumps(self._last_view, sort_keys=True)
        if self.render_mode == "human":
            print(text)
            return None
        return text if self.render_mode == "ansi" else None

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


def _spec_list(opponents: object) -> str:
    """The opponents as one comma-separated spec list (ConfigError for anything but text or a list of text)."""
    if isinstance(opponents, str):
        return opponents
    if isinstance(opponents, Sequence) and all(isinstance(spec, str) for spec in opponents):
        return ",".join(opponents)
    raise ConfigError(f"opponents is {opponents!r:.60}: give bot specs as text or a list of text, "
                      'e.g. "random" or ["greedy", "cmd:python3 mybot.py"].')
