"""The protocol as clients/README.md writes it: message order, Welcome, and no seed for any bot.

Each test reads the raw stream of a real loopback arena, message by message.
"""

from __future__ import annotations

import concurrent.futures
import json
import sys
import threading
from pathlib import Path

from typer.testing import CliRunner

from tests.faults.faultlib import RawBot, reply_bytes
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.core import available_games
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.tournament.cli import app

ROOT = Path(__file__).resolve().parents[2]
MATCHES = 24


def _first_legal(request: pb.ActionRequest) -> list[bytes]:
    return [reply_bytes(request.match_id, request.request_id, 0)]


def _concerning(message: pb.ArenaMessage) -> str:
    """The match id a message is about ("" for session messages)."""
    kind = message.WhichOneof("kind")
    return str(getattr(getattr(message, kind), "match_id", "")) if kind else ""


def test_match_started_precedes_every_request_and_match_ended_follows_them(harness: ArenaHarness) -> None:
    bot = RawBot(harness.address, "orderly", _first_legal, slots=8)
    try:
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            records = list(pool.map(lambda i: harness.run_match("tiny-ninjas", ["remote:orderly", "random"], 50 + i,
                                                                move_ms=60_000), range(MATCHES)))
        assert all(r.termination in ("normal", "adjudication") for r in records), [r.reason for r in records]
        assert wait_for(lambda: len(bot.ended) == MATCHES)
        by_match: dict[str, list[str]] = {}
        for message in list(bot.received):
            mid = _concerning(message)
            if mid:
                by_match.setdefault(mid, []).append(str(message.WhichOneof("kind")))
        assert len(by_match) == MATCHES
        for mid, kinds in by_match.items():
            assert kinds[0] == "match_started", (mid, kinds[:3])
            assert kinds[-1] == "match_ended" and kinds.count("match_ended") == 1, (mid, kinds[-3:])
            assert "action_request" in kinds
    finally:
        bot.close()


def test_welcome_lists_every_hosted_game_when_hello_names_none(harness: ArenaHarness) -> None:
    bot = RawBot(harness.address, "anything", _first_legal)
    try:
        assert list(bot.welcome.games) == sorted(g.id for g in available_games())
        assert bot.welcome.games, "the arena hosts games"
    finally:
        bot.close()


def _seed_traces(seed: int) -> list[bytes]:
    """How a seed could travel: its decimal digits, and its varint (a uint64 protobuf field)."""
    value, varint = seed, bytearray()
    while value > 0x7F:
        varint.append((value & 0x7F) | 0x80)
        value >>= 7
    varint.append(value)
    return [str(seed).encode(), bytes(varint)]


def test_no_message_a_bot_receives_carries_the_seed(harness: ArenaHarness) -> None:
    seed = 987_654_321_987_654  # long enough that it cannot appear by chance
    bot = RawBot(harness.address, "nosy", _first_legal)
    try:
        for game in ("tiny-ninjas", "maitre-ninja", "ninja-versus-ninja"):
            record = harness.run_match(game, ["remote:nosy", "random"], seed, move_ms=60_000)
            assert record.seed == seed  # the organiser's record holds it
        assert wait_for(lambda: len(bot.ended) == 3)
        received = list(bot.received)
        assert [m.match_started.seed for m in received if m.WhichOneof("kind") == "match_started"] == [0, 0, 0]
        for message in received:
            data = message.SerializeToString()
            for trace in _seed_traces(seed):
                assert trace not in data, message.WhichOneof("kind")
    finally:
        bot.close()


DUMP_AND_PLAY = """
import json, os, runpy, sys
with open(sys.argv[1], "w") as out:
    json.dump({"env": dict(os.environ), "argv": sys.argv}, out)
bot = sys.argv[2]
sys.argv = [bot]
runpy.run_path(bot, run_name="__main__")
"""


def test_a_command_bot_gets_neither_the_seed_nor_the_organisers_secrets(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    seed = 123_456_789_123
    monkeypatch.setenv("TOURNEY_ADMIN_TOKEN", "organiser-only-secret")
    monkeypatch.setenv("TOURNEY_DB", "postgresql://organiser:pw@127.0.0.1/db")
    script = tmp_path / "dump_and_play.py"
    script.write_text(DUMP_AND_PLAY)
    seen = tmp_path / "seen.json"
    program = f"cmd:{sys.executable} {script} {seen} {ROOT / 'clients/python/examples/random_bot.py'}"
    result = CliRunner().invoke(app, ["arena-match", "--json", "--game", "tiny-ninjas", "--seed", str(seed), "--bots",
                                      f"{program},random"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["termination"] in ("normal", "adjudication")
    doc = json.loads(seen.read_text())
    given = json.dumps(doc)
    assert str(seed) not in given
    assert "organiser-only-secret" not in given and "TOURNEY_DB" not in doc["env"]
    assert {"TOURNEY_ARENA", "TOURNEY_TOKEN", "TOURNEY_BOT_NAME"} <= set(doc["env"])


def test_streams_under_one_name_are_one_bots_slots_filled_in_connection_order(harness: ArenaHarness) -> None:
    release = threading.Event()

    def held(request: pb.ActionRequest) -> list[bytes]:
        release.wait(WAIT_S)  # hold every match open until all three have been given out
        return _first_legal(request)

    first = RawBot(harness.address, "twin", held, slots=2)
    second = RawBot(harness.address, "twin", held, slots=2)
    try:
        sessions = harness.arena.connected("twin")
        assert len(sessions) == 2
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            running = [pool.submit(harness.run_match, "tiny-ninjas", ["remote:twin", "random"], 60 + i, 60_000)
                       for i in range(3)]
            # The first stream to connect fills its slots first; the next match goes to the second.
            assert wait_for(lambda: [s.active for s in sessions] == [2, 1]), [s.active for s in sessions]
            release.set()
            records = [r.result(WAIT_S * 2) for r in running]
        assert all(r.termination in ("normal", "adjudication") for r in records)
        assert wait_for(lambda: len(first.ended) + len(second.ended) == 3)
        assert (len(first.ended), len(second.ended)) == (2, 1)
    finally:
        release.set()
        first.close()
        second.close()
