"""A hosted bot as one document, what `tourney bot show --json` prints and `/api/hosted/NAME` builds on."""

from __future__ import annotations

import json

from sqlalchemy.engine import Engine

from tourney.tournament.ladder.hosted_entries import ladder_ratings
from tourney.tournament.responses import HostedBotDoc, HostedVersionDoc
from tourney.tournament.store.hosted import hosted_bot


def hosted_bot_doc(engine: Engine, name: str, *, logs: bool) -> HostedBotDoc:
    """Hosted bot `name`: its versions (their validation logs only with `logs`: the author's and the
    organiser's) and each version's ladder ratings; one sentence when there is no such bot."""
    bot, versions = hosted_bot(engine, name)
    rows = [HostedVersionDoc(version=v.version, sha256=v.sha256, run=v.run, games=json.loads(v.games_json),
                             files=v.files, bytes=v.size, status=v.status, reason=v.status_reason,
                             log=v.log_tail if logs else None, submitted=v.created_at.isoformat())
            for v in versions]
    return HostedBotDoc(name=bot.name, retired=bot.retired, versions=rows, ladders=ladder_ratings(engine, name))
