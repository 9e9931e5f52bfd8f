"""What the games add to the command line, read from each game generically: flags and line-ups.

The flags (`Game.cli_flags`) go on `tourney match` and `tourney run`: a command made with
`cls=WithGameFlags` takes every game's flags (`--genin-pack`, `--characters`, `--difficulty`, ...) as
options of its own, shown in its --help with the game that declares each. They are read from the
games only when that command's options are parsed or shown, so the other commands start without
importing a game. The values given reach the command through `given_game_flags()` (option key ->
value), which `parse_settings` puts in the match config, where the chosen game's options check them
like `--set`. A game's own default line-up (`Game.default_bots`) replaces the generic one when
`--bots` is left out (`tourney games` names each game's).
"""

from __future__ import annotations

import inspect
from contextvars import ContextVar
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from tourney.engine.core import CliFlag, Game, available_games

DEFAULT_BOTS = "random,greedy,ismcts"  # where the generic ismcts is slow and weak, a game names its own

# The flags given to the command running now (option key -> value), while it runs.
_given: ContextVar[dict[str, Any]] = ContextVar("given_game_flags")


def declared_flags() -> dict[str, tuple[CliFlag, list[str]]]:
    """Every game's CLI flags by option key, each with the ids of the games that declare it."""
    flags: dict[str, tuple[CliFlag, list[str]]] = {}
    for game in available_games():
        for flag in game.cli_flags:
            flags.setdefault(flag.key, (flag, []))[1].append(game.id)
    return flags


def _parameter(flag: CliFlag, games: list[str]) -> inspect.Parameter:
    """One flag as a typer parameter: a switch, or a text the game's option reads."""
    help_text = f"{' / '.join(games)}: {flag.help}"
    annotation: Any
    if flag.switch:
        annotation, default = Annotated[bool, typer.Option(flag.flag, help=help_text)], False
    else:
        annotation, default = Annotated[str | None, typer.Option(flag.flag, help=help_text)], None
    return inspect.Parameter(flag.key, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _options(flags: dict[str, tuple[CliFlag, list[str]]]) -> list[Any]:
    """The flags as options, made by typer itself (so its help shows them like the command's own)."""
    def holder(**_: Any) -> None:
        """Holds the flags' signature while typer reads it."""

    setattr(holder, "__signature__",  # noqa: B010 (a function's signature is no declared attribute)
            inspect.Signature([_parameter(flag, games) for flag, games in flags.values()]))
    maker = typer.Typer()
    maker.command()(holder)
    return [p for p in typer.main.get_command(maker).params if p.name in flags]


class WithGameFlags(TyperCommand):
    """A command that also takes every game's flags (added the first time its options are needed)."""

    _flags: dict[str, tuple[CliFlag, list[str]]] | None = None

    def get_params(self, ctx: Any) -> list[Any]:
        """The command's own options, then the games' flags (read from the games on the first call)."""
        if self._flags is None:
            self._flags = declared_flags()
            self.params.extend(_options(self._flags))
        return super().get_params(ctx)

    def invoke(self, ctx: Any) -> Any:
        """Run the command with the flags given taken out of its parameters (see given_game_flags)."""
        given = {key: ctx.params.pop(key) for key in self._flags or {} if key in ctx.params}
        token = _given.set({key: value for key, value in given.items() if value not in (None, False)})
        try:
            return super().invoke(ctx)
        finally:
            _given.reset(token)


def given_game_flags() -> dict[str, Any]:
    """The game flags given to the running command (option key -> value), e.g. {"genin_pack": True}."""
    return dict(_given.get({}))


def default_lineup(game: Game) -> str:
    """The bots `tourney run` seats when `--bots` is left out: the game's own line-up, else the generic one."""
    return ",".join(game.default_bots) or DEFAULT_BOTS
