"""Hosted bots on the web: a bot's page (versions, validation, faults; its log to its author only) and
the one write of the web app, a new version uploaded by the bot's author with its token.

The upload is the archive's bytes as the request body (a .tar, .tar.gz or .zip of the bot's folder),
read up to the bundle limit and refused past it, and only once the headers carry the author's token
(at most MAX_UPLOADS at once, one a bot: an author trickling bodies holds one place, never them all);
the version is stored at once and validated on a
thread of its own (`status` says when).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from tourney.engine.core import TourneyError
from tourney.tournament.hosted.document import hosted_bot_doc
from tourney.tournament.hosted.submission import submit_version
from tourney.tournament.hosted.validation_queue import ValidationBusy, ValidationQueue
from tourney.tournament.store.database import url_of
from tourney.tournament.store.hosted import hosted_bot, is_author
from tourney.web import reads
from tourney.web.live import WatchLimit

MAX_UPLOAD = 32 << 20  # the packed-bundle limit: a bigger body is refused as it arrives
MAX_UPLOADS = 4  # bodies being received at once (each held in memory): more are refused with 429
# ... and each for at most this long (32 MiB at 270 KB/s), so trickled bodies cannot hold those places.
UPLOAD_READ_S = 120.0
MAX_RUN = 500
MAX_GAMES = 8
Name = Annotated[str, PathParam(max_length=64)]
Page = Callable[[Request, str, dict[str, Any]], HTMLResponse]


def bearer(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header."""
    if authorization is None or not authorization.startswith("Bearer "):
        return None
    return authorization[len("Bearer "):].strip() or None


def hosted_doc(engine: Engine, name: str, token: str | None) -> dict[str, Any]:
    """A hosted bot's document (as `tourney bot show --json`) with `author` and its faults; the logs of
    failed validations only for its author."""
    try:
        bot, _ = hosted_bot(engine, name)
    except TourneyError as exc:
        raise HTTPException(404, str(exc)) from None
    author = is_author(bot, token)
    try:
        faults = reads.bot(engine, name)["faults"]  # its matches under its name, every version
    except reads.NotFound:
        faults = {}
    doc = hosted_bot_doc(engine, name, logs=author).model_dump(
        exclude=None if author else {"versions": {"__all__": {"log"}}})
    return {**doc, "author": author, "faults": faults}


async def read_body(request: Request) -> bytes:
    """The request body, refused (413) once it passes MAX_UPLOAD or says it will, and (408) when it takes
    UPLOAD_READ_S."""
    too_big = HTTPException(413, f"the upload is over {MAX_UPLOAD >> 20} MiB: leave out what the bot does not need.")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_UPLOAD:  # said before a byte is read: no 100 Continue invites it
        raise too_big
    body = bytearray()
    try:
        async with asyncio.timeout(UPLOAD_READ_S):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_UPLOAD:
                    raise too_big
    except TimeoutError:
        raise HTTPException(408, f"the upload took over {UPLOAD_READ_S:g} s to arrive: send it again on a faster "
                                 "connection.") from None
    except ClientDisconnect:  # the uploader hung up mid-body: nothing to store, and nothing for the log to trace
        raise HTTPException(400, "the upload was cut off before its body ended: send it again.") from None
    return bytes(body)


def add_hosted_routes(app: FastAPI, engine: Engine, page: Page) -> None:
    """Register the hosted-bot JSON API and page on `app`."""
    validations = ValidationQueue(engine, url_of(engine))

    uploads = WatchLimit(MAX_UPLOADS)
    receiving: set[str] = set()  # bots with an upload being received (one at a time each)

    def check_author(name: str, token: str | None) -> str:
        """The hosted bot's stored name; 404 for no such bot, 403 unless `token` is its author's."""
        try:
            bot, _ = hosted_bot(engine, name)
        except TourneyError as exc:
            raise HTTPException(404, str(exc)) from None
        if not is_author(bot, token):
            raise HTTPException(403, f"uploading a version of '{name}' needs its author's token "
                                     "(header Authorization: Bearer TOKEN, from `tourney bot token`).")
        return bot.name

    def upload(name: str, data: bytes, run: str, games: list[str]) -> dict[str, Any]:
        with tempfile.TemporaryDirectory(prefix="tourney-upload-") as folder:
            archive = Path(folder) / "bundle"
            archive.write_bytes(data)
            try:
                version = validations.submit(name, lambda: submit_version(engine, name, archive, run, games))
            except ValidationBusy as exc:
                raise HTTPException(429, str(exc)) from None
            except TourneyError as exc:
                raise HTTPException(400, str(exc)) from None
        return {"name": name, "version": version.version, "sha256": version.sha256, "status": version.status}

    @app.post("/api/hosted/{name}/versions", status_code=202,
              summary="Upload a new version (the archive as the body; the author's token)")
    async def api_upload(request: Request, name: Name,
                         run: Annotated[str, Query(min_length=1, max_length=MAX_RUN)],
                         game: Annotated[list[str] | None, Query(max_length=MAX_GAMES)] = None,
                         authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        # Who may upload is known from the headers: nobody else's body is read (each is up to MAX_UPLOAD).
        bot = await run_in_threadpool(check_author, name, bearer(authorization))
        if bot in receiving:
            raise HTTPException(429, f"an upload of '{bot}' is being received already: send the next when it has "
                                     f"finished (it has {UPLOAD_READ_S:g} s at most).")
        if not uploads.take():
            raise HTTPException(429, f"{uploads.limit} uploads are being received: try again when one has finished.")
        receiving.add(bot)
        try:
            data = await read_body(request)
        finally:
            uploads.give()
            receiving.discard(bot)
        return await run_in_threadpool(upload, name, data, run, game or [])

    @app.get("/api/hosted/{name}", summary="A hosted bot's versions, validation and faults (logs: its author)")
    async def api_hosted(name: Name, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return await run_in_threadpool(hosted_doc, engine, name, bearer(authorization))

    @app.get("/hosted/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def hosted_page(request: Request, name: Name,
                          token: Annotated[str | None, Query(max_length=200)] = None) -> Response:
        return page(request, "hosted.html", await run_in_threadpool(hosted_doc, engine, name, token))
