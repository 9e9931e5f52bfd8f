"""`tourney web`: serve the web app on a store (and, with --arena, live matches of a running arena)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tourney.engine.core import ConfigError
from tourney.engine.core.environment import ADMIN_TOKEN_ENV
from tourney.engine.core.ports import bind_error, check_port
from tourney.tournament.cli.admin_token import check_admin_token
from tourney.tournament.cli.shared import guarded
from tourney.tournament.store.database import open_store

if TYPE_CHECKING:
    from tourney.engine.server import Arena



def listen(host: str, port: int, flag: str) -> socket.socket:
    """A socket bound to host:port (0: any free port), or one sentence naming `flag` when the port cannot
    be had (--host when the host cannot)."""
    check_port(port, flag)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise bind_error(exc, "the web pages", host, port, flag, "--host") from None
    sock.listen(128)  # connections wait in the queue from now on: the printed address answers at once
    return sock


def serve_web(db: str, arena: str | None, host: str, port: int, admin_token: str | None) -> None:
    """Open the store and serve the app with uvicorn until interrupted."""
    import uvicorn

    from tourney.web.app import create_app
    from tourney.web.connections import server_config

    admin = admin_token or os.environ.get(ADMIN_TOKEN_ENV) or None
    if admin is not None:  # it unlocks every seed and hidden card, and a wrong guess costs an attacker nothing
        check_admin_token(admin)
    sock = listen(host, port, "--port")
    if "://" not in db and not Path(db).exists():  # the web app only reads: it never makes a store
        sock.close()
        raise ConfigError(f"there is no database at {db}: run `tourney run` first, or pass --db.")
    engine = open_store(db)
    web = create_app(engine, arena=arena, admin_token=admin)
    print(f"tourney web on http://{host}:{sock.getsockname()[1]}/", flush=True)  # the port --port 0 got
    uvicorn.Server(server_config(web)).run(sockets=[sock])

app = typer.Typer()  # its one command, `web`, is added to the root app


@app.command()
def web(
    db: Annotated[str, typer.Option(help="Database URL or SQLite path.")] = "tourney.db",
    arena: Annotated[str | None, typer.Option(help="A running arena's host:port, for live matches.")] = None,
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free port, printed).")] = 8080,
    admin_token: Annotated[str | None, typer.Option(help=f"Unlocks full replays (default ${ADMIN_TOKEN_ENV}).")] = None,
) -> None:
    """Serve the web pages: tournaments, standings, matches with a replay viewer, bots, leagues, live games."""
    guarded(lambda: serve_web(db, arena, host, port, admin_token))


class _QuietServer:
    """uvicorn inside a loop that already owns the signals (the arena's): it stops when told, not on SIGINT."""

    def __init__(self, app: object, sock: socket.socket) -> None:
        import uvicorn

        from tourney.web.connections import server_config

        class Server(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:
                yield

        self.sock = sock
        self.server = Server(server_config(app, lifespan="off"))

    async def run(self) -> None:
        try:
            await self.server.serve(sockets=[self.sock])
        finally:
            self.sock.close()

    async def stop(self) -> None:
        self.server.should_exit = True


class WebBeside:
    """`tourney serve --web-port`: the web app in the arena's own event loop, watching that arena.

    The port is taken up front (bind), so a busy port is one sentence before the arena starts.
    """

    def __init__(self, db: str, host: str, port: int, admin_token: str | None) -> None:
        self.sock = listen(host, port, "--web-port")
        self.engine = open_store(db)
        self.host, self.port, self.admin_token = host, port, admin_token

    async def start(self, arena: Arena, arena_port: int) -> Callable[[], Awaitable[None]]:
        """Serve the app until the returned coroutine function is awaited."""
        from tourney.web.app import create_app

        app_ = create_app(self.engine, arena=f"127.0.0.1:{arena_port}", admin_token=self.admin_token,
                          live_ids=arena.live_match_ids)
        server = _QuietServer(app_, self.sock)
        task = asyncio.get_running_loop().create_task(server.run())
        print(f"web on http://{self.host}:{self.sock.getsockname()[1]}/", flush=True)

        async def stop() -> None:
            await server.stop()
            await task
        return stop
