"""The Game / State interface every game implements (modelled on OpenSpiel).

A State is a full, mutable position of one match. Seats are 0..n-1. `to_act()` lists the
seats that must decide now; more than one seat means a simultaneous decision, and
`apply` then takes one action per listed seat. Observations are JSON-ready dicts holding
only what that seat may know; `determinize` fills in the rest at random, for search bots.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from tourney.engine.core.chance import Inject
from tourney.engine.core.options import CliFlag, Options

if TYPE_CHECKING:
    from tourney.engine.core.encoding import Encoding

Observation = dict[str, Any]


class Action:
    """Base of every game's actions: small frozen dataclasses with a short human label.

    A secret action (a face-down commitment) is named only to its own seat: a play-by-play
    shows that the seat acted, not what it chose.
    """

    __slots__ = ()
    secret: ClassVar[bool] = False

    @property
    def label(self) -> str:
        return repr(self)


@dataclass(frozen=True, slots=True)
class Illegal(Action):
    """What a seat sent when it was not a legal action; only games that handle illegal actions see it."""

    raw: str = ""

    @property
    def label(self) -> str:
        return f"illegal({self.raw})"


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended.

    ranking: tiers of seats, best first; a draw between everyone is a single tier.
    scores: one number per seat (health, points, ...) as the game defines it.
    reason: why it ended, e.g. "elimination", "points", "cap", "cards_exhausted".
    details: game-specific extras (a Champion series' battles, achievements' stats, ...).
    """

    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[float, ...]
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def tier_of(self, seat: int) -> int:
        """The 0-based tier of `seat` (0 = first place, shared with everyone in the tier)."""
        for i, tier in enumerate(self.ranking):
            if seat in tier:
                return i
        raise ValueError(f"seat {seat} is not ranked")

    def points(self, seat: int) -> float:
        """Match points in [0, 1]: 1 for a sole winner, 0 for last, shared evenly within a tier.

        For two players this is the usual 1 / 0.5 / 0. For more, a seat scores the share of
        opponents it beat, counting each opponent in its own tier as half a win.
        """
        n = sum(len(t) for t in self.ranking)
        if n < 2:
            return 1.0
        above = 0
        for tier in self.ranking:
            if seat in tier:
                same = len(tier) - 1
                below = n - above - len(tier)
                return (below + 0.5 * same) / (n - 1)
            above += len(tier)
        raise ValueError(f"seat {seat} is not ranked")


