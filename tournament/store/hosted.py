"""Reading and writing hosted bots: submit a version, record its validation, resolve a spec, fetch bytes."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence

from sqlalchemy.engine import Engine
from sqlalchemy.sql.selectable import ScalarSelect
from sqlmodel import Session, col, func, select

from tourney.engine.core import ConfigError
from tourney.tournament.store.hosted_tables import BundleBlob, HostedBot, HostedVersion

VALIDATED = "validated"
FAILED = "failed"
PENDING = "pending"
# What one hosted bot keeps in the store: every submission is a version of up to 32 MiB packed, its author may
# upload one after another without end, and none is ever deleted (a pinned tournament or a ladder plays it).
MAX_VERSIONS = 200
MAX_BOT_BYTES = 1 << 30  # packed bundle bytes, each distinct bundle counted once


def add_version(engine: Engine, name: str, packed: bytes, sha256: str, files: int, run: str,
                games: Sequence[str]) -> HostedVersion:
    """Store a new version of bot `name` (made on its first submission), pending validation."""
    with Session(engine) as session:
        bot = session.exec(select(HostedBot).where(HostedBot.name == name)).first()
        if bot is None:
            bot = HostedBot(name=name)
            session.add(bot)
            session.flush()
        elif bot.retired:
            raise ConfigError(f"hosted bot '{name}' is retired: submit under another name.")
        kept = session.exec(select(HostedVersion.sha256, HostedVersion.size)
                             .where(HostedVersion.bot_id == bot.id)).all()
        _check_room(name, [(k, n) for k, n in kept], sha256, len(packed))
        if session.get(BundleBlob, sha256) is None:
            session.add(BundleBlob(sha256=sha256, data=packed))
        last = session.exec(select(func.max(HostedVersion.version)).where(HostedVersion.bot_id == bot.id)).one()
        assert bot.id is not None
        row = HostedVersion(bot_id=bot.id, version=(last or 0) + 1, sha256=sha256, run=run,
                            games_json=json.dumps(list(games)), files=files, size=len(packed))
        session.add(row)
        session.commit()
        session.refresh(row)
        return row


def _check_room(name: str, kept: list[tuple[str, int]], sha256: str, size: int) -> None:
    """One sentence unless bot `name`, whose versions keep bundles `kept` ((sha256, packed bytes) each), has
    room for one more version, of bundle `sha256` of `size` bytes."""
    if len(kept) >= MAX_VERSIONS:
        raise ConfigError(f"hosted bot '{name}' keeps {MAX_VERSIONS} versions already, the most one bot may: ask "
                          "the organiser to submit it under a new name.")
    bundles = dict(kept)
    held = sum(bundles.values()) + (0 if sha256 in bundles else size)
    if held > MAX_BOT_BYTES:
        raise ConfigError(f"hosted bot '{name}' would keep {held >> 20} MiB of bundles with this version, over the "
                          f"{MAX_BOT_BYTES >> 20} MiB one bot may: submit a smaller bundle, or ask the organiser to "
                          "submit it under a new name.")


def set_status(engine: Engine, version_id: int, status: str, reason: str = "", log_tail: str = "") -> None:
    """Record how a version's validation ended (the log's tail apart: only its author sees it)."""
    with Session(engine) as session:
        row = session.get(HostedVersion, version_id)
        assert row is not None
        row.status, row.status_reason, row.log_tail = status, reason, log_tail
        session.add(row)
        session.commit()


def newest_pending_id(engine: Engine) -> int:
    """The id of the newest version still pending validation; 0 when none is."""
    with Session(engine) as session:
        newest = session.exec(select(func.max(HostedVersion.id)).where(HostedVersion.status == PENDING)).one()
    return newest or 0


def next_pending(engine: Engine, after: int, upto: int) -> tuple[str, HostedVersion] | None:
    """The first version uploaded after id `after` and up to id `upto` that is still pending, with its bot's
    name; None when there is none."""
    with Session(engine) as session:
        found = session.exec(select(HostedBot.name, HostedVersion).where(HostedVersion.bot_id == HostedBot.id)
                             .where(HostedVersion.status == PENDING, col(HostedVersion.id) > after,
                                    col(HostedVersion.id) <= upto)
                             .order_by(col(HostedVersion.id)).limit(1)).first()
    return None if found is None else (found[0], found[1])


def hosted_bot(engine: Engine, name: str) -> tuple[HostedBot, list[HostedVersion]]:
    """A hosted bot and its versions, oldest first; one sentence when there is none of that name."""
    with Session(engine) as session:
        bot = session.exec(select(HostedBot).where(HostedBot.name == name)).first()
        if bot is None:
            raise ConfigError(f"there is no hosted bot '{name}': `tourney bot list` shows them, "
                              "`tourney bot submit` adds one.")
        versions = session.exec(select(HostedVersion).where(HostedVersion.bot_id == bot.id)
                                .order_by(col(HostedVersion.version))).all()
        return bot, list(versions)


def hosted_bots(engine: Engine) -> list[tuple[HostedBot, list[HostedVersion]]]:
    """Every hosted bot with its versions, by name."""
    with Session(engine) as session:
        bots = session.exec(select(HostedBot).order_by(col(HostedBot.name))).all()
        versions = session.exec(select(HostedVersion).order_by(col(HostedVersion.version))).all()
    return [(b, [v for v in versions if v.bot_id == b.id]) for b in bots]


def resolve_version(engine: Engine, name: str, version: int | None) -> HostedVersion:
    """Version `version` of bot `name`, or its latest validated one; one sentence when there is none."""
    bot, versions = hosted_bot(engine, name)
    if bot.retired:
        raise ConfigError(f"hosted bot '{name}' is retired: choose another bot.")
    if version is not None:
        found = [v for v in versions if v.version == version]
        if not found:
            raise ConfigError(f"hosted bot '{name}' has no version {version}: it has "
                              f"{', '.join(str(v.version) for v in versions)}.")
        return found[0]
    validated = [v for v in versions if v.status == VALIDATED]
    if not validated:
        raise ConfigError(f"hosted bot '{name}' has no validated version yet: `tourney bot show {name}` "
                          "says why, or name one with hosted:NAME:version=N.")
    return validated[-1]


def latest_validated(name: str) -> ScalarSelect[int]:
    """SQL for the number of bot `name`'s latest validated version (NULL: none, or the bot is retired),
    read by the statement it is part of."""
    return (select(func.max(HostedVersion.version)).join(HostedBot, col(HostedBot.id) == col(HostedVersion.bot_id))
            .where(HostedBot.name == name, HostedVersion.status == VALIDATED, col(HostedBot.retired).is_(False))
            .scalar_subquery())


def retire(engine: Engine, name: str) -> None:
    """Retire a bot: it plays no new match (its versions and results stay)."""
    with Session(engine) as session:
        bot = session.exec(select(HostedBot).where(HostedBot.name == name)).first()
        if bot is None:
            raise ConfigError(f"there is no hosted bot '{name}': `tourney bot list` shows them.")
        bot.retired = True
        session.add(bot)
        session.commit()


def set_token(engine: Engine, name: str) -> str:
    """A fresh token for bot `name`'s author (the old one stops working); only its hash is stored."""
    token = secrets.token_urlsafe(24)
    with Session(engine) as session:
        bot = session.exec(select(HostedBot).where(HostedBot.name == name)).first()
        if bot is None:
            raise ConfigError(f"there is no hosted bot '{name}': `tourney bot submit` adds one.")
        bot.token_hash = hashlib.sha256(token.encode()).hexdigest()
        session.add(bot)
        session.commit()
    return token


def is_author(bot: HostedBot, token: str | None) -> bool:
    """True when `token` is the bot's author's (compared in constant time)."""
    if not token or not bot.token_hash:
        return False
    return hmac.compare_digest(hashlib.sha256(token.encode()).hexdigest(), bot.token_hash)


def bundle_bytes(engine: Engine, sha256: str) -> bytes:
    """A stored bundle's bytes."""
    with Session(engine) as session:
        blob = session.get(BundleBlob, sha256)
        if blob is None:
            raise ConfigError(f"the store has no bundle {sha256[:12]}: submit the bot again.")
        return blob.data
