"""Ninja Versus Ninja: configuration, the state factory, the heuristic and the bots."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tourney.engine.core import Chance, ConfigError, Game, Inject, Option, Options, State
from tourney.engine.core.encoding import Encoding
from tourney.engine.games.ninja_versus_ninja import evaluate as heuristic
from tourney.engine.games.ninja_versus_ninja.render import render_board
from tourney.engine.games.ninja_versus_ninja.rules import setup
from tourney.engine.games.ninja_versus_ninja.state import NvnState, place


class NinjaVersusNinja(Game):
    """Two players, perfect information, 2d4 movement, missions into the enemy dojo."""

    id = "ninja-versus-ninja"
    name = "Ninja Versus Ninja"
    min_players = 2
    max_players = 2
    hidden_information = True  # each seat's dice stream decides rolls still to come
    legend = (
        "key: R = a Red ninja, B = a Black ninja, . = an empty square · columns a-d, rows 1-11 · "
        "c11→c8→d8 = a ninja's path · each move is followed by the position it left: the next turn, "
        "who moves in it and their dice (rolled 2+2=4)"
    )
    codec = "tourney.engine.server.codecs.ninja_versus_ninja:NinjaVersusNinjaCodec"
    viewer_script = "viewer.js"
    options = Options("ninja-versus-ninja", (
        Option("target_score", "int", 7, "mission points that win the match (§7)", low=1),
        Option("first_player", "json", "rolloff", "who moves first: rolloff (§1.3), 0 or 1",
               choices=("rolloff", 0, 1)),
        Option("turn_cap", "int", 300, "turns before the referee adjudicates", low=1),
        Option("board", "str", "4x11", "the board; only 4x11 exists", choices=("4x11",)),
    ))

    def _blank(self, seed: int, players: int | None, config: Mapping[str, Any] | None,
               inject: Inject | None) -> tuple[NvnState, dict[str, Any]]:
        if players is not None and players != 2:
            raise ConfigError(f"{self.name} is for exactly 2 players, not {players}: seat two bots.")
        conf = self.options.resolve(config, players)
        state = NvnState(self, Chance(seed, inject), conf["target_score"], conf["turn_cap"])
        return state, conf

    def new_state(
        self,
        seed: int,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        inject: Inject | None = None,
    ) -> NvnState:
        """The U start (§1.2), the roll-off (§1.3) and the first player's first roll."""
        state, conf = self._blank(seed, players, config, inject)
        setup(state, conf["first_player"])
        return state

    def position(
        self,
        black: Sequence[str],
        red: Sequence[str],
        to_move: int = 0,
        dice: tuple[int, int] | None = None,
        missions: Mapping[int, Mapping[str, Any]] | None = None,
        score: Sequence[int] = (0, 0),
        seed: int = 0,
        config: Mapping[str, Any] | None = None,
        inject: Inject | None = None,
    ) -> NvnState:
        """Any position (puzzles, the spec's golden scenarios); see `state.place`."""
        state, _ = self._blank(seed, 2, config, inject)
        state.first_player = to_move
        return place(state, black, red, to_move, dice, missions, score)

    def evaluate(self, state: State, seat: int) -> float:
        """Score, Ninjas and the expected worth of each mission (see evaluate.py), in [-1, 1]."""
        assert isinstance(state, NvnState)
        return heuristic.evaluate(state, seat)

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """`expectimax`: depth-limited search over the 2d4 distribution."""
        from tourney.engine.games.ninja_versus_ninja.bots import ExpectimaxBot

        return {"expectimax": ExpectimaxBot}

    def encoding(self) -> Encoding:
        """The observation tensor and fixed action space for training environments (tensor.py)."""
        from tourney.engine.games.ninja_versus_ninja.tensor import ENCODING

        return ENCODING

    def render(self, state: State) -> str:
        """The board with row labels and dojo bands, then each side's score, shadow and mission."""
        assert isinstance(state, NvnState)
        return render_board(state)
