"""Log records carry a stranger's text (a hosted bot's name, a validation reason, a client's bytes);
every handler tourney installs prints the whole record through `shown`, so none of its control characters
(ESC sequences, \\r, \\b, NUL, bidi overrides) reaches the organiser's terminal or log files.

Two worlds differ only in the stranger's text, hostile or plain: both print the same number of lines,
and nothing unprintable. Before, the CLI's handler and uvicorn's printed the record raw.
"""

from __future__ import annotations

import logging

import pytest

from tourney.tournament.cli.logs import configure_cli_logging
from tourney.web.connections import server_config

HOSTILE = "bot\x1b]0;owned\x07\x1b[2J\r\x08\x00\u202eexe.txt\nINFO: forged line"
PLAIN = "bot"


def _printable(text: str) -> bool:
    return all(line.isprintable() for line in text.split("\n"))


def _cli_output(name: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What the CLI's handler prints for a failed validation naming `name` (validation_queue.py's record)."""
    configure_cli_logging()
    logger = logging.getLogger("tournament.hosted.validation_queue")
    try:
        raise ValueError(f"bundle of {name} is broken")
    except ValueError:
        logger.exception("validating %s v%s failed", name, 3)
    logger.warning("the database is unreachable (%s); retrying in %.1f s", name, 1.0)
    return capsys.readouterr().err


def test_the_cli_handler_prints_a_strangers_text_printable(capsys: pytest.CaptureFixture[str]) -> None:
    hostile, plain = _cli_output(HOSTILE, capsys), _cli_output(PLAIN, capsys)
    assert _printable(plain) and _printable(hostile), hostile
    assert hostile.count("\n") == plain.count("\n")  # the stranger's newline forged no line
    assert "\\x1b]0;owned\\x07" in hostile and "\\u202e" in hostile


def _uvicorn_output(text: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What the web server's handlers print (set up as `tourney web` sets them up) for an error whose
    message is `text` (its access lines are below its warning level)."""
    server_config(object())  # uvicorn installs its handlers here, on today's stdout and stderr
    try:
        raise RuntimeError(text)
    except RuntimeError:
        logging.getLogger("uvicorn.error").exception("%s", text)
    printed = capsys.readouterr()
    return f"{printed.out}{printed.err}"


def test_the_web_servers_handlers_print_a_strangers_text_printable(capsys: pytest.CaptureFixture[str]) -> None:
    hostile, plain = _uvicorn_output(HOSTILE, capsys), _uvicorn_output(PLAIN, capsys)
    assert _printable(plain) and _printable(hostile), hostile
    assert hostile.count("\n") == plain.count("\n")
    assert "\\x1b[2J" in hostile and "\\x00" in hostile
