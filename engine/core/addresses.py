"""How every per-address limit (the arena's and the web app's) names a client's address.

One host or subscriber holds a whole IPv6 /64 (2**64 addresses), so counting IPv6 clients by their
full address would give one client that many shares of a limit; an IPv4 client reaching a dual-stack
socket arrives IPv4-mapped (::ffff:a.b.c.d) and must count as the same client as when it arrives as
itself.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import unquote


def address_key(host: str) -> str:
    """The client `host` (an IP address as a socket names it) as the per-address limits count it: an IPv6
    address by its /64, an IPv4-mapped one as its IPv4 address, anything that is no IP address as given."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # a link-local address may carry its zone
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def grpc_peer_address(peer: str) -> str:
    """The address of a gRPC peer as the per-address limits count it (see `address_key`):
    'ipv4:127.0.0.1:5000' -> '127.0.0.1', 'ipv6:%5B2001:db8::1%5D:5000' -> '2001:db8::/64'. A peer of
    another kind ('unix:', 'unix:PATH', a listener's own name) is one address, named as given."""
    scheme, sep, rest = peer.partition(":")
    if not sep or scheme not in ("ipv4", "ipv6"):
        return peer
    host, sep, _port = unquote(rest).rpartition(":")  # gRPC percent-encodes the brackets of IPv6
    if not sep:
        return peer
    return address_key(host.removeprefix("[").removesuffix("]"))
