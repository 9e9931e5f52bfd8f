"""Library code logs, it does not print; the CLI shows the library's warnings as plain sentences."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest

from tourney.tournament.cli.logs import configure_cli_logging

ROOT = Path(__file__).resolve().parents[1]
# Modules whose job is to print: the commands, their progress lines, and the code generator's file list.
PRINTERS = {
    "tournament/cli/main.py", "tournament/cli/shared.py", "tournament/cli/league.py", "tournament/cli/serve.py",
    "tournament/cli/pair.py", "tournament/cli/export.py", "tournament/cli/ladder.py", "tournament/cli/hosted.py",
    "tournament/cli/progress.py", "tournament/cli/web.py", "engine/server/codegen.py",
    "tournament/cli/logs.py",  # the CLI's handler: it writes the library's records to stderr
    "tournament/cli/usage_errors.py",  # a usage error's one sentence on stderr
}


def _prints(path: Path) -> list[str]:
    """Where a module prints or writes to stdout/stderr itself (print, sys.std*, traceback.print_*)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            found.append((node.lineno, "print()"))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "sys" and node.attr in ("stderr", "stdout"):
                found.append((node.lineno, f"sys.{node.attr}"))
            elif node.value.id == "traceback" and node.attr.startswith("print"):
                found.append((node.lineno, f"traceback.{node.attr}"))
    return [f"{what} at line {line}" for line, what in sorted(found)]


def test_library_code_uses_logging_not_print() -> None:
    offenders = []
    for package in ("engine", "workers", "tournament"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in PRINTERS or "/generated/" in rel:
                continue
            offenders += [f"{rel}: {where}" for where in _prints(path)]
    assert offenders == []


def test_the_check_sees_a_print(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import sys, traceback\nprint('x')\nsys.stderr.write('y')\ntraceback.print_exc()\n"
                      "s = \"print('not code')\"\n")
    assert _prints(module) == ["print() at line 2", "sys.stderr at line 3", "traceback.print_exc at line 4"]


def test_the_cli_shows_library_warnings_on_stderr_as_bare_sentences(capsys: pytest.CaptureFixture[str]) -> None:
    configure_cli_logging()
    configure_cli_logging()  # twice: still one line per record
    logging.getLogger("tourney.tournament.store.retry").warning("the database is unreachable (%s); retrying in %.1f s",
                                                   "refused", 0.2)
    logging.getLogger("tourney.engine.server.arena").info("an info line the user does not see")
    logging.getLogger("tourney.league").error("a league round failed")
    captured = capsys.readouterr()
    assert captured.err == "the database is unreachable (refused); retrying in 0.2 s\na league round failed\n"
    assert captured.out == ""
