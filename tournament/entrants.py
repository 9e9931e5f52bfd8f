"""Entrants from the command line: `name[:options][@alias]`, e.g. `random@b` or `ismcts:iterations=50`."""

from __future__ import annotations

from dataclasses import dataclass

from tourney.engine.bots import make_bot, parse_bot_spec
from tourney.engine.core import ConfigError, Game
from tourney.engine.server import check_program, command_name, is_command
from tourney.workers.program_specs import is_hosted, parse_hosted


@dataclass(frozen=True)
class Entrant:
    """A bot entered in a tournament under a unique alias."""

    alias: str
    spec: str


REMOTE = "remote:"  # a bot connected to an arena, named as it said in its Hello


def remembers(spec: str) -> bool:
    """True when the bot of `spec` can remember one match in the next.

    A `remote:` bot is one program that plays match after match, and a `cmd:` program may keep
    files; built-in bots are made afresh per match and a `hosted:` bot gets a fresh sandboxed
    process per match, so neither can. In a game with hidden information a seat that remembers
    never plays both games of a duplicate pair (TournamentPlan.seed_of).
    """
    return spec.startswith(REMOTE) or is_command(spec)


def parse_entrants(text: str, game: Game, unique: bool = True, remote_ok: bool = False) -> list[Entrant]:
    """Parse a comma-separated list of bot specs, checking every bot exists for `game`.

    With unique (tournaments), two entries may not share an alias; a single match may
    seat the same bot twice. With remote_ok (matches played on an arena), `remote:NAME`
    names a connected bot; the arena checks it is there when its match starts. A
    `cmd:PROGRAM ARGS` entry is a bot program, started for each match it plays; `hosted:NAME` a
    submitted bot, run sandboxed for each match it plays.
    """
    entrants: list[Entrant] = []
    for raw in (part.strip() for part in split_bot_list(text)):
        if not raw:
            raise ConfigError(f"the bot list '{text}' has an empty entry: write names separated by commas.")
        spec, _, alias = raw.partition("@")
        if is_command(spec):
            name = command_name(spec, 0).rsplit("-", 1)[0]  # the program's stem, e.g. mybot
            check_program(spec)  # a typo stops the run now, before anything is stored
            alias = alias or name
        elif is_hosted(spec):
            name, _ = parse_hosted(spec)
            alias = alias or name
        elif spec.startswith(REMOTE):
            if not remote_ok:
                raise ConfigError(f"'{spec}' is a bot connected to an arena: pass --arena HOST:PORT to play it.")
            name = spec[len(REMOTE):]
            if not name:
                raise ConfigError(f"'{spec}' names no bot: write remote:NAME, the name the bot connected with.")
            alias = alias or name
        else:
            alias = alias or spec
            name, _ = parse_bot_spec(spec)
            make_bot(spec, game, 0)  # fails now, with one sentence, rather than mid-tournament
        if unique and any(e.alias == alias for e in entrants):
            raise ConfigError(f"bot '{alias}' is entered twice: give one an alias, e.g. {name}@{name}2.")
        entrants.append(Entrant(alias, spec))
    return entrants


def split_bot_list(text: str) -> list[str]:
    """The entries of a comma-separated bot list. A comma inside quotes, or after a backslash, belongs
    to its entry: `cmd:python3 -c 'print(1,2)',random` is two entries, as a shell would read it."""
    entries: list[str] = []
    current: list[str] = []
    quote = ""  # the quote character we are inside, if any
    escaped = False
    for ch in text:
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            entries.append("".join(current))
            current = []
            continue
        current.append(ch)
    if quote:
        raise ConfigError(f"the bot list '{text}' opens a {quote} it never closes: close the quote around the "
                          "program's arguments.")
    entries.append("".join(current))
    return entries
