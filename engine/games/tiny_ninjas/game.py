"""The Tiny Ninjas Game object: its options (spec §7), state factory and heuristic evaluation.

A match config is the declared defaults (the standard configuration), then the delta of the
chosen `mode`, then the caller's own keys; `OPTIONS.resolve` merges and checks them. Per-seat
keys (start_health, max_health, hand_limit, reveal_hand) take a two-item list, a single value
for both seats, or a {seat: value} dict that changes only the seats it names (the §7.4 handicaps).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

from tourney.engine.core import CliFlag, ConfigError, Game, Inject, Option, Options, State
from tourney.engine.core.encoding import Encoding
from tourney.engine.games.tiny_ninjas.data import ACHIEVEMENTS, CARDS, TYPE_BY_NAME
from tourney.engine.games.tiny_ninjas.render import render_line
from tourney.engine.games.tiny_ninjas.rules import P_DEFEND
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState, check_players, new_match

MODES: Final = ("standard", "blitz", "survivor", "champion", "solo")
DIFFICULTIES: Final = ("easy", "normal", "hard")

MODE_DELTAS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "blitz": {
        "remove_cards": {"Alien": 1, "Angel": 2},
        "initial_hand": 15,
        "hand_limit": [15, 15],
        "replenish": False,
        "opening_discard": False,
        "mulligan": 5,
        "single_attack_rounds": True,
        "must_attack": True,
        "end_when_hands_empty": True,
    },
    "survivor": {
        "remove_cards": {"Medic": 2, "Grim": 2},
        "start_health": [8, 8],
        "max_health": [8, 8],
        "survivor": True,
    },
    "champion": {"power_ups": False, "series_wins": 3, "series_cap": 9},
    "solo": {"remove_cards": {"Baby": 2, "Grim": 2}, "opening_discard": False},
}


def _mode_delta(given: Mapping[str, Any], _players: int | None) -> Mapping[str, Any]:
    """The chosen mode's delta; Blitz with the expansion also takes the Monks out (A16)."""
    mode = given.get("mode", "standard")
    delta = MODE_DELTAS[mode]
    if mode == "blitz" and given.get("use_expansion"):
        delta = {**delta, "remove_cards": {**delta["remove_cards"], "Monk": 2}}
    return delta


def _start_under_max(cfg: dict[str, Any], _players: int | None) -> None:
    """No seat starts above the health it can heal up to."""
    for s in (0, 1):
        if cfg["start_health"][s] > cfg["max_health"][s]:
            raise ConfigError(
                f"seat {s} starts at {cfg['start_health'][s]} health above its max_health "
                f"{cfg['max_health'][s]}: lower start_health or raise max_health."
            )


def _card_removals(cfg: dict[str, Any], _players: int | None) -> None:
    """remove_cards maps Tiny Ninjas card names to at most the copies the deck has."""
    removals = cfg["remove_cards"]
    if not isinstance(removals, Mapping):
        raise ConfigError("config 'remove_cards' must map card names to counts, e.g. {\"Alien\": 1}.")
    for name, n in removals.items():
        t = TYPE_BY_NAME.get(name)
        if t is None:
            raise ConfigError(f"remove_cards names {name!r}, which is not a Tiny Ninjas card: check the spelling.")
        Option(name, "int", 0, "copies removed", 0, CARDS[t].count).check(n, f"remove_cards.{name}")


OPTIONS: Final = Options("Tiny Ninjas", (
    Option("mode", "str", "standard", "§7 mode; each mode is a delta over the standard configuration",
           choices=MODES),
    Option("use_expansion", "bool", False, "add the expansion cards (Appendix A)"),
    Option("start_health", "int", [10, 10], "health each seat starts with", 1, 99, per_seat=True),
    Option("max_health", "int", [10, 10], "health a seat can heal up to", 1, 99, per_seat=True),
    Option("hand_limit", "int", [5, 5], "cards a seat may hold", 1, 30, per_seat=True),
    Option("reveal_hand", "bool", [False, False], "play this seat's hand face up (§7.4 handicap)", per_seat=True),
    Option("power_ups", "bool", True, "deal power-up tokens"),
    Option("chooser", "json", "random", "who picks the first attacker: random, 0 or 1", choices=("random", 0, 1)),
    Option("opening_discard", "bool", True, "each seat discards before the first round"),
    Option("replenish", "bool", True, "hands refill at the end of a round"),
    Option("single_attack_rounds", "bool", False, "one attack per round (BLITZ)"),
    Option("must_attack", "bool", False, "the attacker may not pass (BLITZ)"),
    Option("round_cap", "int", 100, "rounds before the referee adjudicates", 1, 100_000),
    Option("attack_cap_per_round", "int", 30, "attacks in one round before it ends", 1, 1000),
    # Extensions used by the modes (standard values switch them off).
    Option("remove_cards", "json", {}, "card name -> copies taken out of the deck"),
    Option("initial_hand", "int", None, "cards dealt first; null: min(5, hand_limit)", 0, 30, nullable=True),
    Option("mulligan", "int", 0, "cards a seat may set aside and redraw (BLITZ)", 0, 30),
    Option("end_when_hands_empty", "bool", False, "the battle ends when both hands are empty (BLITZ)"),
    Option("survivor", "bool", False, "permanent Grim, DOOM | HEAL_1 | PASS each attacking round (SURVIVOR)"),
    Option("series_wins", "int", 0, "battle wins a Champion series needs (0: a single battle)", 0, 50),
    Option("series_cap", "int", 9, "battles a Champion series plays at most", 1, 200),
    Option("difficulty", "str", "normal", "Solo AI difficulty (solo only)", choices=DIFFICULTIES),
    Option("ai_health", "int", 10, "the Solo AI's health (solo only)", 1, 99),
), validators=(_start_under_max, _card_removals), layer=_mode_delta)

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
    modes: ClassVar[tuple[str, ...]] = MODES
    options = OPTIONS
    hidden_information = True  # the hands and the draw pile
    views_are_own = True  # state.observe renders every container afresh (README: "Every view is the caller's own")
    legend = (
        "key: R1 = round 1 · P0A / P1D = seat 0 attacks, seat 1 defends · 10/10hp = health / maximum "
        "· 5c = cards in hand · [RBY] = the Red, Blue and Yellow tokens a seat still holds (- none) · "
        "draw / discard = pile sizes, top = the card on the discard · the last word is the phase"
    )
    cli_flags = (CliFlag("difficulty", "Solo mode AI difficulty: easy, normal or hard."),)
    codec = "tourney.engine.server.codecs.tiny_ninjas:TinyNinjasCodec"
    viewer_script = "viewer.js"
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
        return new_match(self, seed, config, inject)

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """`montecarlo`: the search bot, every action scored over the same sampled worlds (bots.py)."""
        from tourney.engine.games.tiny_ninjas.bots import PairedMonteCarloBot

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
