"""How `tourney` shows a usage error (an unknown option, a value of the wrong kind, a missing argument):
one sentence on stderr and exit code 2, like every other error of a command.

Typer draws a usage line, a hint and a boxed message over five lines or more instead; the sentence keeps
its message (cut, and made printable: it repeats what was typed) and names the command's --help.
"""

from __future__ import annotations

import sys

from typer import _click as click  # Typer's own Click: the exceptions its commands raise
from typer import rich_utils

from tourney.engine.core.printable import shown

USAGE_CHARS = 500  # the message repeats the value typed, which may be long


def _one_sentence(self: click.ClickException) -> None:
    """Print the error `self` as one sentence (Typer's no-arguments help, which is no error, as it would)."""
    if type(self).__name__ == "NoArgsIsHelpError":  # `tourney league` alone: its help was printed already
        return
    ctx = getattr(self, "ctx", None)
    command = ctx.command_path if ctx is not None else "tourney"
    message = shown(self.format_message(), USAGE_CHARS).rstrip(".")
    print(f"error: {message}: see `{command} --help`.", file=sys.stderr, flush=True)


def one_sentence_usage_errors() -> None:
    """Show every usage error as one sentence (idempotent)."""
    rich_utils.rich_format_error = _one_sentence
