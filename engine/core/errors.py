"""Errors a user can hit. Each message is one sentence that names the problem and the fix."""


class TourneyError(Exception):
    """Base of every error whose message is meant for a person, not a traceback."""


class ConfigError(TourneyError):
    """A game, mode, bot or flag value that cannot be used as given."""


class UnknownGame(ConfigError):
    """A game id that is not in the registry."""


class IllegalAction(TourneyError):
    """An action that is not in the acting seat's legal list."""


class ReplayMismatch(TourneyError):
    """A stored replay that this version of its game cannot play again move for move."""
