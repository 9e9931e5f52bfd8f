"""`tourney bot submit|list|show|retire`: hosted bots, kept in the store and run sandboxed.

Added to the root app as the `bot` group by tournament/cli/main.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from tourney.engine.core.environment import DB_ENV
from tourney.engine.core.printable import plain, shown
from tourney.tournament.cli.interrupts import interrupt_on_sigterm
from tourney.tournament.cli.shared import ERROR_CHARS, TABLE_WIDTH, fail, guarded, open_existing
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import hosted_bots, retire, set_token

bot_app = typer.Typer(no_args_is_help=True, help="Hosted bots: submit a bundle, list, show, retire. A hosted "
                                                 "bot plays as hosted:NAME (or hosted:NAME:version=N).")
out = Console(highlight=False, soft_wrap=True, width=TABLE_WIDTH)  # tables never cut a reason or a command

DbOpt = Annotated[str, typer.Option(envvar=DB_ENV, help="Database: a SQLite path or SQLAlchemy URL "
                                                                f"(default ${DB_ENV}, else tourney.db).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document and nothing else.")]
BOT_STORE_MAKER = "tourney bot submit"  # what the other bot commands name when --db names no store


@bot_app.command("submit")
def submit(
    name: Annotated[str, typer.Argument(help="The bot's name (a new name makes a new bot).")],
    path: Annotated[Path, typer.Argument(help="The bot's folder, or a .tar/.tar.gz/.zip of it.")],
    run: Annotated[str, typer.Option("--run", help="The command that starts the bot, run in its folder, e.g. "
                                                   "\"python3 bot.py\".")],
    game: Annotated[list[str] | None, typer.Option("--game", "-g", help="A game it plays (repeatable; default: "
                                                                        "every game).")] = None,
    db: DbOpt = "tourney.db",
) -> None:
    """Store a new version of a bot and validate it: one match against random in each of its games."""
    def body() -> None:
        from tourney.tournament.hosted.submission import submit_version
        from tourney.tournament.hosted.validation import validate

        engine = open_store(db)
        version = submit_version(engine, name, path, run, game or [])
        restore_sigterm = interrupt_on_sigterm()  # a `kill` stops the validation the way Ctrl-C does
        try:
            out.print(f"{name} v{version.version}")
            status, reason, tail = validate(engine, db, name, version)
        except KeyboardInterrupt:
            fail(f"interrupted: {name} v{version.version} is stored but not validated (pending): `tourney web` "
                 "validates it when it starts, or submit it again.")
        finally:
            restore_sigterm()
        if status != "validated":
            log = f"; its log ends: {tail}" if tail else ""
            print(f"error: {name} v{version.version} failed its validation ({shown(reason + log, ERROR_CHARS)}); it "
                  "is not ranked: fix it and submit again.", file=sys.stderr)
            raise typer.Exit(1)
        out.print(f"validated in {', '.join(json.loads(version.games_json))}: play it as hosted:{name}")
    guarded(body)


@bot_app.command("list")
def list_bots(db: DbOpt = "tourney.db", as_json: JsonOpt = False) -> None:
    """Every hosted bot: its latest version and that version's status."""
    def body() -> None:
        rows = [{"name": b.name, "versions": len(vs), "latest": vs[-1].version if vs else None,
                 "status": "retired" if b.retired else (vs[-1].status if vs else "no version")}
                for b, vs in hosted_bots(open_existing(db, BOT_STORE_MAKER))]
        if as_json:
            print(json.dumps(rows))
            return
        table = Table("bot", "versions", "latest", "status")
        for r in rows:
            table.add_row(plain(str(r["name"])), str(r["versions"]), f"v{r['latest']}", plain(str(r["status"])))
        out.print(table)
    guarded(body)


@bot_app.command("show")
def show(name: Annotated[str, typer.Argument(help="The hosted bot's name.")], db: DbOpt = "tourney.db",
         as_json: JsonOpt = False) -> None:
    """A hosted bot's versions: bundle hash, command, games, validation status and why, ladder ratings."""
    def body() -> None:
        from tourney.tournament.hosted.document import hosted_bot_doc

        doc = hosted_bot_doc(open_existing(db, BOT_STORE_MAKER), name, logs=True)
        if as_json:
            print(doc.model_dump_json())
            return
        out.print(f"{plain(doc.name)}{' (retired)' if doc.retired else ''}")
        table = Table("version", "bundle", "run", "games", "status")
        for v in doc.versions:
            status = v.status + (f": {v.reason}" if v.reason else "") + (f"; its log ends: {v.log}" if v.log else "")
            table.add_row(f"v{v.version}", f"{v.sha256[:12]} ({v.files} files)", plain(v.run),
                          plain(", ".join(v.games)), plain(status, ERROR_CHARS))
        out.print(table)
        if doc.ladders:
            rated = Table("ladder", "version", "μ (μ-3σ)", "matches", "on the ladder")
            for r in doc.ladders:
                rated.add_row(r.game, f"v{r.version}", f"{r.mu:.1f} ({r.conservative:.1f})", str(r.matches),
                              "yes" if r.on_ladder else "left")
            out.print(rated)
    guarded(body)


@bot_app.command("retire")
def retire_bot(name: Annotated[str, typer.Argument(help="The hosted bot's name.")], db: DbOpt = "tourney.db") -> None:
    """Retire a hosted bot: it plays no new match and leaves the ladders; its versions and results stay."""
    def body() -> None:
        from tourney.tournament.ladder.hosted_entries import withdraw

        engine = open_existing(db, BOT_STORE_MAKER)
        retire(engine, name)
        withdraw(engine, name)
        out.print(f"{name} retired")
    guarded(body)


@bot_app.command("token")
def token(name: Annotated[str, typer.Argument(help="The hosted bot's name.")], db: DbOpt = "tourney.db") -> None:
    """Print a fresh token for the bot's author (shown once; the old one stops working): with it the
    author uploads new versions and reads the bot's logs in the web app."""
    def body() -> None:
        print(set_token(open_existing(db, BOT_STORE_MAKER), name))
    guarded(body)