class State(ABC):
    """One match in progress."""

    game: Game
    num_players: int

    @abstractmethod
    def to_act(self) -> Sequence[int]:
        """Seats that must choose an action now (empty when the match is over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The legal actions of `seat`, in a stable order, so an index identifies an action."""

    @abstractmethod
    def apply(self, actions: Mapping[int, Action]) -> None:
        """Apply one action for every seat in `to_act()`, then resolve chance and effects."""

    @abstractmethod
    def observe(self, seat: int) -> Observation:
        """What `seat` may know right now: its private view plus the public record."""

    def observe_since(self, seat: int, mark: int) -> tuple[Observation, int]:
        """`observe(seat)` with only what its log gained since `mark` (0 at first, then the mark the last
        call returned), and the next mark (Hello.view_delta). A game whose view carries a log may override
        it: one list of the view then holds only its items from number `at` on, and the view ends with
        `view_delta` (`view_delta(...)`) saying which. This default is the whole view, the mark unchanged."""
        return self.observe(seat), mark

    @abstractmethod
    def public_view(self) -> Observation:
        """What a spectator may know: no seat's hidden information."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the match has ended."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result; only valid when `is_over()`."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (chance streams included)."""

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with what `seat` observes, hidden parts and future chance
        resampled with `rng`. Perfect-information games return a clone with fresh chance."""

    def apply_one(self, seat: int, action: Action) -> None:
        """Shorthand for a sequential decision."""
        self.apply({seat: action})


class Game(ABC):
    """A game's fixed facts and its state factory. One instance per game, in the registry."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    modes: ClassVar[tuple[str, ...]] = ("standard",)
    # True when an illegal action is a rule event the game resolves itself (Ninja Arena's
    # Mistake) rather than a fault the referee punishes with a forfeit.
    handles_illegal_actions: ClassVar[bool] = False
    # True when the seed decides something a seat cannot see when it decides: another seat's
    # cards, or dice still to be rolled. A seat that remembers one game of a duplicate pair (the
    # same seed, seats swapped) then knows them in the other, so the tournament layer gives such
    # seats independent deals instead (tourney.tournament.entrants.remembers).
    hidden_information: ClassVar[bool] = False
    # True when observe() builds every container of a view afresh (nothing shared with the state or
    # another view) in JSON's own shapes (lists, str keys): a caller may then keep and change it as it
    # is, and the training environments skip the JSON copy that keeps other games' shared parts safe
    # (tests/envs/test_view_is_own.py checks both).
    views_are_own: ClassVar[bool] = False
    # Achievements that span matches: (number, wins in a row against one opponent, name,
    # {config key: allowed values}); a rule counts only in matches whose config allows it
    # (missing keys take default_config()'s value). Per-match achievements arrive in
    # Outcome.details["achievements"] as {seat: [number]}, names in details["achievement_names"].
    streak_achievements: ClassVar[tuple[tuple[int, int, str, Mapping[str, tuple[str, ...]]], ...]] = ()
    # Every option a match config may set, declared once: defaults, types, checks, help.
    options: ClassVar[Options] = Options("this game")
    # What the layers above need to know of a game, read generically (none of them names a game):
    # the key to the short forms of `render`, printed once above `tourney match --verbose` and
    # `tourney replay` (None: the rendering needs none);
    legend: ClassVar[str | None] = None
    # options the CLI offers as flags of their own (`--genin-pack`), beside `--set KEY=VALUE`;
    cli_flags: ClassVar[tuple[CliFlag, ...]] = ()
    # the bots a tournament seats when `--bots` is left out (empty: the CLI's generic line-up);
    default_bots: ClassVar[tuple[str, ...]] = ()
    # the typed wire codec of its observations and actions, "module:Class" (a codec under
    # engine/server/codecs, which the arena imports: a game never imports the wire; None: the
    # generic JSON codec);
    codec: ClassVar[str | None] = None
    # the web replay viewer's drawing of a public view: a script beside the game's module that puts
    # {draw(g, view, ui), claims(view)?} under the game's id in window.TourneyViewers (served by the
    # web app, called by web/static/viewer.js; None: the viewer's generic listing).
    viewer_script: ClassVar[str | None] = None

    @abstractmethod
    def new_state(
        self,
        seed: int,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        inject: Inject | None = None,
    ) -> State:
        """A fresh match. Raises ConfigError (one sentence) for a bad player count or config."""

    def default_config(self) -> dict[str, Any]:
        """The configuration a match gets when nothing is overridden (the declared defaults)."""
        return self.options.defaults()

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """Bots that only this game has (name -> factory taking `seed` and keyword options).

        A factory returns a Seat (anything with `act(DecisionRequest) -> int`).
        """
        return {}

    def realtime_driver(self) -> type[Any] | None:
        """The class that plays this game in real time (its `from_config(state, clock, config)` makes
        a driver for engine/server/realtime.py), or None: the game has no real-time mode."""
        return None

    def render(self, state: State) -> str:
        """A small text picture of the public position, for `tourney match --verbose`."""
        return json.dumps(state.public_view(), sort_keys=True)

    def encoding(self) -> Encoding | None:
        """The game's observation tensor and fixed action space, for training environments (None: none)."""
        return None

    def evaluate(self, state: State, seat: int) -> float:
        """How good `state` looks for `seat`, in [-1, 1]; used by greedy and by search cut-offs.

        The default knows only finished matches; games override it with a real heuristic.
        """
        if state.is_over():
            return 2.0 * state.outcome().points(seat) - 1.0
        return 0.0
