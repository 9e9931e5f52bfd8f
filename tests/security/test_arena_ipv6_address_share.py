"""Attack on the arena's per-address limits (new unauthenticated calls a second, wrong tokens, bot sessions
from one address): they counted an IPv6 client by its full address, so a client holding a /64, as any host
on an IPv6 network does, had 2**64 shares of each; and an IPv4 client arriving IPv4-mapped on a dual-stack
socket was another client than the same one arriving as itself. The arena now keys a client as the web app
does (tourney.engine.core.addresses), an IPv6 one by its /64."""

from __future__ import annotations

import socket
from concurrent import futures

import grpc
import pytest

from tourney.engine.core.addresses import address_key, grpc_peer_address
from tourney.engine.server.admission import Admission, AdmissionLimits
from tourney.engine.server.auth_failures import FailedAuthLimit
from tourney.web.connections import peer_host

# gRPC 1.6x+ spells an IPv6 peer with its brackets percent-encoded ('ipv6:%5B::1%5D:50456', seen on this
# machine), older releases with plain brackets; a Unix peer is 'unix:' whatever the path.
ONE_SLASH_64 = ["ipv6:%5B2001:db8:1:2::1%5D:40000", "ipv6:%5B2001:db8:1:2:ffff::7%5D:40001",
                "ipv6:[2001:db8:1:2:abcd::9]:40002"]
NEXT_SLASH_64 = "ipv6:%5B2001:db8:1:3::1%5D:40003"


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def test_grpc_peers_are_keyed_as_the_web_app_keys_its_clients() -> None:
    assert {grpc_peer_address(p) for p in ONE_SLASH_64} == {"2001:db8:1:2::/64"}
    assert grpc_peer_address(NEXT_SLASH_64) == "2001:db8:1:3::/64"
    mapped = "ipv6:%5B::ffff:127.0.0.1%5D:5000"
    assert grpc_peer_address(mapped) == grpc_peer_address("ipv4:127.0.0.1:1") == "127.0.0.1"
    assert grpc_peer_address("ipv4:127.0.0.1:1") != grpc_peer_address("ipv4:127.0.0.2:1")
    assert grpc_peer_address("unix:") == "unix:" and grpc_peer_address("unix:/tmp/seat0.sock") == "unix:/tmp/seat0.sock"
    assert grpc_peer_address("ipv6:%5Bnot-an-address%5D:1") == "not-an-address"  # counted, never an error
    assert grpc_peer_address("odd") == "odd"
    assert address_key("2001:db8:1:2::1") == peer_host(type("C", (), {"client": ("2001:db8:1:2::1", 1)})())


def test_one_slash_64_shares_one_bucket_of_new_unauthenticated_calls() -> None:
    now = [0.0]
    admission = Admission(AdmissionLimits(8, 100, 100.0, 2.0), clock=lambda: now[0])
    first, second = (admission.enter(p) for p in ONE_SLASH_64[:2])
    assert not isinstance(first, str) and not isinstance(second, str)
    refused = admission.enter(ONE_SLASH_64[2])  # a third address of the same /64: the same client
    assert isinstance(refused, str) and "from this address" in refused
    assert not isinstance(admission.enter(NEXT_SLASH_64), str)  # another /64 is another client


def test_one_slash_64_shares_one_bucket_of_wrong_tokens() -> None:
    now = [0.0]
    failures = FailedAuthLimit(2, 0.01, 1000, 1000.0, clock=lambda: now[0])
    failures.failed(ONE_SLASH_64[0])
    failures.failed(ONE_SLASH_64[1])
    assert failures.refused(ONE_SLASH_64[2]) is not None  # locked out however many addresses it tries
    assert failures.refused(NEXT_SLASH_64) is None


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="this machine has no IPv6 loopback (::1)")
def test_a_real_ipv6_peer_is_keyed_by_its_slash_64() -> None:
    # How gRPC really names a client on ::1, read by a real server on [::1]: the key the arena counts must be
    # the one the web app gives the same client (::/64), not the peer's spelling.
    seen: list[str] = []

    def answer(request: bytes, context: grpc.ServicerContext) -> bytes:
        seen.append(context.peer())
        return request

    handler = grpc.method_handlers_generic_handler("t.Peer", {"Echo": grpc.unary_unary_rpc_method_handler(answer)})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=1))
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("[::1]:0")
    server.start()
    try:
        for _ in range(2):  # two connections, two ports
            with grpc.insecure_channel(f"[::1]:{port}", options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
                assert channel.unary_unary("/t.Peer/Echo")(b"x", timeout=30) == b"x"
    finally:
        server.stop(None)
    assert len(seen) == 2 and all(p.startswith("ipv6:") for p in seen)
    assert {grpc_peer_address(p) for p in seen} == {address_key("::1")} == {"::/64"}
