"""A Maître Ninja match in progress (spec §2): small flat fields, cheap to clone.

In each fight the attacker commits a face-down line while the defender, knowing only the
attacker's rank, lays the first card of its parry row (§3.1 allows the two commitments at once,
since the defender learns nothing from the line); the defender then lays the rest of the row
card by card, seeing only its own cards so far, and nobody else sees them until the row is
complete (§3.1 allows this too: every reachable row and result is the same). The last card
resolves the fight, promotes, and moves to the next fight or the final round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tourney.engine.core import Action, Chance, IllegalAction, Observation, Outcome, State
from tourney.engine.core.game import Game
from tourney.engine.games.maitre_ninja.actions import (
    AttackLine,
    Parry,
    ParryRow,
    attack_line_index,
    attack_lines,
    next_parries,
)
from tourney.engine.games.maitre_ninja.data import (
    ATTACK_LEVELS,
    KATANA,
    KATANA_ORDERS,
    MAITRE,
    PARRY_TYPES,
    line_size,
)
from tourney.engine.games.maitre_ninja.rules import Resolution, codes_of, final_queue, left_of, ranking, resolve

NORMAL, FINAL_ROUND, OVER = "NORMAL", "FINAL_ROUND", "OVER"
HISTORY_SHOWN = 40  # the latest fights a seat's observation carries (observe)


@dataclass(frozen=True, slots=True)
class Setup:
    """The match's fixed settings after config parsing; shared, never mutated, by every clone."""

    n_players: int
    first_player: int
    fight_cap: int
    parries_by_rank: tuple[int, ...]  # index = attacker rank (index 0 unused)
    parry_supply: tuple[int, ...]  # DO, BL, JU
    elements: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FightRecord:
    """One finished fight. `line` is the full face-down line; only its first
    `resolution.revealed` cards were ever shown, and `public` holds just what everyone saw."""

    number: int
    attacker: int
    defender: int
    attacker_rank: int
    line: AttackLine
    row: tuple[str, ...]
    resolution: Resolution
    # The public face once built (see `public`); it follows from the fields above.
    _public: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def face_down(self) -> int:
        """Attack cards that were never flipped (they go back unseen)."""
        return len(self.line.cards) - self.resolution.revealed

    @property
    def public(self) -> dict[str, Any]:
        """What everyone saw of the fight (§7): only the flipped attack cards.

        Built on first read and kept: every observation carries it, but random playouts and
        searches resolve thousands of fights whose public face nobody reads.
        """
        public = self._public
        if public is None:
            public = _public_face(self)
            object.__setattr__(self, "_public", public)  # the record is frozen; this cache is filled once
        return public


def _public_face(rec: FightRecord) -> dict[str, Any]:
    line, res, rank = rec.line, rec.resolution, rec.attacker_rank
    shown = line.cards[: res.revealed]
    return {
        "fight": rec.number,
        "attacker": rec.attacker,
        "defender": rec.defender,
        "attacker_rank": rank,
        "attack": list(shown),
        "ka_order": list(line.ka_order) if KATANA in shown else [],
        "face_down": len(line.cards) - res.revealed,
        "row": list(rec.row),
        "burned": list(res.burned),
        "parried": [[i, c.parried_at] for i, c in enumerate(res.cards) if c.parried_at is not None],
        "unused": list(res.unused),
        "winner": "attacker" if res.attacker_wins else "defender",
        "new_rank": rank + 1 if res.attacker_wins else rank,
    }


