"""The match state: small flat per-seat lists, cheap to clone (§2)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from tourney.engine.core import Action, Chance, Game, Observation, Outcome, State, json_ready
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena import rules
from tourney.engine.games.ninja_arena.actions import KEEP, SWITCH, Switch

# The dice stream of each seat (§5.7), by table size.
_DICE_STREAMS: Final = {n: tuple(f"dice/{p}" for p in range(n)) for n in range(1, D.MAX_PLAYERS_GENIN + 1)}
# What a view writes for a character and for a face, by index.
NAMES: Final = tuple(c.name for c in D.CHARACTERS)
_LETTERS: Final = tuple(D.SYMBOL_LETTER[s] for s in range(D.W + 1))
# By the five faces packed three bits each (as rules.faces_tuple packs them): a list indexed directly
# costs a view less than a dict lookup on an int.
_DICE_TEXT: Final[list[str | None]] = [None] * (1 << 15)


def dice_text(dice: list[int], base: int) -> str:
    """Five dice as letters ('.' for BLANK), as `data.letters` writes them; remembered per faces."""
    key = rules.faces_key(dice, base)
    got = _DICE_TEXT[key]
    if got is None:
        got = _DICE_TEXT[key] = "".join(_LETTERS[d] for d in dice[base : base + 5])
    return got


def _as_json(value: Any) -> Any:
    """`json_ready(value)`, with the events' tuples of ints and strings turned into lists here."""
    if isinstance(value, tuple):
        return [_as_json(v) for v in value]
    return value if isinstance(value, (int, str)) else json_ready(value)  # a tuple: no union object per call


def _event_json(event: tuple[Any, ...]) -> list[Any]:
    """One event as `json_ready` makes it: its ints and strings as they are, a tuple inside (dice,
    an order of seats) as a list."""
    out = list(event)
    for i in range(len(out)):
        x = out[i]
        kind = type(x)
        if kind is int or kind is str:  # nearly every item: two pointer tests before isinstance's walk
            continue
        if kind is tuple or not isinstance(x, (int, str)):  # a tuple of types: no union object per call
            out[i] = _as_json(x)
    return out


# A seat's entry in the view, every key in its place and holding what most seats show (no Duel
# bottom board, FRONT side): each view copies it and sets the rest, which costs less than a dict
# built key by key (a copy takes the finished key table whole).
_PLAYER_ENTRY: Final[dict[str, Any]] = {
    "seat": 0, "character": "", "bottom": None, "side": "FRONT", "cube": 0, "cube_bottom": None, "recovered": False,
    "eliminated": False, "pool": 0, "power_active": False, "dice": "", "stitched_until": 0, "byakugan_left": 0,
    "fan": 0, "gate_tokens": 0, "sand_shield": 0, "out_time": 0,
}


