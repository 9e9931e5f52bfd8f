"""The ladder pages' data: the ladders in the store, and one game's standings with its latest matches.

Only public facts: aliases, ratings, counts and results (never a bot's spec, which may name the
organiser's programs and paths, nor a seed).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine

from tourney.engine.core import TourneyError
from tourney.tournament.ladder.members import standings_doc
from tourney.tournament.store.ladder_rows import ladder_games, ladder_of, recent_matches
from tourney.web.reads import PAGE_SIZE, NotFound

SHOWN_BOTS = 200  # a ladder page lists the best this many (a ladder may hold 100,000)


def ladders(engine: Engine) -> dict[str, Any]:
    """Every game's ladder with its number of bots."""
    return {"ladders": ladder_games(engine)}


def ladder(engine: Engine, game: str) -> dict[str, Any]:
    """A game's ladder: match counts, the best SHOWN_BOTS by μ − 3σ, and the latest PAGE_SIZE matches."""
    try:
        doc = standings_doc(engine, game, SHOWN_BOTS)
    except TourneyError:
        raise NotFound(f"there is no ladder for '{game[:60]}'") from None
    found = ladder_of(engine, game, create=False)
    assert found is not None
    for bot in doc["bots"]:
        del bot["spec"]
    doc["matches"] = recent_matches(engine, found[0], PAGE_SIZE)
    return doc
