"""How `tourney ... --help` shows options: a flag shows no value placeholder.

Typer prints a type placeholder beside every option, so an on/off flag such as --json reads
`--json <bool>` as if it took a value. A flag takes none, so its placeholder is left out.
"""

from __future__ import annotations

from typer import _click as click
from typer.core import TyperOption

_typed_placeholder = TyperOption.display_type_rich


def _flag_placeholder(self: TyperOption, ctx: click.Context) -> str | None:
    """No placeholder for a flag; the usual one for an option that takes a value."""
    if self.is_flag:
        return None
    return _typed_placeholder(self, ctx)


def hide_flag_placeholders() -> None:
    """Leave the value placeholder out of every flag's help line (idempotent)."""
    TyperOption.display_type_rich = _flag_placeholder  # type: ignore[method-assign]
