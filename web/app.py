"""The ASGI app: every page as HTML (Jinja2, autoescaped) and the same data as JSON under /api/.

Read-only for everyone but a hosted bot's author, who may upload a new version of that bot with its
token (web/hosted.py, the one route that writes); the organiser's view of a replay (every seat's
observations) needs the admin token, compared in constant time.

Handlers are `async def` and make the short indexed reads on the event loop (on a busy
machine a thread hop costs more than such a query); the reads that may compute on a first view
(standings, a bot's totals, a league, a replay) run in the thread pool, so server-sent live
streams never wait for them.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.engine import Engine
from starlette.concurrency import iterate_in_threadpool, run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from tourney.engine.core import ReplayMismatch
from tourney.tournament.rating.standings_table import points_text
from tourney.tournament.responses import MatchPageDoc, StandingsDoc
from tourney.tournament.store.database import StoreError
from tourney.tournament.store.export import export_lines
from tourney.web import ladder_reads, reads
from tourney.web.connections import peer_host
from tourney.web.game_viewers import viewer_games, viewer_script
from tourney.web.hosted import add_hosted_routes
from tourney.web.live import MAX_ID_LENGTH, MAX_WATCHERS_PER_ADDRESS, WatchLimit, watch_events
from tourney.web.replays import full_match_frames, public_match_frames
from tourney.web.stalled import StallLimitedResponse

HERE = Path(__file__).resolve().parent
MAX_NAME = 200  # a bot name or filter longer than this names nothing stored
MAX_EXPORTS = 4  # tournament downloads streaming at once (each keeps a CPU busy replaying matches)
LIVE_ID = re.compile(rf"^[A-Za-z0-9_.:-]{{1,{MAX_ID_LENGTH}}}$")

LiveIds = Callable[[], Sequence[str]]
# A stored row's id: a positive 64-bit integer. Any other id in a path names nothing stored, so it
# is answered 404 (see not_stored), never passed to the database (whose integers it would overflow).
StoredId = Annotated[int, PathParam(ge=1, le=2**63 - 1)]


def invalid_input(errors: Sequence[Any]) -> str:
    """One sentence for the first thing wrong in a request: where it is and the rule it broke (the rule's
    text comes from the schema, so its length does not depend on what was sent)."""
    first = errors[0] if errors else {}
    where = " ".join(str(part) for part in first.get("loc", ("input",)))
    rule = str(first.get("msg", "is not valid"))[:200].rstrip(".")
    return f"{where}: {rule}; fix it and try again."

def create_app(engine: Engine, arena: str | None = None, admin_token: str | None = None,
               live_ids: LiveIds | None = None) -> FastAPI:
    """The web app on a store; `arena` (host:port) enables live pages, `live_ids` lists matches in progress."""
    app = FastAPI(title="tourney", description="Tournaments, matches, replays and live games (read-only).")
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["pts"] = points_text  # points as people read them: at most two decimals
    templates.env.globals["viewer_games"] = viewer_games()  # each game's drawing, loaded before viewer.js
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    watchers = WatchLimit(share=MAX_WATCHERS_PER_ADDRESS)
    # Each download replays every match of a tournament: a few at once keep the pages responsive.
    exports = WatchLimit(MAX_EXPORTS)

    def is_admin(token: str | None) -> bool:
        if not admin_token or token is None:
            return False
        return hmac.compare_digest(token.encode(), admin_token.encode())

    def page(request: Request, template: str, data: dict[str, Any], status: int = 200) -> HTMLResponse:
        return templates.TemplateResponse(request, template, {"data": data}, status_code=status)

    def found(make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        try:
            return make()
        except reads.NotFound as exc:
            raise HTTPException(404, f"{exc}.") from None

    async def computed(make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """A read that may compute (a first view: standings, a replay) runs off the loop, so live streams
        are never held up by it."""
        return await run_in_threadpool(found, make)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
        return page(request, "error.html", {"status": exc.status_code, "detail": exc.detail}, exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def not_stored(request: Request, exc: RequestValidationError) -> Response:
        """A path id that cannot be a stored one (too large, not a number) is not found; other bad input is 422,
        in one sentence that names the field but never repeats what was sent (it may be megabytes)."""
        errors = exc.errors()
        if any(error.get("loc", ("",))[0] == "path" for error in errors):
            return await http_error(request, StarletteHTTPException(404, "no such id is stored: check the address."))
        return await http_error(request, StarletteHTTPException(422, invalid_input(errors)))

    # ------------------------------------------------------------------ JSON

    @app.get("/api/tournaments", summary="Tournaments (a page, newest first) and leagues")
    async def api_home(page_: Annotated[int, Query(alias="page", ge=1, le=reads.MAX_PAGE)] = 1) -> dict[str, Any]:
        return reads.home(engine, page_)

    @app.get("/api/tournaments/{tournament_id}", summary="Standings, crosstable, SPRT, achievements, faults")
    async def api_tournament(tournament_id: StoredId) -> dict[str, Any]:
        return await computed(lambda: reads.tournament(engine, tournament_id))

    @app.get("/api/tournaments/{tournament_id}/standings", response_model=StandingsDoc,
             summary="Standings: what `tourney standings ID --json` prints")
    async def api_standings(tournament_id: StoredId) -> dict[str, Any]:
        return await computed(lambda: reads.standings(engine, tournament_id))

    @app.get("/api/tournaments/{tournament_id}/matches", response_model=MatchPageDoc,
             summary="A page of matches, filtered (`tourney matches ID --json` lists them all)")
    async def api_matches(tournament_id: StoredId,
                          page_: Annotated[int, Query(alias="page", ge=1, le=reads.MAX_PAGE)] = 1,
                    bot: Annotated[str | None, Query(max_length=MAX_NAME)] = None,
                    termination: Annotated[str | None, Query(max_length=MAX_NAME)] = None,
                    seat: Annotated[int | None, Query(ge=0, le=64)] = None) -> dict[str, Any]:
        return found(lambda: reads.match_list(engine, tournament_id, page_, bot or None, termination or None, seat))

    @app.get("/api/matches/{match_id}", summary="A match's public facts and result")
    async def api_match(match_id: StoredId) -> dict[str, Any]:
        return found(lambda: reads.match_head(engine, match_id))

    def frames_doc(match_id: int, full: bool, frames: Callable[[], list[dict[str, Any]]]) -> dict[str, Any]:
        """The replay viewer's document; a replay of an earlier game version has no frames and says why."""
        try:
            return {"id": match_id, "full": full, "frames": frames()}
        except ReplayMismatch as exc:
            return {"id": match_id, "full": full, "frames": [], "unavailable": str(exc)}

    @app.get("/api/matches/{match_id}/frames", summary="The public replay: the public view per step")
    async def api_frames(match_id: StoredId) -> dict[str, Any]:
        return await computed(lambda: frames_doc(match_id, False, lambda: public_match_frames(engine, match_id)))

    @app.get("/api/matches/{match_id}/full", summary="The full replay, every seat's view (admin token)")
    async def api_full(match_id: StoredId, x_admin_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        if not is_admin(x_admin_token):
            raise HTTPException(403, "the full replay needs the admin token (header X-Admin-Token).")
        return await computed(lambda: frames_doc(match_id, True, lambda: full_match_frames(engine, match_id)))

    @app.get("/api/tournaments/{tournament_id}/export.jsonl",
             summary="Every match as JSON lines, streamed (public; full=true: the organiser's, admin token)")
    async def api_export(tournament_id: StoredId, full: bool = False,
                         x_admin_token: Annotated[str | None, Header()] = None) -> StreamingResponse:
        if full and not is_admin(x_admin_token):
            raise HTTPException(403, "the full export needs the admin token (header X-Admin-Token).")
        if not exports.take():
            raise HTTPException(429, f"{exports.limit} downloads are running: try again when one has finished.")
        try:
            await run_in_threadpool(reads.stored_tournament_id, engine, tournament_id)
            lines = await run_in_threadpool(export_lines, engine, tournament_id, full)
        except BaseException as exc:  # whatever failed, the place is given back (else it was lost for good)
            exports.give()
            if isinstance(exc, reads.NotFound):  # in the web's words: export_lines' sentence names --db
                raise HTTPException(404, f"{exc}.") from None
            if isinstance(exc, StoreError):
                raise HTTPException(404, str(exc)) from None
            raise

        async def body() -> AsyncIterator[str]:
            try:  # the reads and the replays run in the thread pool, a batch of matches at a time
                async for line in iterate_in_threadpool(lines):
                    yield line
            finally:  # finished, failed or the client went away
                exports.give()
        return StallLimitedResponse(body(), media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="tournament-{tournament_id}.jsonl"',
            "Cache-Control": "no-store"})

    @app.get("/api/bots/{name}", summary="A bot's rating history, results by opponent and game, faults")
    async def api_bot(name: Annotated[str, reads_name()]) -> dict[str, Any]:
        return await computed(lambda: reads.bot(engine, name))

    @app.get("/api/leagues/{league_id}", summary="A league season: divisions, moves, next round")
    async def api_league(league_id: StoredId, season: Annotated[int | None, Query(ge=0, le=1_000_000)] = None
                   ) -> dict[str, Any]:
        return await computed(lambda: reads.league(engine, league_id, season))

    @app.get("/api/ladders", summary="Every game's ladder")
    async def api_ladders() -> dict[str, Any]:
        return ladder_reads.ladders(engine)

    @app.get("/api/ladders/{game}", summary="A game's ladder: standings by μ − 3σ and the latest matches")
    async def api_ladder(game: Annotated[str, reads_name()]) -> dict[str, Any]:
        return await computed(lambda: ladder_reads.ladder(engine, game))

    @app.get("/api/live", summary="Matches in progress on the arena")
    async def api_live() -> dict[str, Any]:
        ids = sorted(live_ids())[:reads.PAGE_SIZE] if live_ids is not None else []
        return {"arena": arena, "matches": ids}

    @app.get("/api/live/{match_id}/events", summary="A live match as server-sent events (public views only)")
    async def api_live_events(request: Request, match_id: str) -> StreamingResponse:
        if arena is None:
            raise HTTPException(404, "this web app is not connected to an arena: start it with --arena.")
        if not LIVE_ID.fullmatch(match_id):  # match() with $ would take an id ending in a newline
            raise HTTPException(404, "a match id is letters, digits and _.:- only.")
        events = watch_events(arena, match_id, watchers, peer_host(request))
        return StallLimitedResponse(events, media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    # ------------------------------------------------------------------ HTML

    @app.get("/games/{game_id}/viewer.js", include_in_schema=False)
    def game_viewer(game_id: str) -> FileResponse:
        """A game's drawing for the replay viewer (engine/games/<game>/viewer.js)."""
        path = viewer_script(game_id[:MAX_NAME])
        if path is None:
            raise HTTPException(404, f"no game {game_id[:MAX_NAME]!r} with a drawing: see `tourney games`.")
        return FileResponse(path, media_type="text/javascript")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request, page_: Annotated[int, Query(alias="page", ge=1, le=reads.MAX_PAGE)] = 1
             ) -> HTMLResponse:
        return page(request, "home.html", await api_home(page_))

    @app.get("/tournaments/{tournament_id}", response_class=HTMLResponse, include_in_schema=False)
    async def tournament(request: Request, tournament_id: StoredId,
                   page_: Annotated[int, Query(alias="page", ge=1, le=reads.MAX_PAGE)] = 1,
                   bot: Annotated[str | None, Query(max_length=MAX_NAME)] = None,
                   termination: Annotated[str | None, Query(max_length=MAX_NAME)] = None,
                   seat: Annotated[str | None, Query(max_length=3)] = None) -> HTMLResponse:
        seat_no = int(seat) if seat and seat.isdigit() else None  # the form sends "" for any seat
        data = await api_tournament(tournament_id)
        data["match_list"] = await api_matches(tournament_id, page_, bot, termination, seat_no)
        return page(request, "tournament.html", data)

    @app.get("/matches/{match_id}", response_class=HTMLResponse, include_in_schema=False)
    async def match(request: Request, match_id: StoredId,
                    token: Annotated[str | None, Query(max_length=MAX_NAME)] = None
              ) -> HTMLResponse:
        data = await api_match(match_id)
        data["full"] = is_admin(token)
        if token is not None and not data["full"]:
            raise HTTPException(403, "that admin token is wrong: drop ?token= for the public replay.")
        return page(request, "match.html", data)

    @app.get("/bots/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def bot(request: Request, name: Annotated[str, reads_name()]) -> HTMLResponse:
        return page(request, "bot.html", await api_bot(name))

    @app.get("/leagues/{league_id}", response_class=HTMLResponse, include_in_schema=False)
    async def league(request: Request, league_id: StoredId,
                     season: Annotated[int | None, Query(ge=0, le=1_000_000)] = None
               ) -> HTMLResponse:
        return page(request, "league.html", await api_league(league_id, season))

    @app.get("/ladders", response_class=HTMLResponse, include_in_schema=False)
    async def ladders(request: Request) -> HTMLResponse:
        return page(request, "ladders.html", await api_ladders())

    @app.get("/ladders/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def ladder(request: Request, game: Annotated[str, reads_name()]) -> HTMLResponse:
        return page(request, "ladder.html", await api_ladder(game))

    @app.get("/live", response_class=HTMLResponse, include_in_schema=False)
    async def live_index(request: Request) -> HTMLResponse:
        return page(request, "live_index.html", await api_live())

    @app.get("/live/{match_id}", response_class=HTMLResponse, include_in_schema=False)
    async def live(request: Request, match_id: str) -> HTMLResponse:
        if arena is None:
            raise HTTPException(404, "this web app is not connected to an arena: start it with --arena.")
        if not LIVE_ID.match(match_id):
            raise HTTPException(404, "a match id is letters, digits and _.:- only.")
        return page(request, "live.html", {"match_id": match_id})

    add_hosted_routes(app, engine, page)
    return app


def reads_name() -> Any:
    """A path parameter bounded like every other client input."""
    from fastapi import Path as PathParam

    return PathParam(max_length=MAX_NAME)
