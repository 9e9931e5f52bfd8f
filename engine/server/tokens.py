"""Bot tokens: the arena stores only their SHA-256, in a small JSON file (name -> hash).

`tourney bots add NAME` creates a token, prints it once and stores its hash here. The file
is $TOURNEY_TOKENS, or ~/.config/tourney/bots.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from pathlib import Path

from tourney.engine.core import ConfigError
from tourney.engine.core.environment import TOKENS_ENV
from tourney.engine.core.small_files import read_small

MAX_TOKEN_FILE = 16 << 20  # ~150,000 bots' names and hashes


def token_hash(token: str) -> str:
    """How bot tokens are stored: their SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


NAME = re.compile(r"^[A-Za-z0-9_.\-]{1,64}$")


def default_path() -> Path:
    """Where tokens live unless a path is given."""
    env = os.environ.get(TOKENS_ENV)
    if env:
        return Path(env)
    return Path.home() / ".config" / "tourney" / "bots.json"


def load_tokens(path: Path | None = None) -> dict[str, str]:
    """Bot name -> token hash; empty when the file does not exist yet."""
    path = path or default_path()
    if not path.exists():
        return {}
    try:
        data = json.loads(read_small(path, MAX_TOKEN_FILE, "token file"))
    except (ValueError, RecursionError):  # RecursionError: brackets nested past Python's parser
        raise ConfigError(f"token file {path} is not JSON: fix or delete it.") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ConfigError(f"token file {path} is not a name -> hash object: fix or delete it.")
    return data


def add_bot(name: str, path: Path | None = None) -> str:
    """Create (or replace) the token of bot `name`; returns the token, stores only its hash."""
    if not NAME.fullmatch(name):  # match() with $ would take a name ending in a newline
        raise ConfigError(f"bot name '{name}' must be 1-64 letters, digits, '_', '.' or '-': pick another.")
    path = path or default_path()
    tokens = load_tokens(path)
    token = secrets.token_urlsafe(24)
    tokens[name] = token_hash(token)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(tokens, indent=1, sort_keys=True))
    os.chmod(tmp, 0o600)
    tmp.replace(path)
    return token
