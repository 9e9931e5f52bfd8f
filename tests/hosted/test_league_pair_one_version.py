"""Both games of a league's duplicate pair are played by one version of a hosted bot.

The attack: a league plays a hosted member's latest validated version at each match, and the two
games of a duplicate pair share one deal (a hosted bot starts afresh each match, so it may: Ninja
Versus Ninja's dice are the same in both, seats swapped). The first game is stored, public, as soon
as it ends, while the mirror still waits its turn in the round. Its author reads the dice from it,
uploads a version that plays them, and the mirror, started after that version is validated, is
played by it: the deal reached the mirror's seat before the mirror was played.

Two worlds, with the real sandbox: in one the author uploads a new version between the two games of
the round, in the other not. The mirror's public record must be the same bytes in both.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tests.hosted.bundles import GAME, bot_source
from tourney.engine.public_replay import public_frames
from tourney.engine.referee import Replay
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.store import writes  # where a division tournament gets its seed key
from tourney.tournament.store.codec import unpack_replay
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import VALIDATED, add_version, set_status
from tourney.tournament.store.tables import Match
from tourney.workers.local import LocalExecutor
from tourney.workers.sandbox import pack_bundle

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]

BOT = "mallory"
CREATED = datetime(2026, 3, 1, tzinfo=UTC)
FIRST = bot_source("first")  # always its first legal action
INFORMED = FIRST.replace("return 0", "return len(legal_actions) - 1")  # plays otherwise: "it knows the dice"


def store_version(engine: Engine, folder: Path, source: str) -> None:
    """Store `source` as the bot's next version, validated (as a finished validation leaves it)."""
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(source)
    packed, sha256, files = pack_bundle(folder)
    version = add_version(engine, BOT, packed, sha256, files, "python3 bot.py", [GAME])
    assert version.id is not None
    set_status(engine, version.id, VALIDATED)


class PlayerDied(Exception):
    """The round's player ended after the first game (its claim given back, as a dying process's is)."""


class AuthorBetweenGames:
    """Plays the round's matches one at a time in this process; once the first is handed back (and so
    stored, public), `between()` runs: what the author does before the mirror starts. With `dies`, the
    player then ends, and the mirror is left to whoever takes the round over."""

    workers = 1

    def __init__(self, between: Callable[[], None], dies: bool = False) -> None:
        self.inner = LocalExecutor(chunk_s=0)  # one match a chunk: each is stored as it ends
        self.between = between
        self.dies = dies

    def run(self, plan: Any, pairings: Sequence[Any], more: Any = None) -> Iterator[list[Any]]:
        for n, chunk in enumerate(self.inner.run(plan, pairings, more)):
            yield chunk
            if n == 0:
                self.between()
                if self.dies:
                    raise PlayerDied

    def close(self) -> None:
        self.inner.close()


def mirror_seen(tmp_path: Path, upload_between: bool, taken_over: bool = False) -> tuple[list[int], str]:
    """Play a league's first round (a duplicate pair: hosted:mallory and random); the seeds of its two games
    and the mirror's public record (frames and result) as JSON. `taken_over`: the round's player dies after
    the first game and another call of run_due plays the mirror."""
    tmp_path.mkdir()
    engine = open_store(f"sqlite:///{tmp_path / 'league.db'}")
    store_version(engine, tmp_path / "v1", FIRST)
    create_league(engine, LeagueSettings(name="pairs", game=GAME, format="round-robin", schedule="0 * * * *",
                                         games_per_pair=2, move_ms=10_000), now=CREATED)
    join_league(engine, "pairs", f"hosted:{BOT}", now=CREATED)
    join_league(engine, "pairs", "random", now=CREATED)

    def between() -> None:
        if upload_between:
            store_version(engine, tmp_path / "v2", INFORMED)

    def clock() -> datetime:
        return CREATED + timedelta(hours=2)

    if taken_over:
        with pytest.raises(PlayerDied):
            run_due(engine, "pairs", clock=clock, executor=AuthorBetweenGames(between, dies=True), max_rounds=1)
        assert [r.status for r in run_due(engine, "pairs", clock=clock, executor=LocalExecutor(chunk_s=0),
                                          max_rounds=1)] == ["done"]
    else:
        run_due(engine, "pairs", clock=clock, executor=AuthorBetweenGames(between), max_rounds=1)
    with Session(engine) as session:
        games = session.exec(select(Match).order_by(col(Match.number))).all()
    assert len(games) == 2
    mirror = games[1]
    frames = public_frames(Replay.from_dict(unpack_replay(mirror.replay_json)))
    return [g.seed for g in games], json.dumps([frames, mirror.termination, mirror.reason], sort_keys=True)


def test_a_version_uploaded_after_the_first_game_does_not_play_the_mirror(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writes, "new_seed_key", lambda: "k" * 32)  # both worlds deal the same: only the upload differs
    seeds, quiet = mirror_seen(tmp_path / "quiet", upload_between=False)
    assert seeds[0] == seeds[1]  # a duplicate pair: one deal, seats swapped
    _, informed = mirror_seen(tmp_path / "informed", upload_between=True)
    assert informed == quiet


def test_a_round_taken_over_after_an_upload_plays_the_mirror_with_the_pinned_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writes, "new_seed_key", lambda: "k" * 32)
    _, quiet = mirror_seen(tmp_path / "quiet", upload_between=False, taken_over=True)
    _, informed = mirror_seen(tmp_path / "informed", upload_between=True, taken_over=True)
    assert informed == quiet
