"""The arena's admin token must be a secret: placeholders and short words are refused.

A deployment that keeps an example value (`change-me`) lets anyone who read the example run
matches and read full replays. `tourney serve` checks the token it is given before listening.
"""

from __future__ import annotations

import re

from tourney.engine.core import ConfigError
from tourney.engine.core.environment import ADMIN_TOKEN_ENV

MIN_LENGTH = 16
# Words an example or a hurried operator puts in place of a secret (compared without case,
# spaces, dashes or underscores).
PLACEHOLDERS = frozenset({
    "changeme", "changemenow", "changethis", "replaceme", "admin", "administrator", "password", "passw0rd",
    "secret", "token", "admintoken", "default", "example", "test", "testing", "tourney", "letmein", "qwerty",
    "xxx", "todo", "fixme", "yoursecret", "yourtoken", "setme",
})


def _normal(token: str) -> str:
    return re.sub(r"[\s_\-.]", "", token).lower()


def weak_reason(token: str) -> str | None:
    """Why `token` is no secret (one phrase), or None when it may be used."""
    normal = _normal(token)
    if normal in PLACEHOLDERS or any(normal.startswith(p) and len(normal) < len(p) + 8 for p in PLACEHOLDERS):
        return "it is a placeholder"
    if len(token) < MIN_LENGTH:
        return f"it is shorter than {MIN_LENGTH} characters"
    if len(set(token)) < 6:
        return "it repeats a few characters"
    return None


def check_admin_token(token: str, generated_when_unset: bool = True) -> None:
    """Raise ConfigError (one sentence, with the fix) for a token that is no secret.

    `generated_when_unset`: the command makes a token of its own when none is given (`serve`, `web`), so
    leaving it unset is a fix too; `export --full` needs one given, so the sentence does not offer that."""
    why = weak_reason(token)
    if why is not None:
        unset = ", or leave it unset to have one generated" if generated_when_unset else ""
        raise ConfigError(f"the admin token is not a secret ({why}): set {ADMIN_TOKEN_ENV} to e.g. the output "
                          f"of `openssl rand -base64 24`{unset}.")
