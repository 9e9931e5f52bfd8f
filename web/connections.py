"""The web server's connections, bounded: how many are open, how many from one address, and how long one
may take to send its request's head.

uvicorn alone accepts every connection and waits forever for a request head that arrives a byte at a
time, so one client could hold every file descriptor of the process (a slowloris). The arena bounds the
same with `max_connections` and its idle timeout; this is the web app's side.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from tourney.engine.core.addresses import address_key
from tourney.web import stalled
from tourney.web.server_logs import server_log_config

MAX_CONNECTIONS = 1024  # open at once; the 64 live streams and 4 exports fit far inside it
MAX_PER_ADDRESS = 64  # from one client address (behind a reverse proxy, the proxy bounds its clients)
HEAD_S = 10.0  # to send a request's head (line and headers), on a new connection or between requests


class BoundedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol that refuses a connection past the limits above (closed at once), closes
    one whose request head has not arrived within HEAD_S, and drops one whose client has taken no bytes for
    stalled.STALL_S: pipelined requests never read would otherwise queue answers that wait on it for good."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._stall_timer: asyncio.TimerHandle | None = None
        self._armed_for: Any = None
        address = peer_host(self)
        same = sum(1 for other in self.connections if peer_host(other) == address)
        if len(self.connections) > MAX_CONNECTIONS or same > MAX_PER_ADDRESS:
            transport.close()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not self._armed_for and self._head_timer is not None:  # a request head was read
            self._head_timer.cancel()
            self._head_timer = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head gets HEAD_S too, however slowly its bytes trickle in

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (getattr(self, "_head_timer", None), getattr(self, "_stall_timer", None)):
            if timer is not None:
                timer.cancel()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall_timer is None:
            self._watch_writes()

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stall_timer is not None:
            self._stall_timer.cancel()
            self._stall_timer = None

    def _watch_writes(self) -> None:
        """While writing is paused, check every STALL_S that the client took some bytes."""
        unsent = self.transport.get_write_buffer_size()
        self._stall_timer = self.loop.call_later(stalled.STALL_S, self._stalled, unsent)

    def _stalled(self, unsent: int) -> None:
        self._stall_timer = None
        if self.transport.get_write_buffer_size() < unsent:
            self._watch_writes()  # a slow reader, still reading
        else:
            # Reset, not closed: close() would wait to send what the client never takes, and even the kernel
            # would keep the unsent answers (megabytes) for minutes, probing a window that stays shut.
            sock = self.transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.transport.abort()

    def _arm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._armed_for = self.cycle
        self._head_timer = self.loop.call_later(HEAD_S, self._head_late)

    def _head_late(self) -> None:
        self._head_timer = None
        idle = self.cycle is self._armed_for and (self.cycle is None or self.cycle.response_complete)
        if idle and not self.transport.is_closing():
            self.transport.close()


def peer_host(connection: object) -> str | None:
    """The client address of one of uvicorn's connections or a request, as the per-address limits count it
    (None when it has none, e.g. a Unix socket): an IPv6 client by its /64, which one host or subscriber
    holds whole (2**64 addresses, one limit), and an IPv4 client the same whether or not it arrives
    IPv4-mapped on a dual-stack socket."""
    client = getattr(connection, "client", None)
    if not (isinstance(client, tuple) and client):
        return None
    return address_key(str(client[0]))


def server_config(app: Any, **options: Any) -> uvicorn.Config:
    """uvicorn's settings for the web app, with the bounded protocol above and printable logs."""
    return uvicorn.Config(app, http=BoundedH11, log_level="warning", log_config=server_log_config(), **options)
