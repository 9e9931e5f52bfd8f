"""`tourney pair --system dutch TRF_FILE`: the next round of a FIDE TRF tournament, printed as pairing programs do.

Added to the root app by tournament/cli/main.py (`app.add_typer`). The output is
bbpPairings' and JaVaFo's: the number of pairs, then `WHITE BLACK` per line by starting rank,
a bye as `N 0`, so an arbiter can compare our pairings with theirs line by line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from tourney.engine.core import ConfigError
from tourney.engine.core.small_files import read_small
from tourney.tournament.cli.shared import fail
from tourney.tournament.formats.dutch import DutchUnavailable
from tourney.tournament.formats.trf import TrfError, format_pairing, pair_dutch, read_trf

SYSTEMS = ("dutch",)
MAX_TRF_BYTES = 16 * 1024 * 1024  # 10,000 players and 99 rounds fit comfortably

app = typer.Typer()  # its one command, `pair`, is added to the root app


@app.command("pair")
def pair(
    trf_file: Annotated[Path, typer.Argument(help="A FIDE TRF-16 file: 001 player lines with the results so far, "
                                                  "and XXR with the total number of rounds.")],
    system: Annotated[str, typer.Option(help="Pairing system: dutch (FIDE Dutch, C.04.3).")] = "dutch",
) -> None:
    """Pair the next round of a TRF tournament and print it: the number of pairs, then WHITE BLACK per line
    (starting ranks), a bye as N 0."""
    if system not in SYSTEMS:
        fail(f"--system {system} is not a pairing system here: use --system dutch.")
    try:
        text = read_small(trf_file, MAX_TRF_BYTES, "the TRF file").decode("utf-8", errors="replace")
    except ConfigError as exc:
        fail(str(exc))
    try:
        tournament = read_trf(text)
        pairs, bye = pair_dutch(tournament)
    except TrfError as exc:
        fail(f"{trf_file}: {exc}")
    except DutchUnavailable:
        fail(f"{trf_file}: no pairing of the next round avoids a rematch or a second bye; the field is exhausted.")
    sys.stdout.write(format_pairing(pairs, bye))
