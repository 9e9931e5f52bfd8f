"""Every flood of the siege report over real loopback gRPC, each while a well-behaved bot's
tournament plays on the same arena: the attack is refused at its limit, the tournament finishes
and every match ends `normal`.

Numbers are small on purpose (limits set low for the test): each shows the limit working on a
2-core machine without thousands of calls.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest

from tests.security.raw_h2 import WindowZeroClient
from tests.security.siege import ADMIN, GoodTournament, long_match_request, siege_arena
from tests.server.bots import SilentBot
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.referee import MatchResult
from tourney.engine.server.admission import Admission, AdmissionLimits
from tourney.engine.server.auth_failures import FailedAuthLimit
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.generated import arena_pb2_grpc as pb_grpc
from tourney.engine.server.remote import ArenaUnavailable, finished_match, run_remote_match
from tourney.engine.server.server import SPARE_FILES, connection_cap, raise_file_limit
from tourney.workers.arena import play_once

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def in_flight(harness: ArenaHarness) -> int:
    """The unauthenticated calls the arena counts in flight now (a connected bot's session is not one)."""
    with harness.arena.admission.lock:
        return harness.arena.admission.unauthenticated


def code_of(call: object) -> str:
    """The status name a finished call or error ended with."""
    if isinstance(call, grpc.RpcError) and isinstance(call, grpc.Call):
        return str(call.code().name)
    return "OK"


def test_a_burst_of_unauthenticated_calls_is_refused_and_the_tournament_plays_on(tmp_path: Path) -> None:
    harness = siege_arena(unauthenticated_calls=8, unauthenticated_per_s=40.0, unauthenticated_per_s_per_address=40.0)
    try:
        good = GoodTournament(harness, tmp_path)
        channels = [grpc.insecure_channel(harness.address, options=OWN_CONNECTION) for _ in range(4)]
        stubs = [pb_grpc.ArenaStub(c) for c in channels]
        codes: list[str] = []
        while good.running() and len(codes) < 400:
            futures = [stubs[i % 4].ListGames.future(pb.ListGamesRequest(), timeout=WAIT_S) for i in range(100)]
            codes += [code_of(f.exception() or f) for f in futures]
        for channel in channels:
            channel.close()
        assert good.terminations() == ["normal"] * 12
        # Refused by admission with a sentence, or (25 calls sent at once on a new connection, before the
        # client learnt the arena's limit of 16 streams a connection) reset by HTTP/2 unread: UNAVAILABLE.
        assert "RESOURCE_EXHAUSTED" in codes and set(codes) <= {"OK", "RESOURCE_EXHAUSTED", "UNAVAILABLE"}
        # The bucket refills: a polite client is served again.
        assert wait_for(lambda: code_of(_list_games(harness.address)) == "OK")
    finally:
        harness.close()


def test_a_burst_of_valid_hellos_is_refused_and_the_tournament_plays_on(tmp_path: Path) -> None:
    harness = siege_arena(unauthenticated_per_s=20.0, unauthenticated_per_s_per_address=20.0)
    try:
        good = GoodTournament(harness, tmp_path)
        channels = [grpc.insecure_channel(harness.address, options=OWN_CONNECTION) for _ in range(4)]
        hello = pb.BotMessage(hello=pb.Hello(bot_name="burst")).SerializeToString()
        calls = [channels[i % 4].stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                               response_deserializer=pb.ArenaMessage.FromString)(
                     iter([hello]), timeout=WAIT_S) for i in range(120)]
        welcomed = refused = reset = 0
        for call in calls:  # each answers Welcome (then ends with the request stream) or is refused
            try:
                first = next(iter(call), None)
                welcomed += first is not None and first.WhichOneof("kind") == "welcome"
            except grpc.RpcError as exc:
                refused += code_of(exc) == "RESOURCE_EXHAUSTED"
                # 30 streams at once on a new connection: those past its 16 are reset by HTTP/2, unread.
                reset += code_of(exc) == "UNAVAILABLE"
        for channel in channels:
            channel.close()
        assert refused > 0 and welcomed > 0 and welcomed + refused + reset == 120
        assert good.terminations() == ["normal"] * 12
    finally:
        harness.close()


def _list_games(address: str) -> object:
    with grpc.insecure_channel(address, options=OWN_CONNECTION) as channel:
        try:
            return pb_grpc.ArenaStub(channel).ListGames(pb.ListGamesRequest(), timeout=WAIT_S)
        except grpc.RpcError as exc:
            return exc


