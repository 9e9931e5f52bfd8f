"""Text a stranger chose (a bot's name, a bundle's file name, a --run command, a log line), made safe to
print: a terminal must never receive its control bytes (ESC sequences, \\r, \\b, NUL, bidi overrides),
and it is cut to a bounded length."""

from __future__ import annotations

SHOWN_CHARS = 64  # how much of a client-chosen name or id an error or a log line repeats
CELL_CHARS = 200  # ... and a table cell or a printed line (a bot's name, a --run command)


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """`text` with every character that is not printable written as its Python escape (\\x1b, \\u202e),
    at most `limit` characters of that, marked when shortened."""
    safe = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    if len(safe) <= limit:
        return safe
    return f"{safe[:limit]}... ({len(text)} characters)"


def plain(text: str, limit: int = CELL_CHARS) -> str:
    """A stranger's text as a rich table cell or line prints it: `shown`, and never read as markup."""
    from rich.markup import escape  # here: a worker imports `shown` and must not load rich (the driver's)

    return str(escape(shown(text, limit)))  # str(): the compiled build's mypy sees rich's escape as Any
