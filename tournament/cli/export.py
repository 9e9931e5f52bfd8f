"""`tourney export TOURNAMENT`: a stored tournament's matches as JSON lines (see tournament/store/export.py).

Added to the root app by tournament/cli/main.py (`app.add_typer`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, TextIO

import typer

from tourney.engine.core import ConfigError
from tourney.engine.core.environment import ADMIN_TOKEN_ENV
from tourney.tournament.cli.admin_token import check_admin_token
from tourney.tournament.cli.shared import DbOpt, guarded, open_existing
from tourney.tournament.store.export import FORMATS, export_lines


@contextlib.contextmanager
def _output(out: Path | None) -> Iterator[TextIO]:
    """stdout (no FILE, or -); a regular FILE written through FILE.part and renamed once complete (a failed
    export leaves no half file under the name asked for); anything else that exists (/dev/null, a FIFO) written
    in place: renaming onto a device would replace it with a file."""
    if out is None or str(out) == "-":
        yield sys.stdout
        return
    in_place = out.exists() and not out.is_file()
    target = out if in_place else out.with_name(out.name + ".part")
    try:
        handle = target.open("w", encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write {out} ({exc.strerror}): pick another --out.") from None
    if in_place:
        with handle:
            yield handle
        return
    try:
        with handle:
            yield handle
        os.replace(target, out)
    finally:
        target.unlink(missing_ok=True)

app = typer.Typer()  # its one command, `export`, is added to the root app


@app.command("export")
def export(
    tournament_id: Annotated[int, typer.Argument(help="Tournament id (see `tourney standings`).")],
    fmt: Annotated[str, typer.Option("--format", help="Output format: jsonl, one match a line.")] = "jsonl",
    out: Annotated[Path | None, typer.Option("--out", help="Write to this file (default, or -: stdout).")] = None,
    db: DbOpt = "tourney.db",
    full: Annotated[bool, typer.Option("--full", help="The organiser's records: also each match's seed and every "
                                                      "decision, which name hidden cards (needs the admin token).")
                    ] = False,
    admin_token: Annotated[str | None, typer.Option(help=f"The admin token --full needs (default ${ADMIN_TOKEN_ENV}).")
                           ] = None,
) -> None:
    """Write a stored tournament's matches as JSON lines: what a spectator may see of each (--full: the
    organiser's records), streamed in schedule order."""
    def body() -> None:
        if fmt not in FORMATS:
            raise ConfigError(f"--format {fmt} is not offered: use one of {', '.join(FORMATS)}.")
        if full:
            token = admin_token or os.environ.get(ADMIN_TOKEN_ENV, "")
            if not token:
                raise ConfigError(f"--full writes every seed and hidden card: pass the admin token with "
                                  f"--admin-token or ${ADMIN_TOKEN_ENV}.")
            check_admin_token(token, generated_when_unset=False)
        lines = export_lines(open_existing(db), tournament_id, full)  # one sentence here for an unknown id
        with _output(out) as sink:
            for line in lines:
                sink.write(line)
    try:
        guarded(body)
    except BrokenPipeError:  # `tourney export 1 | head`: the reader has what it wanted
        # Python flushes stdout once more at exit: point it at /dev/null so that flush cannot fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