class MaitreNinjaState(State):
    """Ranks, attack counts, whose fight it is, the final-round queue and the fight history."""

    __slots__ = (
        "game",
        "num_players",
        "setup",
        "chance",
        "ranks",
        "attacks_made",
        "attacker",
        "defender",
        "fights",
        "phase",
        "first_master",
        "queue",
        "history",
        "pending",
        "laid",
        "row_len",
        "offered",
    )

    def __init__(self, game: Game, setup: Setup, chance: Chance) -> None:
        self.game = game
        self.num_players = setup.n_players
        self.setup = setup
        self.chance = chance
        self.ranks = [1] * setup.n_players
        self.attacks_made = [0] * setup.n_players
        self.attacker = setup.first_player
        self.defender = left_of(setup.first_player, setup.n_players)
        self.fights = 0  # fights already resolved
        self.phase = NORMAL
        self.first_master: int | None = None
        self.queue: list[int] = []  # last-chance attackers still to fight (after the current one)
        self.history: list[FightRecord] = []
        self.pending: AttackLine | None = None  # the current fight's line, once committed
        self.laid: tuple[str, ...] = ()  # the defender's row so far
        # Set when a fight's line is committed, for the rest of its row: the row's length and the
        # parries the defender may lay next (so a mid-row step need not work them out again).
        self.row_len = 0
        self.offered: tuple[Parry, ...] = ()

    # --- whose decision, and what may they do ---------------------------------------------

    def to_act(self) -> Sequence[int]:
        """Attacker and defender commit at once, then the defender alone lays the rest of its row."""
        if self.pending is not None:
            return [self.defender]
        if self.phase == OVER:
            return []
        return [self.attacker, self.defender]

    def attacker_rank(self) -> int:
        """The rank of the current attacker, which sets the line length and the row length."""
        return self.ranks[self.attacker]

    def row_length(self) -> int:
        """How many parries the defender lays against the current attacker (A20)."""
        return self.setup.parries_by_rank[self.attacker_rank()]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every line for the attacker (once per fight), the possible next parries for the defender."""
        if self.phase == OVER:
            return ()
        if seat == self.attacker and self.pending is None:
            return attack_lines(self.attacker_rank())
        if seat == self.defender:
            if self.pending is not None:
                return self.offered
            return next_parries((), self.row_length(), self.setup.parry_supply)
        return ()

    # --- one fight ------------------------------------------------------------------------

    def apply(self, actions: Mapping[int, Action]) -> None:
        """Take the line and the next parry; the row's last parry resolves the fight (§3.1 F3-F5, §4)."""
        if self.pending is None:
            self._open_fight(actions)
            return
        # Mid-row, the defender alone lays its next parry: most steps of a match are this one,
        # so it checks only what can differ from the previous step.
        if len(actions) != 1 or self.defender not in actions:
            raise self._wrong_seats(actions)
        parry = actions[self.defender]
        if not isinstance(parry, Parry) or parry not in self.offered:
            raise self._bad_parry(parry, self.row_len)
        self._lay(parry)

    def _open_fight(self, actions: Mapping[int, Action]) -> None:
        """The fight's first step: the attacker's line and the defender's first parry, together."""
        if self.phase == OVER:
            raise IllegalAction("the match is over: no more actions can be applied.")
        if set(actions) != {self.attacker, self.defender}:
            raise self._wrong_seats(actions)
        length = self.row_length()
        offered = next_parries((), length, self.setup.parry_supply)
        parry = actions[self.defender]
        if not isinstance(parry, Parry) or parry not in offered:
            raise self._bad_parry(parry, length)
        line = actions[self.attacker]
        rank = self.attacker_rank()
        if not isinstance(line, AttackLine) or line not in attack_line_index(rank):
            raise IllegalAction(f"seat {self.attacker} sent {line!r}, which is not a rank-{rank} attack line.")
        self.pending, self.row_len, self.offered = line, length, offered
        self._lay(parry)

    def _wrong_seats(self, actions: Mapping[int, Action]) -> IllegalAction:
        seats = self.to_act()
        return IllegalAction(f"this step needs exactly one action from seats {list(seats)}, "
                             f"got seats {sorted(actions)}.")

    def _bad_parry(self, parry: Action, length: int) -> IllegalAction:
        return IllegalAction(
            f"seat {self.defender} sent {parry!r}, which cannot follow {list(self.laid)} in a row of "
            f"{length} parries within the supply {dict(zip(PARRY_TYPES, self.setup.parry_supply, strict=True))}."
        )

    def _lay(self, parry: Parry) -> None:
        """Put down the defender's next (checked) parry; the row's last one resolves the fight."""
        laid = self.laid = self.laid + (parry.parry,)
        supply = self.setup.parry_supply
        if len(laid) == self.row_len:
            line, row = self.pending, ParryRow(laid)
            assert line is not None
            self.pending, self.laid, self.offered = None, (), ()
            self.fight(line, row)
        elif laid.count(parry.parry) == supply[PARRY_TYPES.index(parry.parry)]:
            # What may follow changes only when a pile runs out: next_parries's other condition,
            # room left to finish the row, is the same all along a row (each parry laid takes one
            # card from the row and one from the supply).
            self.offered = next_parries(laid, self.row_len, supply)

    def fight(self, line: AttackLine, row: ParryRow) -> Resolution:
        """Resolve one fight (already validated), record it, promote, and set up the next one."""
        att, dfn = self.attacker, self.defender
        rank = self.ranks[att]
        res = resolve(codes_of(line), row.row)
        self.fights += 1
        self.history.append(FightRecord(self.fights, att, dfn, rank, line, row.row, res))
        if res.attacker_wins:
            self.ranks[att] = rank + 1
        self.attacks_made[att] += 1
        self._advance()
        return res

    def _advance(self) -> None:
        """Who attacks whom next (§3.1 F5), the final-round trigger (§4.1) and the cap (§4.4)."""
        n = self.num_players
        att = self.attacker
        if self.phase == NORMAL and self.ranks[att] == MAITRE:
            self.first_master = att
            self.queue = final_queue(att, self.ranks, self.attacks_made)
            self.phase = FINAL_ROUND
        if self.phase == FINAL_ROUND:
            if not self.queue:
                self.phase = OVER
                return
            self.attacker = self.queue.pop(0)
            self.defender = left_of(self.attacker, n)
            return
        if self.fights >= self.setup.fight_cap:
            self.phase = OVER
            return
        self.attacker = self.defender
        self.defender = left_of(self.attacker, n)

    # --- what each seat knows ---------------------------------------------------------------

    def public_view(self) -> Observation:
        """Ranks, counts, whose fight it is and every fight's public face; no unflipped card."""
        over = self.phase == OVER
        return {
            "game": "maitre-ninja",
            "n_players": self.num_players,
            "elements": list(self.setup.elements),
            "ranks": list(self.ranks),
            "attacks_made": list(self.attacks_made),
            "phase": self.phase,
            "fight_number": self.fights + (0 if over else 1),
            "attacker": None if over else self.attacker,
            "defender": None if over else self.defender,
            "attacker_rank": None if over else self.attacker_rank(),
            "parries": None if over else self.row_length(),
            "parry_supply": dict(zip(PARRY_TYPES, self.setup.parry_supply, strict=True)),
            "fight_cap": self.setup.fight_cap,
            "first_master": self.first_master,
            "final_queue": list(self.queue),
            "history": [rec.public for rec in self.history],
        }

    def observe(self, seat: int) -> Observation:
        """The public view, with only the latest HISTORY_SHOWN fights (each names its fight number,
        and a bot may keep the earlier ones), plus this seat's role and its own never-flipped cards.
        The window keeps every request small up to the fight cap."""
        obs = self.public_view()
        obs["history"] = obs["history"][-HISTORY_SHOWN:]
        obs["seat"] = seat
        if self.phase == OVER:
            obs["role"] = "none"
        elif seat == self.attacker:
            obs["role"] = "attacker"
        elif seat == self.defender:
            obs["role"] = "defender"
        else:
            obs["role"] = "watcher"
        if seat == self.defender and self.phase != OVER:
            obs["row_so_far"] = list(self.laid)  # the defender's own cards, unseen by anyone else yet
        obs["my_hidden"] = [
            {"fight": rec.number, "line": list(rec.line.cards), "ka_order": list(rec.line.ka_order)}
            for rec in self.history
            if rec.attacker == seat and rec.face_down
        ]
        return obs

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome:
        """Every Maître shares first place; the rest (or everyone, at the cap) are tiered by rank."""
        if self.phase != OVER:
            raise ValueError("the match is not over yet")
        masters = [s for s, r in enumerate(self.ranks) if r == MAITRE]
        return Outcome(
            ranking=ranking(self.ranks),
            scores=tuple(float(r) for r in self.ranks),
            reason="maitre" if masters else "cap",
            details={
                "first_master": self.first_master,
                "masters": masters,
                "fights": self.fights,
                "attacks_made": list(self.attacks_made),
            },
        )

    # --- copies for search ------------------------------------------------------------------

    def clone(self) -> MaitreNinjaState:
        twin = MaitreNinjaState.__new__(MaitreNinjaState)
        twin.game = self.game
        twin.num_players = self.num_players
        twin.setup = self.setup
        twin.chance = self.chance.clone()
        twin.ranks = list(self.ranks)
        twin.attacks_made = list(self.attacks_made)
        twin.attacker = self.attacker
        twin.defender = self.defender
        twin.fights = self.fights
        twin.phase = self.phase
        twin.first_master = self.first_master
        twin.queue = list(self.queue)
        twin.history = list(self.history)  # records are immutable, so sharing them is safe
        twin.pending = self.pending
        twin.laid = self.laid
        twin.row_len = self.row_len
        twin.offered = self.offered
        return twin

    def determinize(self, seat: int, rng: random.Random) -> MaitreNinjaState:
        """A clone whose hidden parts, as `seat` sees them, are redrawn at random: other players'
        never-flipped attack cards, the current fight's committed line (unless `seat` laid it)
        and the defender's row so far (unless `seat` is the defender). The game has no chance
        after setup.
        """
        twin = self.clone()
        twin.chance.reseed(rng.getrandbits(63))
        if twin.pending is not None and seat != twin.attacker:
            twin.pending = rng.choice(attack_lines(twin.attacker_rank()))
        if twin.laid and seat != twin.defender:
            laid: tuple[str, ...] = ()
            while len(laid) < len(twin.laid):
                laid += (rng.choice(next_parries(laid, twin.row_length(), twin.setup.parry_supply)).parry,)
            twin.laid = laid
            twin.offered = next_parries(laid, twin.row_len, twin.setup.parry_supply)
        for k, rec in enumerate(twin.history):
            if rec.attacker == seat or not rec.face_down:
                continue
            shown = rec.resolution.revealed
            cards = list(rec.line.cards[:shown])
            for level in range(shown, line_size(rec.attacker_rank)):
                cards.append(rng.choice(ATTACK_LEVELS[level]))
            order = rec.line.ka_order if KATANA in cards[:shown] else ()
            if KATANA in cards and not order:
                order = rng.choice(KATANA_ORDERS)
            line = AttackLine(tuple(cards), order)
            # Only never-flipped cards were redrawn, so the public face (if built) is shared.
            twin.history[k] = FightRecord(
                rec.number, rec.attacker, rec.defender, rec.attacker_rank, line, rec.row, rec.resolution, rec._public
            )
        return twin
