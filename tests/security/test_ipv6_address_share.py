"""Attack on the web app's per-address limits (64 connections, 8 live streams from one address): a
client with an IPv6 /64, which any host on an IPv6 network has, holds 2**64 addresses and was counted
as that many clients. The limits now count an IPv6 client by its /64, and an IPv4 client the same
whether it arrives as itself or IPv4-mapped."""

from __future__ import annotations

from types import SimpleNamespace

from tourney.web.connections import peer_host


def _key(host: str) -> str | None:
    return peer_host(SimpleNamespace(client=(host, 50_000)))


def test_addresses_of_one_ipv6_slash_64_share_one_limit() -> None:
    assert _key("2001:db8:1:2::1") == _key("2001:db8:1:2:ffff:ffff:ffff:fffe") == _key("2001:db8:1:2:abcd::9")
    assert _key("2001:db8:1:2::1") != _key("2001:db8:1:3::1")  # the next /64 is another client


def test_an_ipv4_client_is_one_address_mapped_or_not() -> None:
    assert _key("::ffff:192.0.2.7") == _key("192.0.2.7") == "192.0.2.7"
    assert _key("192.0.2.7") != _key("192.0.2.8")


def test_odd_peers_are_counted_as_given_or_not_at_all() -> None:
    assert _key("fe80::1%eth0") == _key("fe80::2%eth1")  # link-local zones: one /64
    assert _key("testclient") == "testclient"
    assert peer_host(SimpleNamespace(client=None)) is None
    assert peer_host(SimpleNamespace()) is None
