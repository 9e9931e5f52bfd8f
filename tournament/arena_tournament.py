"""A tournament played on a running arena (`tourney run --arena`): what the tournament side keeps of it.

The arena's address is remembered with the tournament (its settings), never the admin token, so a
plain `tourney resume` finishes it on the same arena; and a bare bot name that is no built-in bot
but names a bot connected to the arena is pointed out (the author meant remote:NAME). The matches
themselves are played by workers/arena.py.
"""

from __future__ import annotations

from sqlalchemy.engine import Engine

from tourney.engine.bots import make_bot
from tourney.engine.core import ConfigError, Game, TourneyError
from tourney.tournament.entrants import REMOTE, split_bot_list
from tourney.tournament.store.reads import stored_setting
from tourney.tournament.store.writes import save_setting
from tourney.workers.arena import check_connected

ARENA_SETTING = "arena"  # the key of the arena's address in Tournament.settings_json


def remember_arena(engine: Engine, tournament_id: int, address: str) -> None:
    """Store the arena's address with the tournament (the token stays with the organiser)."""
    save_setting(engine, tournament_id, ARENA_SETTING, address)


def remembered_arena(engine: Engine, tournament_id: int) -> str | None:
    """The address of the arena the tournament was played on, or None (played on workers)."""
    address = stored_setting(engine, tournament_id, ARENA_SETTING)
    return address if isinstance(address, str) and address else None




def connected_by_that_name(address: str, admin_token: str, game: Game, bots: str) -> str | None:
    """The first bare name in the bot list `bots` that is no built-in bot of `game` but names a bot
    connected to the arena (so the author meant remote:NAME), or None.

    Each candidate is probed as check_connected does, waiting a second at most; an arena that
    cannot be asked suggests nothing.
    """
    for entry in split_bot_list(bots):
        name = entry.strip().partition("@")[0]
        if not name or ":" in name:
            continue
        try:
            make_bot(name, game, 0)
            continue  # a built-in bot: not the one refused
        except ConfigError:
            pass
        try:
            check_connected(address, admin_token, game.id, game.min_players, REMOTE + name, wait_s=1)
        except TourneyError:
            continue
        return name
    return None
