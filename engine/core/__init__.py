"""The game interface shared by every game, bot and layer above them."""

from tourney.engine.core.bot_options import BotOption
from tourney.engine.core.budget import Budget, Clock, OutOfTime, anytime_options, default_clock, fixed_iterations
from tourney.engine.core.chance import Chance, Inject
from tourney.engine.core.decision import DecisionRequest, Seat, SeatDisconnected, SeatFault, SeatTimeout
from tourney.engine.core.encoding import Encoding, Features
from tourney.engine.core.errors import ConfigError, IllegalAction, ReplayMismatch, TourneyError, UnknownGame
from tourney.engine.core.game import Action, Game, Illegal, Observation, Outcome, State
from tourney.engine.core.json_view import json_ready, jsonable
from tourney.engine.core.options import CliFlag, Option, Options
from tourney.engine.core.registry import available_games, game_ids, get_game, register
from tourney.engine.core.replay import Decision, Replay
from tourney.engine.core.result import MatchResult, SeatResult, SeatStats, forfeit_seat_of, match_result
from tourney.engine.core.termination import (
    CAP_REASON,
    FAULT_KINDS,
    Termination,
    adjudicated_draw,
    fault_reason,
    forfeit,
    kind_of,
    termination_of,
)
from tourney.engine.core.view_delta import view_delta

__all__ = [
    "CAP_REASON",
    "FAULT_KINDS",
    "Features",
    "Action",
    "BotOption",
    "Budget",
    "Clock",
    "Chance",
    "CliFlag",
    "ConfigError",
    "Decision",
    "DecisionRequest",
    "Encoding",
    "Game",
    "Illegal",
    "IllegalAction",
    "Inject",
    "Observation",
    "Option",
    "Options",
    "OutOfTime",
    "MatchResult",
    "Outcome",
    "Replay",
    "ReplayMismatch",
    "Seat",
    "SeatResult",
    "SeatStats",
    "SeatDisconnected",
    "SeatFault",
    "SeatTimeout",
    "State",
    "Termination",
    "TourneyError",
    "UnknownGame",
    "adjudicated_draw",
    "anytime_options",
    "available_games",
    "default_clock",
    "fixed_iterations",
    "fault_reason",
    "forfeit_seat_of",
    "forfeit",
    "game_ids",
    "get_game",
    "json_ready",
    "jsonable",
    "kind_of",
    "match_result",
    "register",
    "termination_of",
    "view_delta",
]
