"""The Ninja Arena Game: configuration (§1.2, §8), setup, evaluation and rendering."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tourney.engine.core import Chance, CliFlag, ConfigError, Game, Inject, Option, Options, State
from tourney.engine.core.encoding import Encoding
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.render import render
from tourney.engine.games.ninja_arena.state import ArenaState

MODES = ("standard", "tick", "duel", "realtime")


def character_id(name: str) -> int:
    """A character's index from its name ('Rock Lee', 'rocklee' and 'RockLee' all work)."""
    key = name.replace(" ", "").replace("_", "").lower()
    for i, c in enumerate(D.CHARACTERS):
        if c.name.lower() == key:
            return i
    known = ", ".join(c.name for c in D.CHARACTERS)
    raise ConfigError(f"unknown Ninja Arena character '{name}': choose from {known}.")


def is_duel(cfg: Mapping[str, Any]) -> bool:
    """Duel rules (§8): the duel mode or the duel flag."""
    return bool(cfg["mode"] == "duel" or cfg["duel"])


def seat_count(cfg: Mapping[str, Any], players: int | None) -> int:
    """The players of a match: as asked, else as many as the characters fill, else 2 (Duel) or 4."""
    if players is not None:
        return players
    chars = cfg["characters"]
    per_player = 2 if is_duel(cfg) else 1
    return len(chars) // per_player if chars else (2 if is_duel(cfg) else 4)


def check_seats(cfg: dict[str, Any], players: int | None) -> None:
    """The player count against Duel and the Genin Pack, and the characters (names, or
    comma-separated text) one per board, all different, from the roster in play; the names
    become character indices (None when none are given: they are drawn)."""
    names = cfg["characters"]
    if isinstance(names, str):
        names = [x for x in names.split(",") if x.strip()]
    if names is not None and not (isinstance(names, list | tuple) and all(isinstance(x, str) for x in names)):
        raise ConfigError(f"config 'characters' is {names!r}: give a list of names or comma-separated text.")
    chars = [character_id(x) for x in names] if names else None
    cfg["characters"] = chars
    duel, genin = is_duel(cfg), cfg["genin_pack"]
    n = seat_count(cfg, players)
    if duel and n != 2:
        raise ConfigError(f"Duel mode is for exactly 2 players, not {n}: drop --mode duel or use 2 players.")
    limit = D.MAX_PLAYERS_GENIN if genin else D.MAX_PLAYERS_CORE
    if not 2 <= n <= limit:
        fix = "seat fewer players" if genin else f"enable genin_pack for up to {D.MAX_PLAYERS_GENIN}"
        raise ConfigError(f"Ninja Arena needs 2 to {limit} players, not {n}: {fix}.")
    if chars is None:
        return
    need = n * (2 if duel else 1)
    if len(chars) != need:
        raise ConfigError(f"characters lists {len(chars)} names but {need} are needed: give one per board.")
    if len(set(chars)) != len(chars):
        raise ConfigError("characters must all be different: each character has one board.")
    if not genin and any(c not in D.CORE_ROSTER for c in chars):
        raise ConfigError("an expansion character needs genin_pack=true: enable it or pick from the core 4.")


OPTIONS = Options("Ninja Arena", (
    Option("mode", "str", "standard", "standard or tick (one tick model), duel (§8), realtime (wall clock)",
           choices=MODES),
    Option("genin_pack", "bool", False, "add the six Genin Pack characters (up to 6 players)"),
    Option("characters", "json", None, "characters by seat, a list or comma-separated text; null: drawn",
           nullable=True),
    Option("tick_cap", "int", D.DEFAULT_TICK_CAP, "ticks before the referee adjudicates", low=1),
    Option("duel", "bool", False, "Duel rules (§8): two characters per player, 2 players"),
    Option("min_action_interval_ms", "int", 250, "realtime: least time between one seat's actions", low=0),
    Option("reaction_timeout_ms", "int", 5000, "realtime: time to answer a reaction window", low=1),
    Option("grace_ms", "int", 100, "realtime: lateness forgiven on an action", low=0),
    Option("wall_clock_cap_s", "float", 1200, "realtime: seconds before the match is adjudicated", low=1),
), validators=(check_seats,))


