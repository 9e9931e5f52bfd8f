"""Finished matches in public: GetMatch and Watch show only what the rules reveal; the full replay
(seed, decisions) needs the admin token.

Two worlds that differ only in a card nobody but its owner ever sees: a Maître Ninja attacker at
rank 2 lays Fi then As in one world, Fi then Sh in the other; the defender cannot parry Fi, so
the fight ends before the second card is flipped (spec A8: never revealed). Everything public is
the same, so the public records must be the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import grpc
import pytest

from tests.faults.faultlib import RawBot, reply_bytes
from tests.server.harness import WAIT_S, ArenaHarness
from tourney.engine.public_replay import frames_of
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

ADMIN = "organiser-secret"
SEED = 77
CONFIG = json.dumps({"first_player": 0, "fight_cap": 3})
SECOND_CARD = {"a": "Fi As", "b": "Fi Sh"}  # the attacker's rank-2 line in each world


@pytest.fixture
def arena() -> Iterator[ArenaHarness]:
    harness = ArenaHarness(ArenaConfig(allow_anonymous=True, admin_token=ADMIN, default_move_ms=20_000))
    try:
        yield harness
    finally:
        harness.close()


def _chooser(world: list[str], attacker: bool):  # type: ignore[no-untyped-def]
    """Pick this world's line when offered, else the first action without a BL parry (Fi stays unparried)."""
    def answer(request: pb.ActionRequest) -> list[bytes]:
        labels = [a.label for a in request.legal_actions]
        wanted = SECOND_CARD[world[0]] if attacker else None
        index = labels.index(wanted) if wanted in labels else next(i for i, lb in enumerate(labels) if "BL" not in lb)
        return [reply_bytes(request.match_id, request.request_id, index)]
    return answer


def _play_world(arena: ArenaHarness, world: list[str], name: str) -> tuple[pb.MatchRecord, pb.MatchRecord]:
    """(full record, public record) of this world's match."""
    record = arena.run_match("maitre-ninja", ["remote:attacker", "remote:defender"], SEED, config_json=CONFIG,
                             admin_token=ADMIN, match_id=name)
    assert record.termination in ("normal", "adjudication"), record.reason
    full = arena.stub.GetMatch(pb.GetMatchRequest(match_id=name, admin_token=ADMIN), timeout=WAIT_S)
    public = arena.stub.GetMatch(pb.GetMatchRequest(match_id=name), timeout=WAIT_S)
    assert full == record and full.full_replay and full.seed == SEED
    return full, public


def _anonymous(record: pb.MatchRecord) -> bytes:
    """The record's bytes without its match id (the one thing the worlds may differ in)."""
    copy = pb.MatchRecord()
    copy.CopyFrom(record)
    copy.match_id = ""
    return copy.SerializeToString()


def test_public_records_of_two_worlds_differing_in_an_unflipped_card_are_identical(arena: ArenaHarness) -> None:
    world = ["a"]
    bots = [RawBot(arena.address, "attacker", _chooser(world, True)),
            RawBot(arena.address, "defender", _chooser(world, False))]
    try:
        full_a, public_a = _play_world(arena, world, "world-a")
        world[0] = "b"
        full_b, public_b = _play_world(arena, world, "world-b")
    finally:
        for bot in bots:
            bot.close()
    # The worlds really differ: the organiser's replays hold different second cards ...
    assert json.loads(full_a.replay_json)["steps"] != json.loads(full_b.replay_json)["steps"]
    # ... and that card was never flipped: in public the two matches are the same bytes.
    assert _anonymous(public_a) == _anonymous(public_b)
    assert public_a.seed == 0 and not public_a.full_replay
    frames = frames_of(json.loads(public_a.replay_json))
    assert len(frames) == len(json.loads(full_a.replay_json)["steps"]) + 1
    assert frames[-1]["history"][-1]["face_down"] == 1  # the hidden card, counted but not named
    assert "As" not in public_a.replay_json and "Sh" not in public_a.replay_json
    # A wrong token is no token.
    wrong = arena.stub.GetMatch(pb.GetMatchRequest(match_id="world-a", admin_token="guess"), timeout=WAIT_S)
    assert wrong == public_a


def test_the_last_watch_event_has_no_replay_unless_the_organiser_watches(arena: ArenaHarness) -> None:
    record = arena.run_match("tiny-ninjas", ["random", "random"], 5, admin_token=ADMIN, match_id="watched")
    public = list(arena.stub.Watch(pb.WatchRequest(match_id="watched"), timeout=WAIT_S))[-1]
    organiser = list(arena.stub.Watch(pb.WatchRequest(match_id="watched", admin_token=ADMIN), timeout=WAIT_S))[-1]
    assert public.finished and organiser.finished
    assert public.record.replay_json == "" and public.record.seed == 0 and not public.record.full_replay
    assert public.record.ranks == record.ranks and public.record.termination == record.termination
    assert organiser.record == record


def test_run_match_still_needs_the_admin_token(arena: ArenaHarness) -> None:
    with pytest.raises(grpc.RpcError) as err:
        arena.run_match("tiny-ninjas", ["random", "random"], 5)
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED


def test_tourney_replay_shows_the_public_play_unless_asked_for_the_full_one(tmp_path) -> None:
    from typer.testing import CliRunner

    from tourney.tournament.cli import app

    db = str(tmp_path / "t.db")
    ran = CliRunner().invoke(app, ["run", "--local", "--game", "maitre-ninja", "--bots", "random,greedy",
                                   "--games-per-pair", "1", "--seed", "4", "--db", db, "--json"])
    assert ran.exit_code == 0, ran.output
    listing = json.loads(CliRunner().invoke(app, ["matches", str(json.loads(ran.stdout)["tournament_id"]),
                                                  "--db", db, "--json"]).stdout)
    match = str(listing["matches"][0]["id"])
    public = CliRunner().invoke(app, ["replay", match, "--db", db])
    full = CliRunner().invoke(app, ["replay", match, "--db", db, "--full"])
    assert public.exit_code == 0 and full.exit_code == 0, public.output + full.output
    assert "seed" not in public.stdout and "seed" in full.stdout
    # The full view names each committed line; the public one only says that a seat committed one.
    assert ": committed" in public.stdout and ": committed" not in full.stdout
    assert len(public.stdout.splitlines()) == len(full.stdout.splitlines())
