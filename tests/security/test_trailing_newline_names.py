"""Names checked with `re.match` and a pattern ending in `$` took a trailing newline (`$` matches before
one): a hosted bot's name, an arena bot's token name, a live match id on the web."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.web.browser import served
from tourney.engine.core import ConfigError
from tourney.engine.server.tokens import add_bot, load_tokens
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app
from tourney.workers.program_specs import check_name


def test_a_hosted_bot_name_ending_in_a_newline_is_refused() -> None:
    assert check_name("eve") == "eve"
    with pytest.raises(ConfigError, match="is not a hosted bot name"):
        check_name("eve\n")


def test_a_token_name_ending_in_a_newline_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    add_bot("eve", path)
    with pytest.raises(ConfigError, match="must be 1-64 letters"):
        add_bot("eve\n", path)
    assert set(load_tokens(path)) == {"eve"}


def test_a_live_match_id_ending_in_a_newline_is_refused(tmp_path: Path) -> None:
    # The arena address is never dialled: the id is refused before any stream opens.
    with served(create_app(open_store(str(tmp_path / "t.db")), arena="127.0.0.1:9")) as base:
        bad = httpx.get(f"{base}/api/live/m1%0A/events", timeout=30)
    assert bad.status_code == 404 and "letters, digits" in bad.text
