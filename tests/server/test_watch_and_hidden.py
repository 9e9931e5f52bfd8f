"""Spectators get public views only; each bot sees only its own seat's observations."""

from __future__ import annotations

import concurrent.futures
import json

import grpc
import pytest

from tests.security.hidden import keys
from tests.server.bots import RecordingBot
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.core import available_games, get_game
from tourney.engine.server.generated import arena_pb2 as pb

BUILT = {g.id for g in available_games()}


def _watch(harness: ArenaHarness, match_id: str) -> list[pb.MatchEvent]:
    """Watch a match from (nearly) its start; retries until the arena knows the id."""
    for _ in range(500):
        try:
            return list(harness.stub.Watch(pb.WatchRequest(match_id=match_id), timeout=WAIT_S))
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.NOT_FOUND:
                raise
            wait_for(lambda: False, 0.01)
    raise AssertionError("match never appeared")


@pytest.mark.parametrize("game", ["sticks", "maitre-ninja"])
def test_watch_streams_public_events_without_hidden_information(harness: ArenaHarness, game: str) -> None:
    if game not in BUILT:
        pytest.fail(f"{game} is not built")
    harness.bot("slow", RecordingBot(seed=2, delay_s=0.002), max_concurrent_matches=2)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        running = pool.submit(harness.run_match, game, ["remote:slow", "remote:slow"], 4, 0, "", "", 0, "watched")
        events = _watch(harness, "watched")
        record = running.result(WAIT_S)
    assert events[-1].finished and events[-1].record == record
    steps = [e.step for e in events]
    assert steps == sorted(steps) and len(events) > 2
    for event in events:
        view = json.loads(event.public_view_json)
        # Keys only a seat's own observation has never reach a spectator.
        assert not keys(view) & {"secret", "my_hidden", "role", "hand", "hand_ids"}
    # A finished match can still be watched: its last event, with the record.
    again = list(harness.stub.Watch(pb.WatchRequest(match_id="watched"), timeout=WAIT_S))
    assert len(again) == 1 and again[0].record == record


def test_watch_of_an_unknown_match_is_not_found(harness: ArenaHarness) -> None:
    with pytest.raises(grpc.RpcError) as err:
        list(harness.stub.Watch(pb.WatchRequest(match_id="nope"), timeout=WAIT_S))
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_sticks_bots_see_only_their_own_secret(harness: ArenaHarness) -> None:
    a, b = RecordingBot(seed=1), RecordingBot(seed=2)
    harness.bot("a", a)
    harness.bot("b", b)
    for seed in range(5):
        harness.run_match("sticks", ["remote:a", "remote:b"], seed=seed, match_id=f"s{seed}")
        state = get_game("sticks").new_state(seed, players=2)
        secrets = state.secrets  # type: ignore[attr-defined]
        for bot, seat in ((a, 0), (b, 1)):
            seen = [obs for req, obs in bot.requests if req.match_id == f"s{seed}"]
            assert seen and all(obs["secret"] == secrets[seat] for obs in seen)
            assert all(req.seat == seat for req, _ in bot.requests if req.match_id == f"s{seed}")


def test_maitre_ninja_bots_see_only_their_own_hidden_lines(harness: ArenaHarness) -> None:
    if "maitre-ninja" not in BUILT:
        pytest.fail("maitre-ninja is not built")
    bots = [RecordingBot(seed=s) for s in range(3)]
    for i, bot in enumerate(bots):
        harness.bot(f"m{i}", bot)
    record = harness.run_match("maitre-ninja", ["remote:m0", "remote:m1", "remote:m2"], seed=11)
    assert record.termination in ("normal", "adjudication")
    for seat, bot in enumerate(bots):
        assert bot.requests
        for request, obs in bot.requests:
            assert request.seat == seat and obs["seat"] == seat
            typed = request.observation.maitre_ninja
            assert typed.seat == seat and typed.json
            # Exactly this seat's own fights with cards still face down, never another seat's.
            mine = {f["fight"]: f for f in obs["history"] if f["attacker"] == seat and f["face_down"] > 0}
            assert sorted(h["fight"] for h in obs["my_hidden"]) == sorted(mine)
            for hidden in obs["my_hidden"]:
                shown = mine[hidden["fight"]]["attack"]
                assert hidden["line"][: len(shown)] == shown
                assert len(hidden["line"]) == len(shown) + mine[hidden["fight"]]["face_down"]
            # The typed message carries the same hidden lines as the JSON.
            assert [h.fight for h in typed.my_hidden] == [h["fight"] for h in obs["my_hidden"]]
    # The check above is not vacuous: some seat did hold face-down cards.
    assert any(obs["my_hidden"] for bot in bots for _, obs in bot.requests)
