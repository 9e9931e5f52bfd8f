"""The Maître Ninja game object: facts, configuration, state factory, bots, rendering."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tourney.engine.core import Chance, ConfigError, Game, Inject, Option, Options, State
from tourney.engine.core.encoding import Encoding
from tourney.engine.games.maitre_ninja import data
from tourney.engine.games.maitre_ninja.actions import next_parries
from tourney.engine.games.maitre_ninja.state import MaitreNinjaState, Setup

# Type-checks one count inside parry_supply or parries_by_rank (their ranges are checked below).
_COUNT = Option("count", "int", 0, "a count of parry cards")


def _asked_players(_given: Mapping[str, Any], players: int | None) -> Mapping[str, Any]:
    """The player count asked for (--players) as n_players, under the caller's own n_players
    (a clash between the two is `_one_count`'s to refuse)."""
    if players is None:
        return {}
    if not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
        raise ConfigError(f"Maître Ninja is for 2 to 4 players, not {players}: choose 2, 3 or 4 players.")
    return {"n_players": players}


def _one_count(cfg: dict[str, Any], players: int | None) -> None:
    """--players and a config's n_players, when both are given, agree."""
    if players is not None and cfg["n_players"] != players:
        raise ConfigError(
            f"players={players} contradicts config n_players={cfg['n_players']}: give the same count in both."
        )


def _check_supply(cfg: dict[str, Any], _players: int | None) -> None:
    """§5: parry_supply maps exactly DO, BL and JU to counts of 0 or more."""
    raw = cfg["parry_supply"]
    if not isinstance(raw, Mapping) or set(raw) != set(data.PARRY_TYPES):
        raise ConfigError(f"parry_supply must map exactly DO, BL and JU to counts, got {raw!r}: fix its keys.")
    if min(_COUNT.check(raw[t], f"parry_supply.{t}") for t in data.PARRY_TYPES) < 0:
        raise ConfigError(f"parry_supply {raw!r} has a negative count: give counts of 0 or more.")


def _check_parries(cfg: dict[str, Any], _players: int | None) -> None:
    """§5: parries_by_rank gives ranks 1-4 a row length the supply can fill (runs after
    `_check_supply`); rank keys given as text, as JSON spells them, become ints."""
    raw = cfg["parries_by_rank"]
    if not isinstance(raw, Mapping):
        raise ConfigError(f"parries_by_rank must map ranks 1-4 to row lengths, got {raw!r}: give a mapping.")
    try:
        by_rank = {int(k): v for k, v in raw.items()}
    except (TypeError, ValueError):
        raise ConfigError(
            f"parries_by_rank keys must be the ranks 1-4, got {sorted(map(str, raw))}: use 1, 2, 3 and 4."
        ) from None
    if set(by_rank) != {1, 2, 3, 4}:
        raise ConfigError(
            f"parries_by_rank must give ranks 1, 2, 3 and 4, got {sorted(by_rank)}: add the missing ranks."
        )
    supply = sum(cfg["parry_supply"].values())
    for rank in (1, 2, 3, 4):
        m = _COUNT.check(by_rank[rank], f"parries_by_rank.{rank}")
        if not 1 <= m <= supply:
            raise ConfigError(
                f"parries_by_rank[{rank}]={m} does not fit the supply of {supply} parries: "
                "give a length between 1 and the supply."
            )
    cfg["parries_by_rank"] = by_rank


def _check_seats(cfg: dict[str, Any], _players: int | None) -> None:
    """elements, when given, name one different element per seat; first_player is a seat."""
    n, elements, first = cfg["n_players"], cfg["elements"], cfg["first_player"]
    if elements is not None and not (
        isinstance(elements, list | tuple) and all(isinstance(e, str) for e in elements)
        and len(elements) == len(set(elements)) == n and set(elements) <= set(data.ELEMENTS)
    ):
        raise ConfigError(
            f"elements {elements!r} must name {n} different elements from {', '.join(data.ELEMENTS)}: "
            "give one per seat."
        )
    if first is not None and first >= n:  # the declaration refuses a negative seat
        raise ConfigError(f"first_player={first} is not a seat of {n} players: give 0 to {n - 1}.")


OPTIONS = Options("maitre-ninja", (
    Option("n_players", "int", 2, "players (or use --players); must agree with --players", 2, 4),
    Option("first_player", "int", None, "the first attacker's seat; null: a seeded pick (A11)", low=0,
           nullable=True),
    Option("fight_cap", "int", data.FIGHT_CAP, "fights before the referee adjudicates", low=1),
    Option("parries_by_rank", "json", dict(data.PARRIES_BY_RANK), "row length of parries for ranks 1-4 (§5)"),
    Option("parry_supply", "json", dict(data.PARRY_SUPPLY), "parry cards of each type DO, BL, JU (§5)"),
    Option("elements", "json", None, "one element per seat from Air, Terre, Eau, Feu; null: in seat order",
           nullable=True),
), validators=(_one_count, _check_supply, _check_parries, _check_seats), layer=_asked_players)


class MaitreNinja(Game):
    """Be the first to rise from Apprenti to Maître Ninja by winning fights as the attacker."""

    id = "maitre-ninja"
    name = "Maître Ninja"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    options = OPTIONS
    # The seed only picks who starts (A11), which everyone sees before the first decision.
    hidden_information = False
    legend = (
        "key: parries DO = dodge, BL = block, JU = jump · attacks Fi = fist, Fo = foot, Te = Tegaki, "
        "As = Ashiko, Sh = Shuriken, Ku = Kunai, Nu = Nunchaku, Jo = Jo staff, Ni = Ninjato, Ka = "
        "Katana · P1(Terre) = seat 1 and its element · a line played face down shows as 'committed' "
        "until it is revealed"
    )
    codec = "tourney.engine.server.codecs.maitre_ninja:MaitreNinjaCodec"
    viewer_script = "viewer.js"

    def new_state(
        self,
        seed: int,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        inject: Inject | None = None,
    ) -> MaitreNinjaState:
        """A fresh match; the only chance is the first attacker (stream `tiebreak`, or Inject picks)."""
        cfg = self.options.resolve_shared(config, players)  # read only
        n = cfg["n_players"]
        chance = Chance(seed, inject)
        first = chance.pick("tiebreak", n) if cfg["first_player"] is None else cfg["first_player"]  # A11
        parries = (0, *(cfg["parries_by_rank"][rank] for rank in (1, 2, 3, 4)))
        supply = tuple(cfg["parry_supply"][t] for t in data.PARRY_TYPES)
        elements = data.ELEMENTS[:n] if cfg["elements"] is None else tuple(cfg["elements"])
        openings = ((), *(next_parries((), parries[rank], supply) for rank in (1, 2, 3, 4)))
        return MaitreNinjaState(self, Setup(n, first, cfg["fight_cap"], parries, supply, elements, openings), chance)

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        from tourney.engine.games.maitre_ninja.bots import BestResponseBot, NashBot, RegretBot

        return {"nash": NashBot, "best_response": BestResponseBot, "regret": RegretBot}

    def encoding(self) -> Encoding:
        """The observation tensor and fixed action space for training environments (tensor.py)."""
        from tourney.engine.games.maitre_ninja.tensor import ENCODING

        return ENCODING

    def render(self, state: State) -> str:
        from tourney.engine.games.maitre_ninja.render import render

        assert isinstance(state, MaitreNinjaState)
        return render(state)

    def evaluate(self, state: State, seat: int) -> float:
        """Rank lead over the average opponent, scaled to [-1, 1]; exact once the match is over."""
        if state.is_over():
            return 2.0 * state.outcome().points(seat) - 1.0
        assert isinstance(state, MaitreNinjaState)
        ranks = state.ranks
        others = [r for s, r in enumerate(ranks) if s != seat]
        return (ranks[seat] - sum(others) / len(others)) / 4.0
