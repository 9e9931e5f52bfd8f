"""What a command is given on its command line, checked there before its body runs: whole numbers
that fit where they go, and no value typed empty.

A number past what its destination holds (a store's signed 64-bit column, a compiled rule's machine
integer, a protobuf uint32, a gRPC C int) used to travel until something deep failed with an
OverflowError, which the command line then blamed on the user whatever its cause. Each route in is
checked instead: every integer option and argument here (but --seed, which each command checks
against its own range with `check_seed`), game options by their declared ranges
(engine/core/options.py), and the few values that meet a narrower field by their own check.

An empty value typed for an option or argument (--host "", --arena "", a league NAME "") is refused
too: the command would otherwise read it as something nobody typed, such as every network interface
(an empty host) or a store in memory that vanishes with the command (an empty --db).
"""

from __future__ import annotations

from typing import Any

from typer import _click as click  # Typer's own Click: its commands' contexts and parameters
from typer._click.core import ParameterSource
from typer._click.globals import get_current_context

from tourney.engine.core import ConfigError

INT64 = range(-(1 << 63), 1 << 63)
UINT32 = range(1 << 32)
C_INT = range(-(1 << 31), 1 << 31)  # what gRPC's channel options hold


def check_within(flag: str, value: int, allowed: range) -> None:
    """Refuse `value` for `flag` unless it lies in `allowed`."""
    if value not in allowed:
        raise ConfigError(f"{flag} {value} is out of range: give a whole number from {allowed.start:,} to "
                          f"{allowed.stop - 1:,}.")


def check_command_line() -> None:
    """Refuse an integer option or argument of the running command that no signed 64-bit integer holds,
    and a text typed empty (nothing to check outside a command, e.g. a test calling a command's
    function). --seed is left to the command: a match's seed is a uint64 on the wire, a tournament's a
    signed one in the store."""
    ctx = get_current_context(silent=True)
    if ctx is None:
        return
    for param in ctx.command.params:
        value: Any = ctx.params.get(param.name or "")
        typed = ctx.get_parameter_source(param.name or "") is ParameterSource.COMMANDLINE
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, int) and not isinstance(item, bool) and param.name != "seed":
                check_within(_flag(param), item, INT64)
            elif isinstance(item, str) and typed and not item.strip():
                flag = _flag(param)
                optional = param.param_type_name == "option" and not param.required
                instead = f", or leave {flag} out" if optional else ""
                raise ConfigError(f"{flag} is empty: give it a value (`--help` says what){instead}.")


def _flag(param: click.Parameter) -> str:
    """How the user wrote the parameter: its long option, or an argument's upper-case name."""
    if param.param_type_name == "option":
        return max(param.opts, key=len)
    return (param.name or "the argument").upper()
