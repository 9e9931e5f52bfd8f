"""Hello.json_view_only through a real arena: a Python SDK bot whose `typed_observation` is False is sent
observations that hold only their game message's `json`, and its `act` sees, request for request, the
very dict a bot that set no option is sent whole (number for number, key for key), over random matches of
every game and mode; a bot that reads the typed fields (the default) still gets them."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tourney_bot.client import observation_dict

from tests.faults.faultlib import RawBot, reply_bytes
from tests.server.harness import ArenaHarness, wait_for
from tourney.engine.core import get_game
from tourney.engine.server.client import Bot
from tourney.engine.server.generated import arena_pb2 as pb

GAMES = ("tiny-ninjas", "ninja-versus-ninja", "maitre-ninja", "ninja-arena")
# Every mode a RunMatch plays turn by turn (real time has a test of its own below).
CASES = [(g, m) for g in GAMES for m in get_game(g).modes if m != "realtime"]
_names = itertools.count()


def _config(game: str, mode: str) -> str:
    """The match configuration: the mode, and short Ninja Arena matches (every decision goes over gRPC twice)."""
    if game == "ninja-arena":
        return json.dumps({"mode": mode, "tick_cap": 60})
    return json.dumps({"mode": mode}) if game == "tiny-ninjas" else ""


def _choice(seed: int, seat: int, asked: int, legal: int) -> int:
    """The index a seat plays at its `asked`-th request: the same for two bots shown the same requests."""
    return random.Random(f"{seed}/{seat}/{asked}").randrange(legal)


class DictOnlyBot(Bot):
    """Reads only the observation dict (so the SDK asks for json_view_only), and keeps every one it got."""

    def __init__(self, seed: int, typed: bool = False) -> None:
        self.seed = seed
        self.typed_observation = typed
        self.seen: list[tuple[pb.ActionRequest, dict[str, Any]]] = []

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        self.seen.append((request, observation))
        return _choice(self.seed, request.seat, len(self.seen) - 1, len(legal_actions))


def _whole_bot(harness: ArenaHarness, name: str, seed: int) -> RawBot:
    """A bot that sets no option: every request carries the whole view and the typed fields."""
    asked = itertools.count()

    def answer(request: pb.ActionRequest) -> list[bytes]:
        index = _choice(seed, request.seat, next(asked), len(request.legal_actions))
        return [reply_bytes(request.match_id, request.request_id, index)]

    return RawBot(harness.address, name, answer)


def _play(harness: ArenaHarness, game: str, mode: str, seed: int, names: Sequence[str]) -> None:
    record = harness.run_match(game, [f"remote:{n}" for n in names], seed, move_ms=60_000,
                               config_json=_config(game, mode))
    assert record.termination in ("normal", "adjudication"), record.reason


def _typed_fields(request: pb.ActionRequest) -> list[str]:
    """The fields set in the request's game message."""
    which = request.observation.WhichOneof("game")
    assert which is not None
    return [f.name for f, _ in getattr(request.observation, which).ListFields()]


@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(CASES), seed=st.integers(1, 2**31))
def test_dict_only_bots_see_the_whole_views_without_typed_fields(harness: ArenaHarness, case: tuple[str, str],
                                                                seed: int) -> None:
    game, mode = case
    run = next(_names)
    whole_names = [f"whole-{run}-{seat}" for seat in (0, 1)]
    whole = [_whole_bot(harness, name, seed) for name in whole_names]
    _play(harness, game, mode, seed, whole_names)
    assert wait_for(lambda: all(len(b.ended) == 1 for b in whole))
    sdk_names = [f"dict-{run}-{seat}" for seat in (0, 1)]
    sdk = [DictOnlyBot(seed) for _ in (0, 1)]
    clients = [harness.bot(name, bot, inline=True) for name, bot in zip(sdk_names, sdk, strict=True)]
    _play(harness, game, mode, seed, sdk_names)
    assert wait_for(lambda: all(len(c.ended) == 1 for c in clients))
    assert whole[0].requests, "seat 0 was asked (in Solo, seat 1 is the game's own AI)"
    for seat in (0, 1):
        expected = [json.dumps(observation_dict(r.observation)) for r in whole[seat].requests]
        assert [json.dumps(view) for _, view in sdk[seat].seen] == expected
        assert all(_typed_fields(r) == ["json"] for r, _ in sdk[seat].seen)
        assert all(len(_typed_fields(r)) > 1 for r in whole[seat].requests)
        sent = sum(r.observation.ByteSize() for r, _ in sdk[seat].seen)
        assert sent < sum(r.observation.ByteSize() for r in whole[seat].requests) or not expected
    for bot in whole:
        bot.close()
    for client in clients:
        client.stop()


def test_a_bot_that_reads_typed_fields_still_gets_them(harness: ArenaHarness) -> None:
    bots = [DictOnlyBot(5, typed=True) for _ in (0, 1)]
    clients = [harness.bot(f"typed-{seat}", bot, inline=True) for seat, bot in enumerate(bots)]
    _play(harness, "tiny-ninjas", "standard", 5, ["typed-0", "typed-1"])
    assert wait_for(lambda: all(len(c.ended) == 1 for c in clients))
    for bot in bots:
        assert bot.seen and all("health" in _typed_fields(r) for r, _ in bot.seen)


def test_real_time_offers_leave_the_typed_fields_out_too(harness: ArenaHarness) -> None:
    bots = [DictOnlyBot(7) for _ in (0, 1)]
    clients = [harness.bot(f"live-{seat}", bot, inline=True) for seat, bot in enumerate(bots)]
    record = harness.stub.RunMatch(pb.RunMatchRequest(
        game="ninja-arena", seats=["remote:live-0", "remote:live-1"], seed=7, realtime=True,
        config_json=json.dumps({"mode": "realtime", "tick_cap": 30})), timeout=120)
    assert record.finished, record.reason
    assert wait_for(lambda: all(len(c.ended) == 1 for c in clients))
    seen = [r for bot in bots for r, _ in bot.seen]
    assert seen and all(_typed_fields(r) == ["json"] for r in seen)
    assert all(view.get("seat") == r.seat for bot in bots for r, view in bot.seen)
