"""What the games add to the command line, read from each game generically: flags and line-ups.

The flags (`Game.cli_flags`) go on `tourney match` and `tourney run`: a command decorated with
`with_game_flags` takes every game's flags (`--genin-pack`, `--characters`, `--difficulty`, ...) as
options of its own, shown in its --help with the game that declares each;
the values given reach the command as one `game_flags` mapping (option key -> value), which
`parse_settings` puts in the match config, where the chosen game's options check them like `--set`.
A game's own default line-up (`Game.default_bots`) replaces the generic one when `--bots` is left out.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer

from tourney.engine.core import CliFlag, available_games


def declared_flags() -> dict[str, tuple[CliFlag, list[str]]]:
    """Every game's CLI flags by option key, each with the ids of the games that declare it."""
    flags: dict[str, tuple[CliFlag, list[str]]] = {}
    for game in available_games():
        for flag in game.cli_flags:
            flags.setdefault(flag.key, (flag, []))[1].append(game.id)
    return flags


def _parameter(flag: CliFlag, games: list[str]) -> inspect.Parameter:
    """The typer option of one flag: a switch, or a text the game's option reads."""
    help_text = f"{' / '.join(games)}: {flag.help}"
    annotation: Any
    if flag.switch:
        annotation, default = Annotated[bool, typer.Option(flag.flag, help=help_text)], False
    else:
        annotation, default = Annotated[str | None, typer.Option(flag.flag, help=help_text)], None
    return inspect.Parameter(flag.key, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def with_game_flags(command: Callable[..., None]) -> Callable[..., None]:
    """`command` (which takes a `game_flags` keyword) offering every game's flags as options."""
    flags = declared_flags()
    shown = inspect.signature(command, eval_str=True)  # typer needs the annotations themselves
    own = [p for p in shown.parameters.values() if p.name != "game_flags"]

    @functools.wraps(command)
    def with_flags(**options: Any) -> None:
        given = {key: options.pop(key) for key in flags if key in options}
        command(**options, game_flags={key: value for key, value in given.items() if value not in (None, False)})

    # typer reads the options from the signature: the command's own, then the games' flags.
    setattr(with_flags, "__signature__",  # noqa: B010 (a function's signature is no declared attribute)
            shown.replace(parameters=own + [_parameter(flag, games) for flag, games in flags.values()]))
    return with_flags


def default_bots_help(generic: str) -> str:
    """The `--bots` default in words: `generic`, and each game's own line-up where it has one."""
    own = "; ".join(f"{g.id}: {','.join(g.default_bots)}" for g in available_games() if g.default_bots)
    return f"{generic} ({own})" if own else generic
