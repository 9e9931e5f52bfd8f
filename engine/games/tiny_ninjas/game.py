"""The Tiny Ninjas Game object: config, state factory and heuristic evaluation."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from tourney.engine.core import Game, Inject, State
from tourney.engine.core.encoding import Encoding
from tourney.engine.games.tiny_ninjas import config as C
from tourney.engine.games.tiny_ninjas.data import ACHIEVEMENTS
from tourney.engine.games.tiny_ninjas.render import render_line
from tourney.engine.games.tiny_ninjas.rules import P_DEFEND
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState, check_players

# Heuristic weights, in HEALTH points: what a card in hand, an unused token and a pending
# freeze are worth, and how much of a pending defendable attack is expected to land.
# A card is worth more in the Defender's hand (it blocks now) than in the Attacker's (it is
# held back from attacking, and the Defender refills anyway). Tuned by greedy-vs-greedy
# duplicate matches: these weights beat the flat 0.4 per card, 0.5 per token in 66% ± 7 of
# 200 games.
ATTACKER_CARD_VALUE = 0.2
DEFENDER_CARD_VALUE = 0.6
TOKEN_VALUE = 0.8
FREEZE_VALUE = 1.0
PENDING_SHARE = 0.6
SCALE = 6.0


class TinyNinjasGame(Game):
    """Tiny Ninjas: 2-seat card battle with hidden hands and custom dice (spec tiny-ninjas.md)."""

    id: ClassVar[str] = "tiny-ninjas"
    name: ClassVar[str] = "Tiny Ninjas"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    modes: ClassVar[tuple[str, ...]] = C.MODES
    options = C.OPTIONS
    hidden_information = True  # the hands and the draw pile
    # §9.6 streaks need several matches: the tournament layer counts them. Against the Solo AI
    # only #22 and #25 count (the AI is not an opponent who can be beaten "in a row" twice over).
    streak_achievements = (
        (15, 3, ACHIEVEMENTS[15], {"mode": ("standard", "blitz", "survivor", "champion")}),
        (16, 5, ACHIEVEMENTS[16], {"mode": ("standard", "blitz", "survivor", "champion")}),
        (22, 3, ACHIEVEMENTS[22], {"mode": ("solo",), "difficulty": ("normal",)}),
        (25, 3, ACHIEVEMENTS[25], {"mode": ("solo",), "difficulty": ("hard",)}),
    )

    def new_state(
        self,
        seed: int,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        inject: Inject | None = None,
    ) -> TinyNinjasState:
        """A fresh battle (or Champion series) for `config` merged over the standard configuration."""
        check_players(players)
        return TinyNinjasState(self, seed, config, inject)

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """`montecarlo`: the search bot, every action scored over the same sampled worlds (search.py)."""
        from tourney.engine.games.tiny_ninjas.search import PairedMonteCarloBot

        return {"montecarlo": PairedMonteCarloBot}

    def evaluate(self, state: State, seat: int) -> float:
        """Health difference plus cards, tokens and the pending attack, squashed into [-1, 1]."""
        assert isinstance(state, TinyNinjasState)
        if state.is_over():
            return 2.0 * state.outcome().points(seat) - 1.0
        opp = 1 - seat
        h = state.health
        score = float(h[seat] - h[opp])
        a = state.attacker
        for p, sign in ((seat, 1.0), (opp, -1.0)):
            weight = ATTACKER_CARD_VALUE if p == a else DEFENDER_CARD_VALUE
            score += sign * weight * len(state.hands[p])
        score += TOKEN_VALUE * (bin(state.tokens[seat]).count("1") - bin(state.tokens[opp]).count("1"))
        if state.phase == P_DEFEND:
            expected = PENDING_SHARE * state.p_amount + state.p_undef
            score += expected if a == seat else -expected
        if state.freeze:
            score += FREEZE_VALUE if a == seat else -FREEZE_VALUE
        if state.cfg["series_wins"]:
            score += 4.0 * (state.wins[seat] - state.wins[opp])
        return 0.95 * math.tanh(score / SCALE)

    def encoding(self) -> Encoding:
        """The observation tensor and fixed action space for training environments (tensor.py)."""
        from tourney.engine.games.tiny_ninjas.tensor import ENCODING

        return ENCODING

    def render(self, state: State) -> str:
        """One public line: round, roles, health, hand sizes, tokens, discard top, last event."""
        assert isinstance(state, TinyNinjasState)
        return render_line(state)
