"""Who is on a ladder: adding a bot spec (checked as `tourney run` checks it) and the standings."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from tourney.engine.core import ConfigError, get_game
from tourney.tournament.entrants import Entrant, parse_entrants
from tourney.tournament.ladder.hosted_entries import enroll, is_version_alias
from tourney.tournament.rating.ratings import initial_skill
from tourney.tournament.responses import LadderBotRow, LadderDoc, LadderMatchRow, LadderSeatDoc
from tourney.tournament.store.hosted import resolve_version
from tourney.tournament.store.ladder_rows import (
    LadderEntry,
    add_entry,
    ladder_of,
    match_counts,
    ranked,
    recent_matches,
)
from tourney.workers.program_specs import is_hosted, parse_hosted, pinned

MAX_ALIAS = 200  # what the web app accepts as a name; longer aliases could not be looked up


def add_bot(engine: Engine, game: str, text: str) -> Entrant:
    """Enter one bot spec (`SPEC[@ALIAS]`) on the game's ladder, made on first use; it starts at the prior.

    A hosted bot enters as its version (`hosted:NAME` its latest validated one), as validation
    enters it (hosted_entries.enroll): under the name `NAME vN`, in place of its other versions.
    """
    g = get_game(game)
    found_bots = parse_entrants(text, g)
    if len(found_bots) != 1:
        raise ConfigError(f"'{text}' names {len(found_bots)} bots: add them one at a time.")
    entrant = found_bots[0]
    if is_hosted(entrant.spec):
        name, number = parse_hosted(entrant.spec)
        version = resolve_version(engine, name, number)
        alias = enroll(engine, name, version.version, [game])
        return Entrant(alias, pinned(name, version.version))
    if is_version_alias(entrant.alias):  # else that version, once validated, could not join the ladder
        raise ConfigError(f"the name '{entrant.alias}' has the form of a hosted bot's version (NAME vN), which "
                          "joins the ladder under it: give another with SPEC@NAME.")
    if len(entrant.alias) > MAX_ALIAS:
        raise ConfigError(f"the name '{entrant.alias[:40]}...' is longer than {MAX_ALIAS} characters: "
                          "give a shorter one with SPEC@NAME.")
    found = ladder_of(engine, game, create=True)
    assert found is not None
    skill = initial_skill(entrant.alias)
    add_entry(engine, found[0], entrant.alias, entrant.spec, skill.mu, skill.sigma)
    return entrant


def standings(engine: Engine, game: str, limit: int | None = None) -> list[LadderEntry]:
    """The ladder's bots by conservative rating μ − 3σ, best first; an unknown ladder is one sentence."""
    return ranked(engine, _ladder_id(engine, game), limit)


def ladder_doc(engine: Engine, game: str, limit: int | None = None, *, specs: bool) -> LadderDoc:
    """The game's ladder as one document: match counts, its best `limit` bots (all: None) and its latest
    matches; each bot's spec only with `specs` (the organiser's view)."""
    ladder_id = _ladder_id(engine, game)
    bots = [LadderBotRow(rank=i + 1, bot=e.alias, spec=e.spec if specs else None, mu=round(e.mu, 3),
                         sigma=round(e.sigma, 3), conservative=round(e.conservative, 3), matches=e.matches,
                         wins=e.wins)
            for i, e in enumerate(ranked(engine, ladder_id, limit))]
    matches = [LadderMatchRow(number=m.number, termination=m.termination, finished_at=m.finished_at,
                              seats=[LadderSeatDoc(bot=alias, tier=tier) for alias, tier in m.seats])
               for m in recent_matches(engine, ladder_id)]
    return LadderDoc(game=game, **match_counts(engine, ladder_id), bots=bots, matches=matches)


def _ladder_id(engine: Engine, game: str) -> int:
    get_game(game)  # an unknown game is its own sentence
    found = ladder_of(engine, game, create=False)
    if found is None:
        raise ConfigError(f"there is no {game} ladder in this store: add bots with `tourney ladder add SPEC "
                          f"--game {game}`, or check --db.")
    return found[0]
