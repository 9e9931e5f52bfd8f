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
from dataclasses import dataclass

from tourney.engine.core import Action, Chance, Observation, Outcome, State, view_delta
from tourney.engine.core.game import Game
from tourney.engine.games.maitre_ninja.actions import (
    AttackLine,
    Parry,
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
from tourney.engine.games.maitre_ninja.rules import LINES_BY_RANK, NORMAL, OVER, FightRecord, left_of, ranking, step

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
    # The parries a defender may lay first, by attacker rank (index 0 unused): asked for every fight.
    openings: tuple[tuple[Parry, ...], ...] = ()


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
        if self.pending is not None:  # mid-row, most steps of a match (never once it is over)
            return self.offered if seat == self.defender else ()
        if self.phase == OVER:
            return ()
        if seat == self.attacker:
            return LINES_BY_RANK[self.attacker_rank()]
        if seat == self.defender:
            return self.setup.openings[self.attacker_rank()]
        return ()

    # --- one step (the rules, in order of play, are in rules.py) ----------------------------

    def apply(self, actions: Mapping[int, Action]) -> None:
        """Take the line and the next parry; the row's last parry resolves the fight (§3.1 F3-F5, §4)."""
        step(self, actions)

    # --- what each seat knows ---------------------------------------------------------------

    def public_view(self) -> Observation:
        """Ranks, counts, whose fight it is and every fight's public face; no unflipped card."""
        return self._shown(self.history)

    def _shown(self, fights: list[FightRecord]) -> Observation:
        """What everyone sees, with the public faces of `fights` only."""
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
            "parry_supply": self._supply(),
            "fight_cap": self.setup.fight_cap,
            "first_master": self.first_master,
            "final_queue": list(self.queue),
            "history": [rec.public for rec in fights],
        }

    def _supply(self) -> dict[str, int]:
        """Each parry type's count (the setup has one per type), without zip's call from the compiled build."""
        counts = self.setup.parry_supply
        out: dict[str, int] = {}
        for k in range(len(PARRY_TYPES)):
            out[PARRY_TYPES[k]] = counts[k]
        return out

    def observe(self, seat: int) -> Observation:
        """The public view, with only the latest HISTORY_SHOWN fights (each names its fight number,
        and a bot may keep the earlier ones), plus this seat's role and its own never-flipped cards.
        The window keeps every request small up to the fight cap."""
        return self._seat_view(self._shown(self.history[-HISTORY_SHOWN:]), seat)  # only the faces shown are built

    def observe_since(self, seat: int, mark: int) -> tuple[Observation, int]:
        """`observe(seat)` whose `history` holds only the fights added since `mark` (a finished fight's face
        never changes), with its `view_delta`; and the mark to pass next (how many fights there were)."""
        fights = self.history
        first = max(0, len(fights) - HISTORY_SHOWN)
        at = max(first, mark if mark <= len(fights) else 0)
        obs = self._seat_view(self._shown(fights[at:]), seat)
        obs["view_delta"] = view_delta("history", at, first)
        return obs, len(fights)

    def _seat_view(self, obs: Observation, seat: int) -> Observation:
        """The public view `obs` with what `seat` adds to it: its seat, role and own never-flipped cards."""
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
        # Through __init__ (cheap here): a compiled class's __new__ runs it anyway.
        twin = MaitreNinjaState(self.game, self.setup, self.chance.clone())
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
            # Only never-flipped cards were redrawn, so the public face is shared.
            twin.history[k] = FightRecord(
                rec.number, rec.attacker, rec.defender, rec.attacker_rank, line, rec.row, rec.resolution, rec.public
            )
        return twin
