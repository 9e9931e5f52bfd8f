"""The ladder pages' data: the ladders in the store, and one game's standings with its latest matches.

Only public facts: aliases, ratings, counts and results (never a bot's spec, which may name the
organiser's programs and paths, nor a seed).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine

from tourney.engine.core import TourneyError
from tourney.tournament.ladder.members import ladder_doc
from tourney.tournament.store.ladder_rows import ladder_games
from tourney.web.reads import NotFound

SHOWN_BOTS = 200  # a ladder page lists the best this many (a ladder may hold 100,000)


def ladders(engine: Engine) -> dict[str, Any]:
    """Every game's ladder with its number of bots."""
    return {"ladders": ladder_games(engine)}


def ladder(engine: Engine, game: str) -> dict[str, Any]:
    """A game's ladder: match counts, the best SHOWN_BOTS by μ − 3σ, and the latest matches; no specs."""
    try:
        doc = ladder_doc(engine, game, SHOWN_BOTS, specs=False)
    except TourneyError:
        raise NotFound(f"there is no ladder for '{game[:60]}'") from None
    return doc.model_dump(exclude={"bots": {"__all__": {"spec"}}})
