"""`tourney web`: serve the web app on a store (and, with --arena, live matches of a running arena)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from tournament.cli import app, guarded
from tournament.store import open_store

ADMIN_ENV = "TOURNEY_ADMIN_TOKEN"


def serve_web(db: str, arena: str | None, host: str, port: int, admin_token: str | None) -> None:
    """Open the store and serve the app with uvicorn until interrupted."""
    import uvicorn

    from web.app import create_app

    if not 0 < port < 65536:
        from engine.core import ConfigError

        raise ConfigError(f"--port must be between 1 and 65535, not {port}.")
    engine = open_store(db)
    web = create_app(engine, arena=arena, admin_token=admin_token or os.environ.get(ADMIN_ENV) or None)
    print(f"tourney web on http://{host}:{port}/", flush=True)
    uvicorn.run(web, host=host, port=port, log_level="warning")


@app.command()
def web(
    db: Annotated[str, typer.Option(help="Database URL or SQLite path.")] = "tourney.db",
    arena: Annotated[str | None, typer.Option(help="A running arena's host:port, for live matches.")] = None,
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8080,
    admin_token: Annotated[str | None, typer.Option(help=f"Unlocks full replays (default ${ADMIN_ENV}).")] = None,
) -> None:
    """Serve the web pages: tournaments, standings, matches with a replay viewer, bots, leagues, live games."""
    guarded(lambda: serve_web(db, arena, host, port, admin_token))
