"""Hosted bots on the ladders: a validated version joins the ladder of each of its games by itself.

Each version is its own entrant, `NAME vN` playing `hosted:NAME:version=N`, so a match is the same
whenever it is replayed (a restart never swaps in a newer version), and every version keeps its own
rating: the history a bot's page shows. A bot is on a ladder with one version, its latest
validated one: when a new version is validated the older ones leave (their matches in flight
still finish), and a retired bot's versions all leave (`withdraw`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import String, cast, literal
from sqlalchemy.engine import Engine

from tourney.tournament.rating.ratings import initial_skill
from tourney.tournament.responses import HostedLadderRow
from tourney.tournament.store.hosted import latest_validated
from tourney.tournament.store.ladder_rows import add_entry, entries_of, keep_only, ladder_of, leave, rating_history
from tourney.workers.program_specs import HOSTED_PREFIX, NAME, pinned, pinned_prefix


def version_alias(name: str, version: int) -> str:
    """The ladder name of one version of a hosted bot, e.g. `alice v3` (what `tourney bot submit` prints)."""
    return f"{name} v{version}"


def is_version_alias(alias: str) -> bool:
    """Whether `alias` has the form of a hosted bot version's ladder name (`NAME vN`): kept for them."""
    name, sep, number = alias.rpartition(" v")
    return bool(sep) and NAME.fullmatch(name) is not None and number.isascii() and number.isdigit()


def bot_prefix(name: str) -> str:
    """The start of every pinned spec of hosted bot `name` (a name holds no ':', so no other bot's)."""
    return f"{HOSTED_PREFIX}{name}:"


def enroll(engine: Engine, name: str, version: int, games: Sequence[str]) -> str:
    """Put version `version` of hosted bot `name` on each game's ladder (made on first use) in place of
    its older versions; returns its ladder name.

    Then the bot's latest validated version is the one on the ladders, whichever was enrolled last: two
    versions submitted in a row may finish their validations in either order, or at once."""
    alias = version_alias(name, version)
    spec = pinned(name, version)
    skill = initial_skill(alias)
    for game in games:
        found = ladder_of(engine, game, create=True)
        assert found is not None
        add_entry(engine, found[0], alias, spec, skill.mu, skill.sigma)
    keep_only(engine, bot_prefix(name), literal(pinned_prefix(name)) + cast(latest_validated(name), String))
    return alias


def withdraw(engine: Engine, name: str) -> None:
    """Every version of hosted bot `name` leaves every ladder (it was retired)."""
    leave(engine, bot_prefix(name))


def ladder_ratings(engine: Engine, name: str) -> list[HostedLadderRow]:
    """Each version's rating on each ladder it joined, with its history (μ − 3σ after each recent match)."""
    return [HostedLadderRow(game=game, version=int(entry.spec.rsplit("=", 1)[1]), bot=entry.alias,
                            mu=round(entry.mu, 3), sigma=round(entry.sigma, 3),
                            conservative=round(entry.conservative, 3), matches=entry.matches, wins=entry.wins,
                            on_ladder=entry.active,
                            history=[round(x, 3) for x in rating_history(engine, ladder_id, entry.alias)])
            for game, ladder_id, entry in entries_of(engine, bot_prefix(name))]