def test_calls_in_flight_on_one_connection_are_capped(tmp_path: Path) -> None:
    # Watch streams that are never read, all on one connection: past the cap each is refused at once.
    # The transport's stream cap is above all 20 here: it is tested on its own (test_stream_caps.py).
    harness = siege_arena(calls_per_connection=6, streams_per_connection=20)
    try:
        # A match that stays live while watched: its remote seat never answers (ended at close).
        harness.bot("quiet", SilentBot())
        def stuck_match() -> None:
            with contextlib.suppress(grpc.RpcError):
                harness.run_match("sticks", ["remote:quiet", "random"], move_ms=int(WAIT_S * 1000), admin_token=ADMIN)

        threading.Thread(target=stuck_match, daemon=True).start()
        assert wait_for(lambda: bool(harness.arena.live_match_ids()))
        match_id = harness.arena.live_match_ids()[0]
        good = GoodTournament(harness, tmp_path)
        channel = grpc.insecure_channel(harness.address, options=OWN_CONNECTION)
        stub = pb_grpc.ArenaStub(channel)
        calls = [stub.Watch(pb.WatchRequest(match_id=match_id), timeout=WAIT_S) for _ in range(20)]
        assert wait_for(lambda: sum(c.done() for c in calls) >= 14)
        codes = [c.code().name for c in calls if c.done()]
        assert set(codes) == {"RESOURCE_EXHAUSTED"}  # past the cap each is refused, with a sentence
        assert sum(not c.done() for c in calls) == 6
        for call in calls:
            call.cancel()
        channel.close()
        assert good.terminations() == ["normal"] * 12
        # Another connection was never held up by this one's cap.
        assert code_of(_list_games(harness.address)) == "OK"
    finally:
        harness.close()


def test_token_guessing_is_limited_per_address_across_connections(tmp_path: Path) -> None:
    # No anonymous bot here: the tournament is the organiser's RunMatch of built-ins, which must get through.
    harness = siege_arena(good_bot=False, allow_anonymous=False, auth_failures_per_address=5,
                          auth_failures_per_address_per_s=0.01, auth_failures_overall_per_s=0.01)
    try:
        good = GoodTournament(harness, tmp_path, first="random")
        codes: list[str] = []
        for i in range(12):  # a new connection for every guess: the per-connection limit never bites
            with grpc.insecure_channel(harness.address, options=OWN_CONNECTION) as channel:
                play = channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                             response_deserializer=pb.ArenaMessage.FromString)
                hello = pb.BotMessage(hello=pb.Hello(bot_name="alice", token=f"guess-{i}")).SerializeToString()
                try:
                    list(play(iter([hello]), timeout=WAIT_S))
                except grpc.RpcError as exc:
                    codes.append(code_of(exc))
        assert codes == ["UNAUTHENTICATED"] * 5 + ["RESOURCE_EXHAUSTED"] * 7
        # A wrong admin token is a failed authentication too, refused unread now; the right one plays.
        with pytest.raises(grpc.RpcError) as err:
            harness.run_match("sticks", ["random", "random"], admin_token="guess")
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert harness.run_match("sticks", ["random", "random"], admin_token=ADMIN).termination == "normal"
        assert good.terminations() == ["normal"] * 12
    finally:
        harness.close()


def test_an_address_locked_out_for_bad_credentials_still_joins_without_a_token() -> None:
    # An arena that admits anonymous bots: what fails here is a Hello with a token and no name.
    harness = siege_arena(good_bot=False, auth_failures_per_address=3, auth_failures_per_address_per_s=0.01,
                          auth_failures_overall_per_s=0.01)

    def hello_code(name: str, token: str) -> str:
        with grpc.insecure_channel(harness.address, options=OWN_CONNECTION) as channel:
            play = channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                         response_deserializer=pb.ArenaMessage.FromString)
            hello = pb.BotMessage(hello=pb.Hello(bot_name=name, token=token)).SerializeToString()
            try:
                list(play(iter([hello]), timeout=WAIT_S))
            except grpc.RpcError as exc:
                return code_of(exc)
            return "OK"

    try:
        assert [hello_code("", f"guess-{i}") for i in range(5)] == ["UNAUTHENTICATED"] * 3 + ["RESOURCE_EXHAUSTED"] * 2
        assert hello_code("carol", "a-token") == "RESOURCE_EXHAUSTED"  # credentials stay refused unread
        # Locked out for credentials, not for playing: a bot that presents none is welcomed and plays.
        harness.bot("newcomer")
        assert harness.run_match("sticks", ["remote:newcomer", "random"], admin_token=ADMIN).termination == "normal"
    finally:
        harness.close()


def test_failed_authentication_is_limited_overall() -> None:
    now = [0.0]
    limit = FailedAuthLimit(3, 0.0, 5, 1.0, clock=lambda: now[0])
    for peer in ("ipv4:10.0.0.1:1", "ipv4:10.0.0.1:2", "ipv4:10.0.0.1:3"):
        assert limit.refused(peer) is None
        limit.failed(peer)
    assert limit.refused("ipv4:10.0.0.1:4") is not None  # that address spent its tries, on any connection
    limit.failed("ipv4:10.0.0.2:1")
    limit.failed("ipv4:10.0.0.3:1")
    assert "at this arena" in (limit.refused("ipv4:10.0.0.9:1") or "")  # the arena's bucket is empty
    now[0] += 1.0
    assert limit.refused("ipv4:10.0.0.9:1") is None  # one try a second comes back