class ArenaState(State):
    """A Ninja Arena match in tick mode. Everything is public (§2)."""

    def __init__(self, game: Game, chance: Chance, characters: Sequence[int], duel: bool, tick_cap: int,
                 twin_of: ArenaState | None = None) -> None:
        """A new match with `characters` seated (two a seat in a Duel: TOP, BOTTOM), or, given
        `twin_of`, a copy of that state's fields (`clone`: each list made once, not made and then
        replaced)."""
        src = twin_of
        self.game = game
        self.chance = chance
        self.duel = duel
        n: int = src.n if src is not None else len(characters) // 2 if duel else len(characters)
        self.n: int = n
        self.num_players = n
        self.top: list[int]
        self.bottom: list[int]
        if src is not None:
            self.top, self.bottom = list(src.top), list(src.bottom)
        elif duel:
            self.top = [characters[2 * p] for p in range(n)]
            self.bottom = [characters[2 * p + 1] for p in range(n)]
        else:
            self.top = list(characters)
            self.bottom = [-1] * n
        self.ko: list[bool] = list(src.ko) if src is not None else [False] * n
        self.cube: list[int] = list(src.cube) if src is not None else [0] * n
        self.cube_b: list[int] = list(src.cube_b) if src is not None else [0] * n
        self.recovered: list[bool] = list(src.recovered) if src is not None else [False] * n
        self.eliminated: list[bool] = list(src.eliminated) if src is not None else [False] * n
        # The seats not eliminated, ascending (rules.eliminate keeps it): every tick asks for them.
        self.live: tuple[int, ...] = src.live if src is not None else tuple(range(n))
        self.pool: list[int] = list(src.pool) if src is not None else [0] * n
        self.power: list[bool] = list(src.power) if src is not None else [False] * n
        self.dice: list[int] = list(src.dice) if src is not None else [D.BLANK] * (5 * n)
        self.stitched: list[int] = list(src.stitched) if src is not None else [0] * n
        self.byakugan: list[int] = list(src.byakugan) if src is not None else [0] * n
        self.fan: list[int] = list(src.fan) if src is not None else [0] * n
        self.gate: list[int] = list(src.gate) if src is not None else [0] * n
        self.shield: list[int] = list(src.shield) if src is not None else [0] * n
        self.out_time: list[int] = list(src.out_time) if src is not None else [0] * n
        self.t: int = src.t if src is not None else 1
        self.tick_cap = tick_cap
        # The real-time driver counts milliseconds instead.
        self.stitch_span: int = src.stitch_span if src is not None else D.STITCH_TICKS
        self.shadow_on: bool = src.shadow_on if src is not None else False
        self.pending_switch: int = src.pending_switch if src is not None else -1
        self.over: bool = src.over if src is not None else False
        self.reason: str = src.reason if src is not None else ""
        self.events: list[tuple[Any, ...]] = list(src.events) if src is not None else []
        self.dice_streams = _DICE_STREAMS[n]
        # Each seat's legal list, kept while `_legal_at[seat]` equals `_moves` (bumped by every
        # change the rules make): a view and a bot ask for the same list again within a decision.
        self._moves = 0
        self._legal_at = [-1] * n
        self._legal: list[Sequence[Action]] = [()] * n

    # --- the State interface -------------------------------------------------------------

    def to_act(self) -> Sequence[int]:
        """Every live seat acts each tick; in a Duel pause only the SWITCH/KEEP decider."""
        if self.over:
            return []
        if self.pending_switch >= 0:
            return (self.pending_switch,)
        return self.live

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The small legal list of §5.1 (or KEEP / SWITCH in a Duel pause)."""
        if self.over:
            return []
        if self.pending_switch >= 0:
            return [KEEP, SWITCH] if seat == self.pending_switch else []
        if self.eliminated[seat]:
            return []
        if self._legal_at[seat] == self._moves:
            return self._legal[seat]
        got = self._legal[seat] = rules.legal_actions(self, seat)
        self._legal_at[seat] = self._moves
        return got

    def forget_legal(self) -> None:
        """Drop the remembered legal lists (the real-time driver changes the state between ticks)."""
        self._moves += 1

    def apply(self, actions: Mapping[int, Action]) -> None:
        """Resolve one tick (illegal or malformed actions are Mistakes), or the Duel decision."""
        if self.over:
            return
        self._moves += 1
        if self.pending_switch >= 0:
            p = self.pending_switch
            self.pending_switch = -1
            self.events = []
            a = actions.get(p, KEEP)
            # A timeout means KEEP (§8.1); anything but a SWITCH keeps the boards too.
            if isinstance(a, Switch) and a.switch:
                rules.switch_boards(self, p)
            else:
                self.events.append(("keep", p))
            return
        # An Illegal (or any action that fails validation) becomes a Mistake inside the tick.
        rules.resolve_tick(self, actions)

    def observe(self, seat: int) -> Observation:
        """Everything is public; the seat also gets its legal summary (§5.1)."""
        view = self.public_view()
        view["seat"] = seat
        if not self.over and not self.eliminated[seat]:
            view["summary"] = {
                "satisfiable": rules.satisfiable(self, seat),
                "hit_is_claim": bool(rules.claim_kind(self, seat)),
                "roll_blocked": self.t <= self.stitched[seat],
                "dice_masks": list(rules.masks(self, seat)),
            }
        return view

    def public_view(self) -> Observation:
        """The whole table: boards, dice, pools, tiles, tokens, and the last tick's events."""
        players = []
        for p in range(self.n):
            entry = _PLAYER_ENTRY.copy()
            entry["seat"] = p
            entry["character"] = NAMES[self.top[p]]
            if self.bottom[p] >= 0:
                entry["bottom"] = NAMES[self.bottom[p]]
            if self.ko[p]:
                entry["side"] = "KO"
            entry["cube"] = self.cube[p]
            if self.duel:
                entry["cube_bottom"] = self.cube_b[p]
            entry["recovered"] = self.recovered[p]
            entry["eliminated"] = self.eliminated[p]
            entry["pool"] = self.pool[p]
            entry["power_active"] = self.power[p]
            entry["dice"] = dice_text(self.dice, 5 * p)
            entry["stitched_until"] = self.stitched[p]
            entry["byakugan_left"] = self.byakugan[p]
            entry["fan"] = self.fan[p]
            entry["gate_tokens"] = self.gate[p]
            entry["sand_shield"] = self.shield[p]
            entry["out_time"] = self.out_time[p]
            players.append(entry)
        return {
            "game": "ninja-arena",
            "mode": "duel" if self.duel else "standard",
            "tick": self.t,
            "tick_cap": self.tick_cap,
            "shadow_token": "on_uzumaki" if self.shadow_on else "with_shikamaru",
            "pending_switch": self.pending_switch,
            "players": players,
            "last_events": [_event_json(e) for e in self.events],
            "over": self.over,
        }

    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome:
        """Ranking of §7 (tiers), remaining wound steps as scores."""
        if not self.over:
            raise ValueError("the match is not over yet")
        return Outcome(
            ranking=rules.ranking(self),
            scores=tuple(float(rules.remaining_steps(self, p)) for p in range(self.n)),
            reason=self.reason,
            details={"ticks": self.t - 1, "characters": [D.CHARACTERS[c].name for c in self.top]},
        )

    def clone(self) -> ArenaState:
        """An independent copy, chance streams included (through `__init__`'s twin_of: the compiled
        class has no __dict__, and its __new__ runs __init__)."""
        return ArenaState(self.game, self.chance.clone(), (), self.duel, self.tick_cap, twin_of=self)

    def determinize(self, seat: int, rng: random.Random) -> ArenaState:
        """Perfect information: a clone whose future dice and shuffles are drawn afresh."""
        twin = self.clone()
        twin.chance.reseed(rng.getrandbits(63))
        return twin

