"""The JSON documents `tourney ... --json` prints and the web API (`/api/...`) answers: one model each,
one spelling.

Both read the same store through the builders below, so a stored tournament reads the same from the
command line and over HTTP, field for field. An entrant is `bot` everywhere (a standings row, a match's
seat); a rating interval is `rating_low`/`rating_high` (None where it is open: a 100% or 0% score has
no finite Elo). Numbers are rounded once, here: points without float noise (8, not 7.999999999999999),
Elo to 0.1, OpenSkill to 0.001, seconds to 0.0001. Seeds and the seats' thinking times are the
organiser's: no model here holds them (`tourney arena-match --json` adds the replay, for the organiser).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from tourney.engine.core import MatchResult, SeatResult
from tourney.tournament.rating.result_text import places, result_text
from tourney.tournament.rating.standings import Standing
from tourney.tournament.store.results import seat_results
from tourney.tournament.store.tables import MatchSeat


class StandingRow(BaseModel):
    """One entrant's line of the standings."""

    bot: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float  # games and byes: what the table ranks by
    score_pct: float  # points per game played (byes left out), in percent
    rating: float | None  # performance Elo; None before a first game
    rating_low: float | None  # its 95% interval; None where the interval is open
    rating_high: float | None
    places: list[int]  # pods: times placed 1st, 2nd, ...
    first_share: float
    faults: int
    byes: int
    solo_games: int  # games against the game's own AI (Solo mode)
    mu: float  # OpenSkill
    sigma: float
    conservative: float  # mu - 3 sigma
    direct: float  # tiebreaks: direct encounter, Buchholz, Sonneborn-Berger
    buchholz: float
    sonneborn_berger: float
    los_next: float | None  # likelihood of superiority over the next in the table

    @staticmethod
    def of(s: Standing) -> StandingRow:
        """The row of one computed standing."""
        played = s.games > 0
        return StandingRow(
            bot=s.alias, games=s.games, wins=s.wins, draws=s.draws, losses=s.losses, points=exact(s.points),
            score_pct=round(s.score_pct, 1), rating=round(s.rating, 1) if played else None,
            rating_low=_finite(s.low) if played else None, rating_high=_finite(s.high) if played else None,
            places=list(s.places), first_share=exact(s.first_share), faults=s.faults, byes=s.byes,
            solo_games=s.solo_games, mu=round(s.mu, 3), sigma=round(s.sigma, 3),
            conservative=round(s.mu - 3 * s.sigma, 3), direct=exact(s.direct), buchholz=exact(s.buchholz),
            sonneborn_berger=exact(s.sonneborn_berger), los_next=None if s.los_next is None else round(s.los_next, 4))


class StandingsDoc(BaseModel):
    """A stored tournament's standings (`tourney standings ID --json`, `/api/tournaments/ID/standings`)."""

    tournament_id: int
    game: str
    format: str
    standings: list[StandingRow]


class SeatDoc(BaseModel):
    """One seat of a match: who held it, its place (0-based tier, shared by tier_size seats; `place` in
    words), its match points, the game's score and its faults. Not its clock: how long a seat thought can
    tell what it held, so it stays in the store and the organiser's export (`--full`)."""

    seat: int
    bot: str
    tier: int
    tier_size: int
    place: str  # "1st", "2nd=" (shared), ...
    points: float
    score: float
    faults: dict[str, int]


class MatchSummary(BaseModel):
    """A stored match in a list: its place in the schedule, how it ended, and its seats."""

    id: int
    number: int  # 0-based position in the schedule
    round: int
    termination: str
    reason: str
    plies: int
    seconds: float
    seats: list[SeatDoc]
    result: str  # the seats' places in words ("1-0", "½-½", "1st, 2nd=, 2nd=")


class MatchesDoc(BaseModel):
    """Some of a tournament's stored matches (`tourney matches ID --json`: all of them) and how many it has."""

    tournament_id: int
    matches: list[MatchSummary]
    total: int


class MatchPageDoc(MatchesDoc):
    """A page of a tournament's matches, filtered (`/api/tournaments/ID/matches`)."""

    page: int
    page_size: int
    filters: dict[str, Any]


class PlayedMatchDoc(BaseModel):
    """One match just played (`tourney match --json`): its seed, how it ended, the tiers and every seat."""

    game: str
    seed: int
    termination: str
    reason: str
    plies: int
    seconds: float
    ranking: list[list[int]]  # tiers of seats, best first
    scores: list[float]
    seats: list[SeatDoc]


class ArenaMatchDoc(PlayedMatchDoc):
    """One match an arena played (`tourney arena-match --json`): the played match, the arena's id for it
    and its full replay (the organiser's: the arena sends it with the admin token only)."""

    match_id: str
    replay: dict[str, Any]