class NinjaArena(Game):
    """Naruto: Ninja Arena (+ Genin Pack, Duel) in the deterministic tick model."""

    id = "ninja-arena"
    name = "Naruto: Ninja Arena"
    min_players = 2
    max_players = 6
    modes = ("standard", "duel", "realtime")
    handles_illegal_actions = True
    hidden_information = True  # each seat's dice stream decides rolls still to come
    options = OPTIONS
    legend = (
        "key: dice faces K = kunai, S = shuriken, R = scroll, H = seal, F = fist, L = leaf, W = "
        "spiral (wild), . = blank · wound 0/4 = wounds taken / the track's length · pool = dice in "
        "the pool · simultaneous choices show as 'committed', their effects in the position below"
    )
    cli_flags = (
        CliFlag("genin_pack", "add the six Genin Pack characters (up to 6 players).", switch=True),
        CliFlag("characters", "characters by seat, e.g. Naruto,Sasuke (Duel: four, top and bottom per seat)."),
    )
    # One ismcts match takes minutes and loses to greedy; tactician beats both in seconds.
    default_bots = ("random", "greedy", "tactician")
    codec = "tourney.engine.server.codecs.ninja_arena:NinjaArenaCodec"
    viewer_script = "viewer.js"

    def new_state(
        self,
        seed: int,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        inject: Inject | None = None,
    ) -> ArenaState:
        """A fresh match; characters from config or drawn from the `setup` stream."""
        cfg = self.options.resolve(config, players)
        duel = is_duel(cfg)
        need = seat_count(cfg, players) * (2 if duel else 1)
        chance = Chance(seed, inject)
        chars = cfg["characters"]
        if chars is None:
            pool = list(D.GENIN_ROSTER if cfg["genin_pack"] else D.CORE_ROSTER)
            for i in range(len(pool) - 1, 0, -1):  # seeded Fisher-Yates on the `setup` stream
                j = chance.below("setup", i + 1)
                pool[i], pool[j] = pool[j], pool[i]
            chars = pool[:need]
        return ArenaState(self, chance, chars, duel, cfg["tick_cap"])

    def realtime_driver(self) -> type[Any]:
        """`RealtimeDriver` (realtime.py): the same state on a wall clock (§6)."""
        from tourney.engine.games.ninja_arena.realtime import RealtimeDriver

        return RealtimeDriver

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """`greedy` and `tactician` (heuristics) and `duct`, the simultaneous-move search bot."""
        from tourney.engine.games.ninja_arena.bots import DuctArenaBot, GreedyArenaBot, TacticianBot

        return {"greedy": GreedyArenaBot, "tactician": TacticianBot, "duct": DuctArenaBot}

    def evaluate(self, state: State, seat: int) -> float:
        """Own health (tokens still absorbable, a spare life before recovering, a Power) against
        the mean of the opponents', squashed into [-1, 1]."""
        assert isinstance(state, ArenaState)
        if state.over:
            return 2.0 * state.outcome().points(seat) - 1.0
        mine = health(state, seat)
        others = [health(state, q) for q in range(state.n) if q != seat]
        diff = mine - sum(others) / len(others)
        return max(-0.99, min(0.99, diff / 40.0))

    def encoding(self) -> Encoding:
        """The observation tensor and fixed action space for training environments (tensor.py)."""
        from tourney.engine.games.ninja_arena.tensor import ENCODING

        return ENCODING

    def render(self, state: State) -> str:
        """One line per seat plus the last tick's events."""
        assert isinstance(state, ArenaState)
        return render(state)


def health(st: ArenaState, p: int) -> float:
    """Roughly how many more tokens p can take before leaving the game."""
    if st.eliminated[p]:
        return 0.0
    if st.ko[p]:
        return 3.0
    track = D.CHARACTERS[st.top[p]].track
    h = float(sum(track[st.cube[p]:]) - st.pool[p])
    if st.duel:
        h += sum(D.CHARACTERS[st.bottom[p]].track[st.cube_b[p]:])
    elif not st.recovered[p]:
        h += track[-1]  # the spare life a recovery gives
    if st.power[p]:
        h += 4.0
    return h
