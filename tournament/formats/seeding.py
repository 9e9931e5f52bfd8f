"""Match seeds only the organiser can compute: a keyed hash of (tournament seed, match number).

A match's seed decides every hidden card and every die of that match, so a bot that can
compute it knows its opponent's hand. The tournament seed and the match numbers are no
secret (the default seed is 1; a finished match's seed is shown with its result), so the
seed of match k is HMAC-SHA256 under a key secret to the organiser: generated for every new
tournament and stored with it, or given with `--seed-key` to replay a whole tournament run
to run. Tournaments stored before keys existed have an empty key and keep their plain hash,
so they resume exactly as they began.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from tourney.engine.core import ConfigError
from tourney.engine.core.chance import stream_start

KEY_MIN_CHARS = 16
KEY_MAX_CHARS = 256
LEGACY_KEY = ""  # the stored key of a tournament made before seeds were keyed


def new_seed_key() -> str:
    """A fresh 256-bit key from the operating system's secure random source, as hex."""
    return secrets.token_hex(32)


def check_seed_key(key: str) -> str:
    """The organiser's `--seed-key`, checked: long enough that nobody guesses it, short enough to store."""
    if not KEY_MIN_CHARS <= len(key) <= KEY_MAX_CHARS or not key.isprintable():
        raise ConfigError(f"--seed-key must be {KEY_MIN_CHARS} to {KEY_MAX_CHARS} printable characters that only "
                          f"the organiser knows (it has {len(key)}): make one with "
                          "`python -c 'import secrets; print(secrets.token_hex(32))'`.")
    return key


def keyed_match_seed(key: str, tournament_seed: int, offset: int, kind: str = "match") -> int:
    """The seed of the offset-th game (duplicate pairs share one); kept below 2**62 for SQL.

    kind "deal" names another family of seeds: the deal of match number `offset` alone, for a
    table whose games must not share a deal (see TournamentPlan.seed_of). With the legacy empty
    key it is the unkeyed hash every tournament used before keys.
    """
    if key == LEGACY_KEY:
        return stream_start(tournament_seed, f"{kind}/{offset}") >> 2
    digest = hmac.new(key.encode(), f"{tournament_seed}/{kind}/{offset}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2
