"""Web page latency on a big store: fills one with --matches stored matches, then times every page.

    .venv/bin/python bench/web.py [--matches 100000] [--per-tournament 500] [--requests 200] [--db PATH]

The store is filled fast but truthfully: a pool of real matches of every game is played once
(random bots), then copied into many round-robin tournaments between 20 bots (each copy
a stored match with its real replay, seats and results), plus ratings, achievements and a
league. Pages are requested in-process through the ASGI interface on one event loop (httpx's
ASGITransport: routing, queries, templates, JSON; no network, no thread hops) for random ids.
"cold" is the first request of each id (nothing cached for it), "warm" a repeat. Prints
p50/p95 in milliseconds per page, and the load average: the machine is shared, so read the
table as a guide (no assertion anywhere).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import asyncio  # noqa: E402

import httpx  # noqa: E402
from sqlalchemy import insert  # noqa: E402
from sqlmodel import Session  # noqa: E402

from tourney.engine.bots import make_bot  # noqa: E402
from tourney.engine.core import get_game  # noqa: E402
from tourney.engine.referee import play_match  # noqa: E402
from tourney.tournament.entrants import Entrant as PlanEntrant  # noqa: E402
from tourney.tournament.formats.pairing import Pairing  # noqa: E402
from tourney.tournament.league.members import LeagueSettings, create_league, join_league  # noqa: E402
from tourney.tournament.league.rounds import run_due  # noqa: E402
from tourney.tournament.runner import TournamentPlan  # noqa: E402
from tourney.tournament.store.codec import dumps  # noqa: E402
from tourney.tournament.store.database import open_store  # noqa: E402
from tourney.tournament.store.records import match_record  # noqa: E402
from tourney.tournament.store.tables import Achievement, Bot, Entrant, Match, MatchSeat, Rating, SkillRating, Tournament  # noqa: E402
from tourney.web.app import create_app  # noqa: E402

GAMES = ["tiny-ninjas", "ninja-versus-ninja", "maitre-ninja", "ninja-arena"]
BOTS = 20
ENTRANTS = 6
POOL = 16  # real matches played per game, reused as templates


def real_matches(game: str) -> list[object]:
    """POOL real two-player matches of `game`, reduced to what is stored."""
    g = get_game(game)
    plan = TournamentPlan(game=game, entrants=[PlanEntrant("a", "random"), PlanEntrant("b", "random")], seed=1)
    out = []
    for seed in range(POOL):
        result = play_match(game, [make_bot("random", g, seed), make_bot("random", g, seed + 1)], seed, players=2)
        out.append(match_record(plan.aliases_of(Pairing(0, 0, (0, 1), 0)), result))
    return out


def fill(db: str, matches: int, per_tournament: int) -> None:
    engine = open_store(db)
    pools = {game: real_matches(game) for game in GAMES}
    rng = random.Random(1)
    names = [f"bot{i:02d}" for i in range(BOTS)]
    with Session(engine) as session:
        session.execute(insert(Bot), [{"name": n, "spec": "random"} for n in names])
        session.commit()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    t_count = (matches + per_tournament - 1) // per_tournament
    match_id = 0
    with engine.begin() as conn:
        for t in range(t_count):
            game = GAMES[t % len(GAMES)]
            chosen = rng.sample(range(BOTS), ENTRANTS)
            aliases = [names[b] for b in chosen]
            settings = {"games_per_pair": per_tournament // (ENTRANTS * (ENTRANTS - 1) // 2) or 1,
                        "format": "round-robin", "cycles": 1, "rounds": None, "sprt": None, "move_ms": None,
                        "entrants": [[a, "random"] for a in aliases]}
            tid = t + 1
            conn.execute(insert(Tournament), [{"id": tid, "name": f"bench {tid}", "game": game,
                                               "format": "round-robin", "players": 2, "seed": tid,
                                               "config_json": "{}", "settings_json": dumps(settings),
                                               "status": "finished", "created_at": start + timedelta(hours=t)}])
            entrant_ids = {}
            for pos, b in enumerate(chosen):
                eid = tid * 100 + pos
                entrant_ids[names[b]] = eid
                conn.execute(insert(Entrant), [{"id": eid, "tournament_id": tid, "bot_id": b + 1,
                                                "alias": names[b], "position": pos}])
            rows, seats, earned = [], [], []
            n = min(per_tournament, matches - match_id)
            for number in range(n):
                match_id += 1
                rec = rng.choice(pools[game])
                a, b = rng.sample(aliases, 2)
                rows.append({"id": match_id, "tournament_id": tid, "number": number, "round": number // 3,
                             "game": game, "seed": rec.seed, "players": 2, "config_json": "{}",
                             "termination": rec.termination, "reason": rec.reason, "plies": rec.plies,  # type: ignore[attr-defined]
                             "duration_s": 0.01, "replay_json": rec.replay, "details_json": rec.details_json,  # type: ignore[attr-defined]
                             "finished_at": start + timedelta(hours=t, seconds=number)})
                for seat, (alias, sr) in enumerate(zip((a, b), rec.seats, strict=True)):  # type: ignore[attr-defined]
                    seats.append({"match_id": match_id, "seat": seat, "entrant_id": entrant_ids[alias], "alias": alias,
                                  "tier": sr.tier, "points": sr.points, "score": sr.score, "decisions": sr.decisions,
                                  "think_s": sr.think_s, "faults_json":
                                  json.dumps(dict(sr.faults)) if rng.random() > 0.02 else '{"timeout": 1}'})
                if rng.random() < 0.05:
                    earned.append({"tournament_id": tid, "match_id": match_id, "alias": a, "number": number,
                                   "name": "Flawless", "opponent": None})
            conn.execute(insert(Match), rows)
            conn.execute(insert(MatchSeat), seats)
            if earned:
                conn.execute(insert(Achievement), earned)
            conn.execute(insert(Rating), [{"tournament_id": tid, "alias": al, "rating": 1500 + rng.gauss(0, 80),
                                           "low": 1400.0, "high": 1600.0, "games": n // 3} for al in aliases])
            conn.execute(insert(SkillRating), [{"tournament_id": tid, "alias": al, "mu": 25.0, "sigma": 3.0}
                                               for al in aliases])
    create_league(engine, LeagueSettings(name="bench league", game="tiny-ninjas", format="round-robin",
                                         schedule="0 20 * * *", divisions=2, promote=1), now=start)
    for i in range(6):
        join_league(engine, "bench league", "random", alias=f"l{i}", now=start)
    for day in range(2):
        when = start + timedelta(days=day, hours=20)
        run_due(engine, "bench league", clock=lambda when=when: when)


async def timed(client: httpx.AsyncClient, url: str) -> float:
    t0 = time.perf_counter()
    r = await client.get(url)
    took = (time.perf_counter() - t0) * 1000
    if r.status_code != (404 if "999999999" in url else 200):
        raise SystemExit(f"{url} answered {r.status_code}: {r.text[:200]}")
    return took


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--per-tournament", type=int, default=500)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--db", help="an existing bench store to reuse (filled when missing)")
    args = parser.parse_args()
    db = args.db or str(Path(tempfile.mkdtemp(prefix="webbench")) / "bench.db")
    if not Path(db).exists():
        t0 = time.perf_counter()
        fill(db, args.matches, args.per_tournament)
        print(f"filled {db}: {args.matches} matches in {time.perf_counter() - t0:.0f} s", flush=True)
    engine = open_store(db)
    asyncio.run(measure(engine, args.requests))


async def measure(engine: object, n: int) -> None:
    transport = httpx.ASGITransport(app=create_app(engine))  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        await measure_pages(engine, client, n)


async def measure_pages(engine: object, client: httpx.AsyncClient, n: int) -> None:
    with Session(engine) as session:  # type: ignore[arg-type]
        from sqlmodel import func, select

        n_t = int(session.exec(select(func.count()).select_from(Tournament)).one())
        n_m = int(session.exec(select(func.max(Match.id))).one() or 0)
    rng = random.Random(2)
    pages: dict[str, list[str]] = {
        "home": ["/"] * n,
        "home page 20": [f"/?page={1 + i % 20}" for i in range(n)],
        "api tournaments": ["/api/tournaments"] * n,
        "tournament": [f"/tournaments/{rng.randint(1, n_t)}" for _ in range(n)],
        "tournament, bot+seat filter": [f"/tournaments/{rng.randint(1, n_t)}?bot=bot0{rng.randint(0, 9)}&seat=1"
                                        for _ in range(n)],
        "api matches, page 5": [f"/api/tournaments/{rng.randint(1, n_t)}/matches?page=5" for _ in range(n)],
        "match page": [f"/matches/{rng.randint(1, n_m)}" for _ in range(n)],
        "match frames (replay)": [f"/api/matches/{rng.randint(1, n_m)}/frames" for _ in range(n)],
        "bot": [f"/bots/bot{rng.randint(0, BOTS - 1):02d}" for _ in range(n)],
        "league": ["/leagues/1"] * n,
        "live index": ["/live"] * n,
        "404 page": ["/matches/999999999"] * n,
    }
    print(f"store: {n_t} tournaments, {n_m} matches; {n} requests per page (in-process, ASGI); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'page':32} {'cold p50':>9} {'cold p95':>9} {'warm p50':>9} {'warm p95':>9}   (ms)")
    for name, urls in pages.items():
        seen: set[str] = set()
        cold, warm = [], []
        for url in urls:
            took = await timed(client, url)
            (warm if url in seen else cold).append(took)
            seen.add(url)
        if len(warm) < n // 4:  # ids drawn from a big range rarely repeat: ask some again
            warm += [await timed(client, url) for url in list(seen)[: n // 4]]
        print(f"{name:32} {pct(cold, 50):9.1f} {pct(cold, 95):9.1f} {pct(warm, 50):9.1f} {pct(warm, 95):9.1f}"
              f"   ({len(cold)} cold, {len(warm)} warm)", flush=True)


if __name__ == "__main__":
    main()
