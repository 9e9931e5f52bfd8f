"""The seat specs of programs: `cmd:PROGRAM ARGS` and the hosted bots' `hosted:NAME` and `hosted:NAME:version=N`."""

from __future__ import annotations

import re

from tourney.engine.core import ConfigError
from tourney.engine.server import is_command

HOSTED_PREFIX = "hosted:"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
NOT_PLAYED = "the program did not play"  # every forfeit of a program's seat says this


def is_hosted(spec: str) -> bool:
    """True for a seat spec that names a hosted bot."""
    return spec.startswith(HOSTED_PREFIX)


def is_program(spec: str) -> bool:
    """True for a seat played by a process started for its match (`cmd:` or `hosted:`)."""
    return is_command(spec) or is_hosted(spec)


def hosted_name(spec: str, seat: int) -> str:
    """The name a hosted seat connects under, e.g. alice-v3-0 (or alice-0 for its latest version)."""
    name, version = parse_hosted(spec)
    return f"{name}-v{version}-{seat}" if version is not None else f"{name}-{seat}"


def check_name(name: str) -> str:
    """A hosted bot's name, checked: 1-40 letters, digits, '_', '.', '-'."""
    if not NAME.fullmatch(name):  # match() with $ would take a name ending in a newline
        raise ConfigError(f"'{name}' is not a hosted bot name: use 1-40 letters, digits, '_', '.' or '-', "
                          "starting with a letter or digit.")
    return name


def parse_hosted(spec: str) -> tuple[str, int | None]:
    """(name, version or None for its latest validated one) of a `hosted:` spec."""
    name, _, option = spec[len(HOSTED_PREFIX):].partition(":")
    check_name(name)
    if not option:
        return name, None
    key, _, value = option.partition("=")
    if key != "version" or not value.isdigit() or int(value) < 1:
        raise ConfigError(f"'{spec}' is not hosted:NAME or hosted:NAME:version=N: write e.g. hosted:{name}:version=1.")
    return name, int(value)


def pinned(name: str, version: int) -> str:
    """The spec of one version of a hosted bot."""
    return f"{pinned_prefix(name)}{version}"


def pinned_prefix(name: str) -> str:
    """The spec of a version of hosted bot `name` without its number."""
    return f"{HOSTED_PREFIX}{name}:version="
