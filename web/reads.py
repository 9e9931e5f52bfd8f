"""The store reads behind each page: paged, column-only (no replay text), a fixed number of queries per page.

Anything derived from a tournament's whole history (standings, crosstable, SPRT curve) is
computed by tournament's own public functions and kept in a small cache keyed by the
tournament, its status and what is stored of it, so a finished tournament is computed once
and a running one again only when a match has landed.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import case, func, literal
from sqlalchemy import select as _sa_select
from sqlalchemy.engine import Engine
from sqlalchemy.sql import Executable
from sqlmodel import Session, col, select

from tourney.tournament.formats.pairing import PlayedGame
from tourney.tournament.formats.registry import FormatSpec, sprt_state, total_estimate
from tourney.tournament.league.season import league_standings
from tourney.tournament.rating.result_text import SOLO_AI
from tourney.tournament.rating.standings import likelihood_of_superiority
from tourney.tournament.responses import MatchPageDoc, StandingRow, match_summary, seat_docs, standings_doc
from tourney.tournament.runner import load_plan
from tourney.tournament.store.league_tables import League, LeagueDivision, LeagueRound
from tourney.tournament.store.reads import (
    achievement_counts,
    load_history,
    load_standings,
    match_page,
    match_seats,
    seats_of,
)
from tourney.tournament.store.results import seat_results
from tourney.tournament.store.tables import Achievement, Bot, Entrant, Match, MatchSeat, Rating, Tournament

PAGE_SIZE = 50
MAX_PAGE = 100_000  # a client-chosen page number is bounded like every other input
SPRT_POINTS = 60  # the LLR chart samples at most this many moments of the run

T = TypeVar("T")
# Many-column selects, untyped: the typing of select() stops at a handful of columns.
sa_select: Callable[..., Any] = _sa_select


class NotFound(Exception):
    """The id names nothing in the store."""


def stored_tournament_id(engine: Engine, tournament_id: int) -> int:
    """`tournament_id`, once the store holds that tournament; NotFound (a web reader's sentence) otherwise."""
    with Session(engine) as session:
        if session.get(Tournament, tournament_id) is None:
            raise NotFound(f"there is no tournament {tournament_id}")
    return tournament_id


class LruCache:
    """A small thread-safe LRU of computed page parts."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                value: T = self._items[key]
                return value
        value = make()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value


_derived = LruCache(256)


def store_key(engine: Engine) -> tuple[str, int]:
    """Which store a cached value came from: two apps on two stores never share an entry."""
    return str(engine.url), id(engine)


def _run(session: Session, query: Executable) -> Any:
    """Run a many-column query (SQLModel's select is typed for at most four columns)."""
    return session.connection().execute(query)


def _loads(text: str) -> Any:
    return json.loads(text) if text else {}


def page_bounds(page: int) -> tuple[int, int]:
    """(offset, limit) of a 1-based page, the page clamped to [1, MAX_PAGE]."""
    page = min(max(page, 1), MAX_PAGE)
    return (page - 1) * PAGE_SIZE, PAGE_SIZE


# ------------------------------------------------------------------------------------------ home


def home(engine: Engine, page: int = 1) -> dict[str, Any]:
    """Tournaments newest first (a page of them) with their progress, and every league."""
    offset, limit = page_bounds(page)
    with Session(engine) as session:
        rows = _run(session, sa_select(Tournament.id, Tournament.name, Tournament.game, Tournament.format,
                                   Tournament.status, Tournament.settings_json, Tournament.created_at,
                                   Tournament.players)
                            .order_by(col(Tournament.id).desc()).offset(offset).limit(limit)).all()
        ids = [r[0] for r in rows]
        counts = dict(session.exec(select(Match.tournament_id, func.count(col(Match.id)))
                                   .where(col(Match.tournament_id).in_(ids))
                                   .group_by(col(Match.tournament_id))).all()) if ids else {}
        total = session.exec(select(func.count(col(Tournament.id)))).one()
        leagues = session.exec(select(League).order_by(col(League.id))).all()
    tournaments = []
    for tid, name, game, fmt, status, settings_json, created, players in rows:
        played = int(counts.get(tid, 0))
        expected = _expected(settings_json, players) if status != "finished" else played
        tournaments.append({"id": tid, "name": name, "game": game, "format": fmt, "status": status,
                            "played": played, "expected": expected, "created_at": created.isoformat()})
    return {"tournaments": tournaments, "page": min(max(page, 1), MAX_PAGE), "total": int(total),
            "page_size": PAGE_SIZE,
            "leagues": [{"id": lg.id, "name": lg.name, "game": lg.game, "format": lg.format,
                         "schedule": lg.schedule, "divisions": lg.divisions} for lg in leagues]}


def _expected(settings_json: str, players: int) -> int | None:
    """The planned number of matches of a running tournament, when its format fixes one."""
    settings = _loads(settings_json)
    if settings.get("sprt"):
        return None
    spec = FormatSpec(settings.get("format", "round-robin"), players,
                      int(settings.get("games_per_pair", 2)), int(settings.get("cycles", 1)), settings.get("rounds"))
    try:
        return total_estimate(spec, len(settings.get("entrants", [])))
    except Exception:  # an old or odd settings document: progress shows the count alone
        return None


# ------------------------------------------------------------------------------------ tournament


def bound(x: float) -> float | None:
    """An interval bound for JSON: None where the interval is open (a 100% or 0% score has no finite Elo)."""
    return x if math.isfinite(x) else None


def tournament(engine: Engine, tournament_id: int) -> dict[str, Any]:
    """Standings with intervals and OpenSkill, crosstable and LOS matrix, SPRT curve, achievements, faults."""
    with Session(engine) as session:
        t = session.get(Tournament, tournament_id)
        if t is None:
            raise NotFound(f"there is no tournament {tournament_id}")
        stored = session.exec(select(func.count(col(Match.id)), func.max(col(Match.id)))
                              .where(Match.tournament_id == tournament_id)).one()
        # Streaks and final ratings are written after the last match: they are part of the key too.
        earned = session.exec(select(func.max(col(Achievement.id))).where(Achievement.tournament_id == tournament_id)
                              ).one()
        head = {"id": t.id, "name": t.name, "game": t.game, "format": t.format, "status": t.status,
                "players": t.players, "created_at": t.created_at.isoformat()}
    key = (store_key(engine), "tournament", tournament_id, stored[0], stored[1], earned, t.status)
    derived = _derived.get(key, lambda: _tournament_derived(engine, tournament_id))
    return {**head, **derived, "played": int(stored[0])}


def _tournament_derived(engine: Engine, tournament_id: int) -> dict[str, Any]:
    _, plan = load_plan(engine, tournament_id)
    aliases = [e.alias for e in plan.entrants]
    table = load_standings(engine, tournament_id, aliases)  # what `tourney standings` prints
    with engine.connect() as conn:
        tally = _tally(match_seats(conn, tournament_id))
    achievements = achievement_counts(engine, tournament_id)
    sprt = _sprt_curve(plan.spec(), load_history(engine, tournament_id, aliases)) if plan.sprt else None
    return {"entrants": aliases, "expected": plan.expected_matches(),
            "standings": [StandingRow.of(s).model_dump() for s in table],
            "crosstable": tally.crosstable([s.alias for s in table]), "sprt": sprt,
            "achievements": achievements, "faults": tally.faults, "terminations": tally.terminations}


@dataclass
class _Tally:
    """What the tournament page counts over the stored matches besides the standings."""

    points: dict[str, dict[str, float]] = field(default_factory=dict)  # taken from each other, pods included
    games: dict[str, dict[str, int]] = field(default_factory=dict)
    wins: dict[tuple[str, str], int] = field(default_factory=dict)  # (winner, loser) -> decisive games
    faults: dict[str, dict[str, int]] = field(default_factory=dict)  # alias -> fault kind -> count
    terminations: dict[str, int] = field(default_factory=dict)

    def crosstable(self, order: list[str]) -> dict[str, Any]:
        """Points each entrant took from each other (pods: seat by seat) and the LOS of each over each."""
        points = {a: self.points.get(a, {}) for a in order} | self.points
        games = {a: self.games.get(a, {}) for a in order} | self.games
        wins = self.wins
        los = {a: {b: likelihood_of_superiority(wins.get((a, b), 0), wins.get((b, a), 0))
                   for b in order if b != a and (wins.get((a, b), 0) + wins.get((b, a), 0))} for a in order}
        return {"order": order, "points": points, "games": games, "los": los}


def _tally(matches: Iterable[list[Any]]) -> _Tally:
    """One pass over the stored matches' seat rows (tournament.store.reads.match_seats)."""
    t = _Tally()
    for seats in matches:
        t.terminations[seats[0].termination] = t.terminations.get(seats[0].termination, 0) + 1
        for st in seats:
            for kind, n in _loads(st.faults_json).items():
                per = t.faults.setdefault(st.alias, {})
                per[kind] = per.get(kind, 0) + int(n)
        # Every two seats of a match met once (a pod of n is n-1 meetings per seat, as the standings'
        # W-D-L counts them): placed above takes 1, level ½, below 0. A bye has one seat: no meeting.
        for me in seats:
            took, met = t.points.setdefault(me.alias, {}), t.games.setdefault(me.alias, {})
            for other in seats:
                if other is me:
                    continue
                taken = 1.0 if me.tier < other.tier else 0.5 if me.tier == other.tier else 0.0
                took[other.alias] = took.get(other.alias, 0.0) + taken
                met[other.alias] = met.get(other.alias, 0) + 1
                if me.tier < other.tier:
                    t.wins[(me.alias, other.alias)] = t.wins.get((me.alias, other.alias), 0) + 1
    return t


def _sprt_curve(spec: FormatSpec, history: list[PlayedGame]) -> dict[str, Any]:
    """The SPRT state now and its LLR after each of (at most SPRT_POINTS) moments of the run."""
    step = max(1, len(history) // SPRT_POINTS)
    cuts = list(range(step, len(history), step)) + [len(history)]
    curve = []
    for n in cuts:
        state = sprt_state(spec, history[:n])
        curve.append({"matches": n, "pairs": state.pairs, "llr": state.llr})
    final = sprt_state(spec, history)
    assert spec.sprt is not None
    return {"llr": final.llr, "lower": final.lower, "upper": final.upper, "pairs": final.pairs,
            "pentanomial": list(final.pentanomial), "verdict": final.verdict, "elo0": spec.sprt[0],
            "elo1": spec.sprt[1], "curve": curve}


def match_list(engine: Engine, tournament_id: int, page: int = 1, bot: str | None = None,
               termination: str | None = None, seat: int | None = None) -> dict[str, Any]:
    """A page of a tournament's matches, filtered by bot (and the seat it sat in) and termination."""
    offset, limit = page_bounds(page)
    stored_tournament_id(engine, tournament_id)
    found = match_page(engine, tournament_id, offset, limit, bot, termination, seat)
    return MatchPageDoc(tournament_id=tournament_id, matches=[match_summary(m, seats) for m, seats in found.matches],
                        total=found.total, page=min(max(page, 1), MAX_PAGE), page_size=PAGE_SIZE,
                        filters={"bot": bot, "termination": termination, "seat": seat}).model_dump()


def standings(engine: Engine, tournament_id: int) -> dict[str, Any]:
    """A stored tournament's standings: the document `tourney standings ID --json` prints."""
    stored_tournament_id(engine, tournament_id)
    tid, plan = load_plan(engine, tournament_id)
    table = load_standings(engine, tid, [e.alias for e in plan.entrants])
    return standings_doc(tid, plan.game, plan.format, table).model_dump()


# ------------------------------------------------------------------------------------------ match


def match_head(engine: Engine, match_id: int) -> dict[str, Any]:
    """A stored match's public facts: tournament, game, seats, result. Never its seed or decisions."""
    with Session(engine) as session:
        row = _run(session, sa_select(Match.id, Match.tournament_id, Match.number, Match.round, Match.game,
                                  Match.players, Match.termination, Match.reason, Match.plies, Match.duration_s,
                                  Match.finished_at).where(Match.id == match_id)).first()
        if row is None:
            raise NotFound(f"there is no match {match_id}")
    rows = seats_of(engine, [match_id]).get(match_id, [])
    seats = [doc.model_dump() for doc in seat_docs([st.alias for st in rows], seat_results(rows))]
    mid, tid, number, rnd, game, players, term, reason, plies, secs, finished = row
    return {"id": mid, "tournament_id": tid, "number": number, "round": rnd, "game": game, "players": players,
            "termination": term, "reason": reason, "plies": plies, "seconds": round(secs, 4),
            "finished_at": finished.isoformat(), "seats": seats}


def match_replay_text(engine: Engine, match_id: int) -> str:
    """The stored replay (organiser-only material: the seed and every decision)."""
    with Session(engine) as session:
        text = session.exec(select(Match.replay_json).where(Match.id == match_id)).first()
    if text is None:
        raise NotFound(f"there is no match {match_id}")
    return text


# -------------------------------------------------------------------------------------------- bot


def bot(engine: Engine, name: str) -> dict[str, Any]:
    """A bot across tournaments: rating history, results by opponent and game, faults, achievements.

    Cached until a match or a rating is stored anywhere (the newest ids are the key).
    """
    with Session(engine) as session:
        b = session.exec(select(Bot).where(Bot.name == name)).first()
        if b is None:
            raise NotFound(f"there is no bot named {name!r}")
        newest = (session.exec(select(func.max(col(Match.id)))).one(),
                  session.exec(select(func.max(col(Rating.id)))).one(),
                  session.exec(select(func.max(col(Achievement.id)))).one())
    return _derived.get((store_key(engine), "bot", b.id, newest), lambda: _bot_derived(engine, b))


def _bot_derived(engine: Engine, b: Bot) -> dict[str, Any]:
    with Session(engine) as session:
        entries = session.exec(select(Entrant.id, Entrant.tournament_id, Entrant.alias)
                               .where(Entrant.bot_id == b.id)).all()
        ratings = _run(session,
            sa_select(Rating.tournament_id, Rating.alias, Rating.rating, Rating.low, Rating.high, Rating.games,
                   Tournament.game, Tournament.created_at)
            .join(Entrant, (col(Entrant.tournament_id) == col(Rating.tournament_id))
                  & (col(Entrant.alias) == col(Rating.alias)))
            .join(Tournament, col(Tournament.id) == col(Rating.tournament_id))
            # A solo tournament's rating is against the game's AI, not the field: no point of this history.
            .where(Entrant.bot_id == b.id).where(Tournament.format != "solo")
            .order_by(col(Rating.tournament_id))).all()
        # The game comes from the entry's tournament (a small table), so the match rows with their
        # replays are never read.
        mine = sa_select(MatchSeat.id, MatchSeat.match_id, MatchSeat.seat, MatchSeat.tier, MatchSeat.points,
                         MatchSeat.faults_json, Tournament.game, Tournament.format) \
            .join(Entrant, col(Entrant.id) == col(MatchSeat.entrant_id)) \
            .join(Tournament, col(Tournament.id) == col(Entrant.tournament_id)) \
            .where(Entrant.bot_id == b.id).subquery()
        opponent_entrant = Entrant.__table__.alias("oe")  # type: ignore[attr-defined]
        opponent_bot = Bot.__table__.alias("ob")  # type: ignore[attr-defined]
        other = MatchSeat.__table__.alias("o")  # type: ignore[attr-defined]
        by_opponent = _run(session,
            sa_select(opponent_bot.c.name, mine.c.game, func.count(), func.sum(mine.c.points),
                      func.sum(case((mine.c.tier < other.c.tier, 1), else_=0)),
                      func.sum(case((mine.c.tier > other.c.tier, 1), else_=0)))
            .select_from(mine)
            .join(other, (other.c.match_id == mine.c.match_id) & (other.c.seat != mine.c.seat))
            .join(opponent_entrant, opponent_entrant.c.id == other.c.entrant_id)
            .join(opponent_bot, opponent_bot.c.id == opponent_entrant.c.bot_id)
            .group_by(opponent_bot.c.name, mine.c.game)).all()
        # A solo match stores only the bot's seat: its opponent is the game's own AI, won against
        # with a full point and lost to with none.
        by_opponent += _run(session,
            sa_select(literal(SOLO_AI), mine.c.game, func.count(), func.sum(mine.c.points),
                      func.sum(case((mine.c.points >= 1.0, 1), else_=0)),
                      func.sum(case((mine.c.points <= 0.0, 1), else_=0)))
            .where(mine.c.format == "solo").group_by(mine.c.game)).all()
        by_game = _run(session, sa_select(mine.c.game, func.count(), func.sum(mine.c.points))
                       .group_by(mine.c.game)).all()
        faulty = session.exec(select(mine.c.faults_json).where(mine.c.faults_json != "{}")).all()
        tids = sorted({e[1] for e in entries})
        earned = session.exec(
            select(Achievement.name, func.count())
            .join(Entrant, (col(Entrant.tournament_id) == col(Achievement.tournament_id))
                  & (col(Entrant.alias) == col(Achievement.alias)))
            .where(Entrant.bot_id == b.id).group_by(col(Achievement.name))).all()
    faults: dict[str, int] = {}
    for text in faulty:
        for kind, n in _loads(text).items():
            faults[kind] = faults.get(kind, 0) + int(n)
    return {
        "name": b.name, "spec": b.spec, "tournaments": tids[-PAGE_SIZE:],
        "rating_history": [{"tournament_id": tid, "bot": alias, "rating": r, "rating_low": bound(lo),
                            "rating_high": bound(hi),
                            "games": g, "game": game, "at": at.isoformat()}
                           for tid, alias, r, lo, hi, g, game, at in ratings],
        "by_opponent": [{"opponent": o, "game": g, "games": int(n), "points": float(p or 0), "wins": int(w or 0),
                         "losses": int(lo or 0), "game_ai": o == SOLO_AI} for o, g, n, p, w, lo in by_opponent],
        "by_game": [{"game": g, "games": int(n), "points": float(p or 0)} for g, n, p in by_game],
        "faults": faults, "achievements": {name_: int(n) for name_, n in earned},
    }


# ----------------------------------------------------------------------------------------- league


def league(engine: Engine, league_id: int, season: int | None = None) -> dict[str, Any]:
    """A league's season: divisions with standings, promotions and relegations, the next round's due time."""
    with Session(engine) as session:
        lg = session.get(League, league_id)
        if lg is None:
            raise NotFound(f"there is no league {league_id}")
        name = lg.name
        divisions = session.exec(select(LeagueDivision.season, LeagueDivision.division, LeagueDivision.tournament_id)
                                 .where(LeagueDivision.league_id == league_id)).all()
        rounds = _run(session, sa_select(LeagueRound.slot, LeagueRound.season, LeagueRound.round, LeagueRound.status,
                                     LeagueRound.matches, LeagueRound.forfeits, LeagueRound.due_ts)
                              .where(LeagueRound.league_id == league_id)
                              .order_by(col(LeagueRound.slot).desc()).limit(PAGE_SIZE)).all()
        members_by_tid: dict[int, list[str]] = {}
        tids = [d[2] for d in divisions]
        if tids:
            for tid, alias in session.exec(select(Entrant.tournament_id, Entrant.alias)
                                           .where(col(Entrant.tournament_id).in_(tids))):
                members_by_tid.setdefault(tid, []).append(alias)
    seasons = sorted({d[0] for d in divisions})
    if season is not None and season not in seasons:
        raise NotFound(f"league {league_id} has no season {season}")
    # The standings change only when a round is played: the recent rounds are the cache key.
    table = _derived.get((store_key(engine), "league", league_id, season, tuple(tuple(r) for r in rounds)),
                         lambda: league_standings(engine, name, season))
    placed: dict[int, dict[str, int]] = {}
    for s, division, tid in divisions:
        for alias in members_by_tid.get(tid, []):
            placed.setdefault(s, {})[alias] = division
    moves = []
    before, now = placed.get(table.season - 1, {}), placed.get(table.season, {})
    for alias, division in sorted(now.items()):
        if alias in before and before[alias] != division:
            moves.append({"bot": alias, "from": before[alias], "to": division,
                          "move": "promoted" if division < before[alias] else "relegated"})
    return {"id": league_id, "name": table.league, "game": table.game, "season": table.season, "seasons": seasons,
            "divisions": [{"division": d, "tournament_id": next((t for s, dv, t in divisions
                                                                  if s == table.season and dv == d), None),
                           "standings": [StandingRow.of(s).model_dump() for s in st]} for d, st in table.divisions],
            "ratings": {a: {"mu": mu, "sigma": sg} for a, (mu, sg) in table.ratings.items()},
            "moves": moves, "next_due": table.next_due.isoformat() if table.next_due else None,
            "rounds": [{"slot": sl, "season": se, "round": r, "status": st, "matches": m, "forfeits": f,
                        "due_ts": d} for sl, se, r, st, m, f, d in rounds]}
