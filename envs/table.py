"""One match seen as a training environment: tensors, masks, joint steps and rewards, by seat.

The three environments (AEC, Parallel, Gymnasium) share it, so they agree on what a seat sees,
which actions it may take and how an illegal choice ends a match.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, SupportsIndex

import numpy as np
import orjson
from gymnasium import spaces

from tourney.engine.core import (
    Action,
    ConfigError,
    Encoding,
    Illegal,
    Observation,
    Outcome,
    State,
    forfeit,
    get_game,
)
from tourney.envs.float32 import float32_array

ILLEGAL_REASON = "illegal_move"  # the forfeit's reason when a learner picks an action outside its mask
RENDER_MODES = ("human", "ansi")  # every environment's render modes (None: no render)


class Table:
    """A game, its configuration and the match in progress (call `reset` before anything else)."""

    def __init__(self, game_id: str, players: int | None = None, config: Mapping[str, Any] | None = None) -> None:
        """Raises ConfigError (one sentence) for an unknown game, a bad player count or a bad config."""
        # The games read these deep in their rules, where a wrong type surfaces as an unrelated TypeError.
        if players is not None:
            players = whole_number(players, f"players is {players!r:.40}: give a whole number of seats, or None.")
        if config is not None and not isinstance(config, Mapping):
            raise ConfigError(f"config is a {type(config).__name__}, not a mapping: give option names and values, "
                              'e.g. {"mode": "blitz"}.')
        self.game = get_game(game_id)
        if players is not None and not self.game.min_players <= players <= self.game.max_players:
            # before the game's own check, whose advice is the command line's (--players)
            lo, hi = self.game.min_players, self.game.max_players
            seats = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise ConfigError(f"{game_id} is played by {seats} players, not {players}: pass players={lo}, "
                              "or None for the game's own count.")
        encoding = self.game.encoding()
        if encoding is None:
            raise ConfigError(f"game '{game_id}' declares no observation tensor: it has no training environment.")
        self.encoding: Encoding = encoding
        self.config = dict(config or {})
        self.requested_players = players
        self.state: State = self.game.new_state(0, players=self.requested_players, config=self.config)
        self.players = self.state.num_players
        self.forfeited: Outcome | None = None
        self._legal: dict[int, tuple[list[Action], dict[int, int]]] = {}

    def observation_space(self) -> spaces.Dict:
        """The tensor and the action mask, the same for every seat."""
        return spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoding.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.action_count,), np.int8),
        })

    def action_space(self) -> spaces.Discrete:
        """The game's fixed action space."""
        return spaces.Discrete(self.encoding.action_count)

    def reset(self, seed: int) -> None:
        """A fresh match from `seed` (the same seed and actions replay the same match)."""
        self.state = self.game.new_state(seed, players=self.requested_players, config=self.config)
        self.forfeited = None
        self._legal.clear()

    def over(self) -> bool:
        """True once the rules or a forfeit ended the match."""
        return self.forfeited is not None or self.state.is_over()

    def acting(self) -> list[int]:
        """The seats that must choose now (several: a simultaneous decision)."""
        return [] if self.over() else list(self.state.to_act())

    def legal(self, seat: int) -> tuple[list[Action], dict[int, int]]:
        """The seat's legal actions and, for each fixed index, its place in that list."""
        cached = self._legal.get(seat)
        if cached is None:
            actions = list(self.state.legal_actions(seat)) if seat in self.acting() else []
            places = {index: i for i, index in enumerate(self.encoding.action_indices(actions))}
            cached = self._legal[seat] = (actions, places)
        return cached

    def mask(self, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 at the fixed index of every legal action of `seat` (all 0 when it is not to act)."""
        mask = np.zeros(self.encoding.action_count, np.int8)
        mask[list(self.legal(seat)[1])] = 1
        return mask

    def tensor(self, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The seat's observation tensor, built straight from the state (no JSON view on the way)."""
        return float32_array(self.encoding.encode_state(self.state, seat))

    def observation(self, seat: int) -> dict[str, np.ndarray[Any, Any]]:
        """The Dict observation of `seat`: tensor and action mask."""
        return {"observation": self.tensor(seat), "action_mask": self.mask(seat)}

    def view(self, seat: int) -> Observation:
        """The seat's JSON view, exactly what a bot over the network is shown, as the caller's own copy.

        A game's views share what does not change between them (a finished fight's face, a closed
        row of the move log) with the state and with one another: the engine only reads them. A
        trainer may write into what it is handed, so it gets the view through JSON, as a bot over the
        network does, and nothing it changes reaches the match or the other seats' views. A game whose
        views are built afresh (`Game.views_are_own`) hands its view over as it is: the copy would cost
        more than observe() itself."""
        view = self.state.observe(seat)
        if self.game.views_are_own:
            return view
        return orjson.loads(orjson.dumps(view))  # type: ignore[no-any-return]

    def action_of(self, seat: int, index: object) -> Action | None:
        """The action at fixed `index` for `seat`; an index outside its mask is None, or, in a game that
        rules on illegal actions itself (Ninja Arena's Mistake), the game's Illegal."""
        actions, places = self.legal(seat)
        place = places.get(int(index)) if isinstance(index, int | np.integer) else None
        if place is not None:
            return actions[place]
        return Illegal(raw=repr(index)[:40]) if self.game.handles_illegal_actions else None

    def play(self, joint: Mapping[int, Action | None]) -> list[int]:
        """Apply one action per acting seat; seats that gave None forfeit the match (returned)."""
        acting = self.acting()
        if set(joint) != set(acting):
            raise ValueError(f"seats {acting} must act together, not {sorted(joint)}")
        offenders = sorted(seat for seat, action in joint.items() if action is None)
        if offenders:
            self.forfeited = forfeit(self.players, offenders, ILLEGAL_REASON)
            return offenders
        self.state.apply({seat: action for seat, action in joint.items() if action is not None})
        self._legal.clear()
        return []

    def outcome(self) -> Outcome:
        """How the match ended; only once `over()`."""
        return self.forfeited if self.forfeited is not None else self.state.outcome()

    def rewards(self) -> list[float]:
        """Per seat, 2 x match points - 1 once the match is over (1 a sole win, -1 last), else 0."""
        if not self.over():
            return [0.0] * self.players
        outcome = self.outcome()
        return [2.0 * outcome.points(seat) - 1.0 for seat in range(self.players)]

    def info(self, seat: int, offenders: list[int]) -> dict[str, Any]:
        """What an environment's info holds for `seat`: its JSON view, whether it just forfeited by an
        illegal choice, and once over the reason the match ended."""
        info: dict[str, Any] = {"view": self.view(seat), "illegal_action": seat in offenders}
        if self.over():
            info["reason"] = self.outcome().reason
        return info

    def render(self) -> str:
        """The game's text picture of the position, and the result once it is over."""
        text = self.game.render(self.state)
        if self.over():
            outcome = self.outcome()
            text += f"\nover ({outcome.reason}): ranking {[list(tier) for tier in outcome.ranking]}"
        return text


def whole_number(value: object, refusal: str) -> int:
    """`value` as an int (numpy's integers too); ConfigError `refusal` for anything else, a bool included."""
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        raise ConfigError(refusal)
    return operator.index(value)


def check_render_mode(render_mode: object) -> None:
    """Raise ConfigError unless `render_mode` is one the environments offer (or None)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ConfigError(f"render_mode {render_mode!r:.40} is not offered: use 'human', 'ansi' or None.")


def show(table: Table, render_mode: str | None) -> str | None:
    """An environment's render(): the text printed ("human"), returned ("ansi"), or nothing (None)."""
    if render_mode is None:
        return None
    text = table.render()
    if render_mode == "human":
        print(text)
        return None
    return text


def fresh_seed() -> int:
    """A seed for a reset that names none."""
    return int(np.random.SeedSequence().generate_state(1)[0] >> 1)