class LadderBotRow(BaseModel):
    """One bot on a ladder: its rank by μ − 3σ, its OpenSkill rating and its record. Its `spec` (what it
    runs: a command may name the organiser's files) is the organiser's; the web's documents leave it out."""

    rank: int
    bot: str
    spec: str | None
    mu: float
    sigma: float
    conservative: float  # mu - 3 sigma, what the ladder ranks by
    matches: int
    wins: int


class LadderSeatDoc(BaseModel):
    """One seat of a ladder match: who held it and its 0-based tier."""

    bot: str
    tier: int


class LadderMatchRow(BaseModel):
    """A finished ladder match: its number, how it ended and its seats."""

    number: int
    termination: str
    seats: list[LadderSeatDoc]
    finished_at: str | None


class LadderDoc(BaseModel):
    """A game's ladder (`tourney ladder standings --json`, `/api/ladders/GAME`): how many matches are done
    and in flight, its bots best first, and its latest matches, newest first."""

    game: str
    done: int
    scheduled: int
    bots: list[LadderBotRow]
    matches: list[LadderMatchRow]


class HostedLadderRow(BaseModel):
    """One version of a hosted bot on one game's ladder, with its μ − 3σ after each of its recent matches."""

    game: str
    version: int
    bot: str  # its name on the ladder, `NAME vN`
    mu: float
    sigma: float
    conservative: float
    matches: int
    wins: int
    on_ladder: bool  # False once a newer version took its place, or the bot was retired
    history: list[float]


class HostedVersionDoc(BaseModel):
    """One submitted version of a hosted bot: its bundle, command, games and validation. `log` (the end of
    the bot's log in a failed validation) is its author's and the organiser's: the public page leaves it out."""

    version: int
    sha256: str
    run: str
    games: list[str]
    files: int
    bytes: int  # the packed bundle's size
    status: str  # pending | validated | failed
    reason: str  # why a validation failed
    log: str | None
    submitted: str  # ISO 8601


class HostedBotDoc(BaseModel):
    """A hosted bot (`tourney bot show NAME --json`, `/api/hosted/NAME`): its versions, oldest first, and
    their ratings on the ladders. The web's adds `author` (whether the caller is) and the bot's `faults`."""

    name: str
    retired: bool
    versions: list[HostedVersionDoc]
    ladders: list[HostedLadderRow]


def standings_doc(tournament_id: int, game: str, fmt: str, table: Sequence[Standing]) -> StandingsDoc:
    """The standings document of a tournament."""
    return StandingsDoc(tournament_id=tournament_id, game=game, format=fmt,
                        standings=[StandingRow.of(s) for s in table])


def seat_docs(aliases: Sequence[str], seats: Sequence[SeatResult]) -> list[SeatDoc]:
    """The seats of one match (every seat, in seat order), held by `aliases`, as the documents show them."""
    shown = places([s.tier for s in seats])
    return [SeatDoc(seat=i, bot=alias, tier=s.tier, tier_size=s.tier_size, place=shown[i], points=s.points,
                    score=s.score, faults=dict(s.faults))
            for i, (alias, s) in enumerate(zip(aliases, seats, strict=True))]


def match_summary(m: Any, seats: Sequence[MatchSeat]) -> MatchSummary:
    """A stored match (a row of `reads.match_page`) as the lists show it, its result in words read from its seats."""
    docs = seat_docs([st.alias for st in seats], seat_results(seats))
    return MatchSummary(id=m.id, number=m.number, round=m.round, termination=m.termination, reason=m.reason,
                        plies=m.plies, seconds=round(m.duration_s, 4), seats=docs,
                        result=result_text([s.tier for s in docs], [s.points for s in docs]))


def played_match_doc(names: Sequence[str], result: MatchResult, seconds: float) -> PlayedMatchDoc:
    """The document of a match just played, whose seats `names` held, in `seconds` of wall time."""
    return PlayedMatchDoc(game=result.game_id, seed=result.seed, termination=result.termination,
                          reason=result.reason, plies=len(result.replay.steps), seconds=round(seconds, 3),
                          ranking=[list(t) for t in result.ranking], scores=list(result.scores),
                          seats=seat_docs(names, result.seats))


def exact(points: float) -> float:
    """Points for JSON: sums of thirds and quarters without float noise (8, not 7.999999999999999)."""
    return round(points, 6) + 0.0


def _finite(x: float) -> float | None:
    """A bound for JSON: rounded, or None when the interval is open (no Infinity in JSON)."""
    return round(x, 1) if math.isfinite(x) else None