def test_idle_and_half_open_connections_are_closed(tmp_path: Path) -> None:
    harness = siege_arena(handshake_timeout_s=0.5, idle_connection_s=0.5)
    try:
        good = GoodTournament(harness, tmp_path)
        host, port = harness.address.split(":")
        idle = [socket.create_connection((host, int(port)), timeout=WAIT_S) for _ in range(30)]

        def closed(sock: socket.socket) -> bool:
            try:
                return sock.recv(65536) == b"" or closed(sock)
            except (ConnectionResetError, TimeoutError):
                return True

        started = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            assert all(pool.map(closed, idle))  # each recv returns b"" once the arena hangs up
        assert time.monotonic() - started < WAIT_S
        for sock in idle:
            sock.close()
        assert good.terminations() == ["normal"] * 12
        # A new bot still gets in.
        assert harness.bot("late").welcome is not None
    finally:
        harness.close()


def test_the_connection_cap_stays_under_the_file_limit() -> None:
    soft = raise_file_limit()
    import resource

    assert soft == resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    assert connection_cap(ArenaConfig(max_connections=10**9), 1024) == 1024 - SPARE_FILES
    assert connection_cap(ArenaConfig(max_connections=100), 1024) == 100


def test_admission_counts_per_connection_and_frees_places() -> None:
    now = [0.0]
    admission = Admission(AdmissionLimits(2, 3, 100.0, 100.0), clock=lambda: now[0])
    a1, a2 = admission.enter("ipv4:1.2.3.4:1"), admission.enter("ipv4:1.2.3.4:1")
    assert isinstance(admission.enter("ipv4:1.2.3.4:1"), str)  # the third call on one connection
    b1 = admission.enter("ipv4:1.2.3.4:2")
    assert isinstance(admission.enter("ipv4:1.2.3.4:3"), str)  # three unauthenticated in flight already
    assert not isinstance(b1, str) and not isinstance(a1, str) and not isinstance(a2, str)
    b1.authenticated()  # a bot's Hello was accepted: it no longer counts as unauthenticated
    assert not isinstance(admission.enter("ipv4:1.2.3.4:3"), str)
    a1.leave()
    a1.leave()  # leaving twice frees one place only
    assert admission.in_flight["ipv4:1.2.3.4:1"] == 1


def test_a_cancelled_run_match_is_asked_again_and_never_played_twice(tmp_path: Path) -> None:
    harness = siege_arena()
    try:
        played: list[MatchResult] = []

        def cut_once(match_id: str) -> MatchResult:
            # The first answer is lost after the arena played the match (as when gRPC cancels a call).
            result = run_remote_match(harness.address, "sticks", ["remote:good", "greedy"], 3, admin_token=ADMIN,
                                      match_id=match_id)
            played.append(result)
            if len(played) == 1:
                raise ArenaUnavailable("cut", grpc.StatusCode.CANCELLED)
            return result

        result = play_once(cut_once, lambda match_id: finished_match(harness.address, ADMIN, match_id),
                           first_wait_s=0.01)
        # The retry named the same match: the arena answered ALREADY_EXISTS and the stored result came back.
        assert len(played) == 1
        assert (result.seed, result.ranking, result.termination) == (played[0].seed, played[0].ranking, "normal")
    finally:
        harness.close()


def test_get_match_calls_that_never_grant_window_hold_a_bounded_number_of_answers(tmp_path: Path) -> None:
    harness = siege_arena(calls_per_connection=4, unauthenticated_calls=10)
    clients: list[WindowZeroClient] = []
    try:
        body = long_match_request(harness)
        good = GoodTournament(harness, tmp_path)
        for _ in range(3):  # 3 connections x 12 calls: 4 admitted each at most, 10 in all
            client = WindowZeroClient(harness.address, "/tourney.v1.Arena/GetMatch", body, 12)
            clients.append(client)
        deadline = time.monotonic() + WAIT_S
        while sum(v != "pending" for c in clients for v in c.outcome.values()) < 36 - 10 \
                and time.monotonic() < deadline:
            for client in clients:
                client.read_until(answered=12, timeout_s=0.1)
        outcomes = [v for c in clients for v in c.outcome.values()]
        held = outcomes.count("pending")
        assert held <= 10 and all(list(c.outcome.values()).count("pending") <= 4 for c in clients)
        # Every other call was refused with RESOURCE_EXHAUSTED (8), after the refusal's short pause.
        assert set(outcomes) - {"pending"} == {"refused:8"}
        assert in_flight(harness) == held  # the arena's own count of what it holds
        for client in clients:
            client.close()
        # A client that leaves frees its places: the calls are over once their connection is.
        assert wait_for(lambda: in_flight(harness) == 0)
        assert good.terminations() == ["normal"] * 12
        assert code_of(_list_games(harness.address)) == "OK"
    finally:
        for client in clients:
            client.close()
        harness.close()
