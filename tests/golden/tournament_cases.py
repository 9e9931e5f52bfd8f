"""The golden tournaments: every game in every format it allows, played and stored, then read back.

Each case is run through the driver (`run_tournament`) into a fresh SQLite file, with an
explicit seed key (a plan has none until it is stored, and a fresh one would change every
seed), and the store is then read with plain SQL, so the record pins what a tournament
*stores*, not how the code that stores it is written: per match its number, round, seed,
seats, ranks, points, termination, reason and a digest of the stored replay; the standings
(performance Elo and its interval, OpenSkill, tiebreaks) and achievements; and a digest of
the public replay frames anyone may see. A league season (promotion, carried ratings) is
recorded the same way. Think times are left out: they are the only thing a rerun changes.

The same record must come out of in-process play and out of Ray workers: the executor
decides where a match is played, never what happens in it.

Only the entry points are imported (run_tournament, TournamentPlan, open_store, the league's
create/join/run_due): when a refactor moves one, change the import here, never the record.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import zlib
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

GOLDEN_FILE = "tournament_golden.json"
SEED_KEY = "golden-tournament-seed-key"  # fixed: the organiser's secret, the same every run
# Floats are compared to this many decimals: enough to catch any change in a result, few
# enough that summing the same numbers in another order (a faster standings query) agrees.
DECIMALS = 6


@dataclass(frozen=True)
class TournamentCase:
    """One golden tournament: a game, a format and its settings, and the entrants (alias, bot spec)."""

    game: str
    format: str
    entrants: tuple[tuple[str, str], ...]
    players: int = 2
    games_per_pair: int = 2
    rounds: int | None = None
    config: Mapping[str, Any] = field(default_factory=dict)
    sprt: tuple[float, float, float, float] | None = None
    label: str = ""

    @property
    def key(self) -> str:
        return f"{self.game}/{self.label or self.format}/{self.players}p"


TWO = (("random", "random"), ("greedy", "greedy"))
THREE = TWO + (("random-2", "random"),)  # odd: a Swiss round has a bye
FOUR = THREE + (("greedy-2", "greedy"),)

CASES: tuple[TournamentCase, ...] = (
    # Tiny Ninjas: two players, and Solo against the rulebook AI.
    TournamentCase("tiny-ninjas", "round-robin", THREE),
    TournamentCase("tiny-ninjas", "gauntlet", THREE),
    TournamentCase("tiny-ninjas", "swiss", THREE, rounds=2),
    TournamentCase("tiny-ninjas", "solo", TWO, games_per_pair=2, config={"mode": "solo"}),
    # Ninja Versus Ninja: two players; the SPRT gauntlet plays one batch of duplicate pairs.
    TournamentCase("ninja-versus-ninja", "round-robin", THREE),
    TournamentCase("ninja-versus-ninja", "gauntlet", THREE),
    TournamentCase("ninja-versus-ninja", "swiss", THREE, rounds=2),
    TournamentCase("ninja-versus-ninja", "gauntlet", TWO, rounds=1, sprt=(0.0, 50.0, 0.05, 0.05), label="sprt"),
    # Ninja Arena: two players, and pods of three (round robin and Swiss, with byes).
    TournamentCase("ninja-arena", "round-robin", THREE),
    TournamentCase("ninja-arena", "gauntlet", THREE),
    TournamentCase("ninja-arena", "swiss", THREE, rounds=2),
    TournamentCase("ninja-arena", "round-robin", FOUR, players=3, games_per_pair=3, rounds=2, label="pods"),
    TournamentCase("ninja-arena", "swiss", FOUR, players=3, games_per_pair=3, rounds=2, label="swiss-pods"),
    TournamentCase("ninja-arena", "round-robin", TWO, config={"tick_cap": 12}, label="adjudicated"),
    # Maître Ninja: two players, and pods of three.
    TournamentCase("maitre-ninja", "round-robin", THREE),
    TournamentCase("maitre-ninja", "gauntlet", THREE),
    TournamentCase("maitre-ninja", "swiss", THREE, rounds=2),
    TournamentCase("maitre-ninja", "round-robin", FOUR, players=3, games_per_pair=3, rounds=2, label="pods"),
    TournamentCase("maitre-ninja", "swiss", FOUR, players=3, games_per_pair=3, rounds=2, label="swiss-pods"),
)


def plan_of(case: TournamentCase) -> Any:
    """The tournament plan of a case, with the fixed seed key."""
    from tourney.tournament.entrants import Entrant
    from tourney.tournament.runner import TournamentPlan

    return TournamentPlan(game=case.game, entrants=[Entrant(a, s) for a, s in case.entrants], seed=7,
                          games_per_pair=case.games_per_pair, players=case.players, config=dict(case.config),
                          name=case.key, format=case.format, rounds=case.rounds, sprt=case.sprt,
                          seed_key=SEED_KEY)


def play(case: TournamentCase, db: Path, executor: Any) -> dict[str, Any]:
    """Run `case` into a new SQLite store at `db` with `executor`; the record of what was stored."""
    from tourney.tournament.runner import run_tournament
    from tourney.tournament.store.database import open_store

    engine = open_store(str(db))
    report = run_tournament(engine, plan_of(case), executor=executor)
    engine.dispose()
    record = read_tournament(db, report.tournament_id)
    record["table"] = [[s.alias, _num(s.points)] for s in report.standings]
    if report.sprt is not None:
        record["sprt"] = {"verdict": report.sprt.verdict, "llr": _num(report.sprt.llr), "pairs": report.sprt.pairs}
    return record


def _num(value: float) -> float:
    return round(float(value), DECIMALS)


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def stored_replay(text: str) -> dict[str, Any] | None:
    """The replay dict from a stored replay column ("z:" + base64 zlib JSON, or plain JSON); None if empty."""
    if not text:
        return None
    if text.startswith("z:"):
        text = zlib.decompress(base64.b64decode(text[2:])).decode()
    value: dict[str, Any] = json.loads(text)
    return value or None


def replay_digest(replay: Mapping[str, Any]) -> str:
    """The replay without think times (the one part a rerun changes): inputs and every decision."""
    steps = [[[d[0], d[1], d[3]] for d in step] for step in replay["steps"]]
    return _digest({**{k: v for k, v in replay.items() if k != "steps"}, "steps": steps})


def public_digest(replay: Mapping[str, Any]) -> str:
    """A digest of the public frames of a stored replay: what spectators and web pages are shown."""
    from tourney.engine.public_replay import public_frames
    from tourney.engine.referee import Replay

    return _digest(public_frames(Replay.from_dict(replay)))


def _rows(conn: sqlite3.Connection, sql: str, *args: Any) -> list[sqlite3.Row]:
    return list(conn.execute(sql, args))


def read_tournament(db: Path, tournament_id: int) -> dict[str, Any]:
    """Everything stored for one tournament, read with plain SQL, as JSON-ready lists."""
    with closing(sqlite3.connect(db)) as conn:
        conn.row_factory = sqlite3.Row
        matches = []
        for m in _rows(conn, "SELECT * FROM match WHERE tournament_id = ? ORDER BY number", tournament_id):
            seats = _rows(conn, "SELECT * FROM matchseat WHERE match_id = ? ORDER BY seat", m["id"])
            replay = stored_replay(m["replay_json"])
            matches.append({
                "number": m["number"], "round": m["round"], "seed": m["seed"], "players": m["players"],
                "termination": m["termination"], "reason": m["reason"], "plies": m["plies"],
                "details": _digest(json.loads(m["details_json"] or "{}")),
                "seats": [[s["alias"], s["tier"], _num(s["points"]), _num(s["score"]), s["decisions"],
                           json.loads(s["faults_json"] or "{}")] for s in seats],
                "replay": replay_digest(replay) if replay else None,
                "public": public_digest(replay) if replay else None,
            })
        ratings = [[r["alias"], _num(r["rating"]), _num(r["low"]), _num(r["high"]), r["games"]]
                   for r in _rows(conn, "SELECT * FROM rating WHERE tournament_id = ? ORDER BY alias", tournament_id)]
        skills = [[r["alias"], _num(r["mu"]), _num(r["sigma"]), _num(r["buchholz"]), _num(r["sonneborn_berger"]),
                   _num(r["direct"])]
                  for r in _rows(conn, "SELECT * FROM skillrating WHERE tournament_id = ? ORDER BY alias",
                                 tournament_id)]
        achievements = sorted(
            [r["alias"], r["number"], r["name"], r["opponent"]]
            for r in _rows(conn, "SELECT * FROM achievement WHERE tournament_id = ?", tournament_id))
        status = conn.execute("SELECT status FROM tournament WHERE id = ?", (tournament_id,)).fetchone()[0]
    return {"status": status, "matches": matches, "ratings": ratings, "openskill": skills,
            "achievements": achievements}


# ---------------------------------------------------------------------------------------- league

LEAGUE_GAME = "tiny-ninjas"
# The last member is a remote bot that never connects: it forfeits its matches and gets no bye.
LEAGUE_MEMBERS = FOUR + (("ghost", "remote:ghost"),)
LEAGUE_START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)  # a Monday noon; the schedule is hourly
LEAGUE_SEASONS = 2  # the second season starts after promotion and relegation


@contextmanager
def fixed_league_keys() -> Iterator[None]:
    """A league stores each division's tournament with a fresh secret seed key; here every one is SEED_KEY.

    Patched at the source of fresh secrets (secrets.token_hex) so it holds wherever the key is made;
    if key making stops using token_hex, patch what it uses instead (the league part then fails
    with every seed different, not with one result).
    """
    import secrets

    original = secrets.token_hex
    secrets.token_hex = lambda nbytes=None: SEED_KEY  # type: ignore[assignment]
    try:
        yield
    finally:
        secrets.token_hex = original  # type: ignore[assignment]


def play_league(db: Path, executor: Any) -> dict[str, Any]:
    """Two seasons of an hourly Swiss league in two divisions, one member always offline; what was stored."""
    from tourney.tournament.league.members import LeagueSettings, create_league, join_league
    from tourney.tournament.league.rounds import run_due
    from tourney.tournament.store.database import open_store

    engine = open_store(str(db))
    settings = LeagueSettings(name="golden", game=LEAGUE_GAME, format="swiss", schedule="0 * * * *",
                              rounds_per_season=2, divisions=2, promote=1, games_per_pair=2, seed=11)
    create_league(engine, settings, now=LEAGUE_START)
    for alias, spec in LEAGUE_MEMBERS:
        join_league(engine, "golden", spec, alias, now=LEAGUE_START)
    hours = LEAGUE_SEASONS * settings.rounds_per_season  # type: ignore[operator]
    now = LEAGUE_START + timedelta(hours=hours, minutes=1)
    with fixed_league_keys():
        reports = run_due(engine, "golden", clock=lambda: now, executor=executor, catch_up=None)
    engine.dispose()
    return read_league(db, [[r.season, r.round, r.status, r.matches, r.forfeits] for r in reports])


def read_league(db: Path, rounds: list[list[Any]]) -> dict[str, Any]:
    """The league's rounds, members' carried ratings, and each division tournament as `read_tournament`."""
    with closing(sqlite3.connect(db)) as conn:
        conn.row_factory = sqlite3.Row
        members = [[m["alias"], m["division"], _num(m["mu"]), _num(m["sigma"])]
                   for m in _rows(conn, "SELECT * FROM leaguemember ORDER BY alias")]
        divisions = [(d["season"], d["division"], d["tournament_id"])
                     for d in _rows(conn, "SELECT * FROM leaguedivision ORDER BY season, division")]
    return {"rounds": rounds, "members": members,
            "divisions": {f"{s}/{d}": read_tournament(db, tid) for s, d, tid in divisions}}


def record_all(ray_executor: Any, workdir: Path) -> dict[str, Any]:
    """Every case and the league, played in-process (the record) and checked to agree on Ray."""
    from tourney.workers import LocalExecutor

    out: dict[str, Any] = {}
    for i, case in enumerate(CASES):
        here = play(case, workdir / f"in-{i}.db", LocalExecutor())
        there = play(case, workdir / f"ray-{i}.db", ray_executor)
        if here != there:
            raise AssertionError(f"{case.key}: Ray stored something else than in-process play; fix that first")
        out[case.key] = here
    out["league"] = play_league(workdir / "league-in.db", LocalExecutor())
    if play_league(workdir / "league-ray.db", ray_executor) != out["league"]:
        raise AssertionError("the league stored something else on Ray than in-process; fix that first")
    return out
