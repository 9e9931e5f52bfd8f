"""A raw HTTP/2 client that opens gRPC calls and never grants flow-control window: the answers can
never be sent, so whatever the arena admits it holds until the client leaves."""

from __future__ import annotations

import socket
import time

import h2.config
import h2.connection
import h2.events
import h2.settings

PENDING, REFUSED_BY_ARENA, RESET = "pending", "refused", "reset"


class WindowZeroClient:
    """One TCP connection, `calls` unary calls of `method` with `body`, and no window for any answer."""

    def __init__(self, address: str, method: str, body: bytes, calls: int) -> None:
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=5.0)
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        self.conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
        self.address, self.method = address, method
        self.outcome: dict[int, str] = {}
        for _ in range(calls):
            self._start(body)
        self.sock.sendall(self.conn.data_to_send())

    def _start(self, body: bytes) -> None:
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":path", self.method),
                                        (":authority", self.address), ("content-type", "application/grpc"),
                                        ("te", "trailers")])
        message = b"\x00" + len(body).to_bytes(4, "big") + body  # gRPC framing: uncompressed, length
        self.conn.send_data(stream, message, end_stream=True)
        self.outcome[stream] = PENDING

    def open(self, body: bytes) -> None:
        """One more call of the method, with `body`, sent at once on this connection."""
        self._start(body)
        self.sock.sendall(self.conn.data_to_send())

    def read_until(self, answered: int, timeout_s: float) -> dict[int, str]:
        """Read what the arena sends (never granting window) until `answered` calls ended or timeout_s
        passed; each call's outcome: pending, refused by the arena (a gRPC status), or reset."""
        deadline = time.monotonic() + timeout_s
        self.sock.settimeout(0.1)
        while sum(v != PENDING for v in self.outcome.values()) < answered and time.monotonic() < deadline:
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                break
            for event in self.conn.receive_data(data):
                stream = getattr(event, "stream_id", None)
                if isinstance(event, h2.events.StreamReset) and stream in self.outcome:
                    self.outcome[stream] = RESET
                elif isinstance(event, h2.events.ResponseReceived | h2.events.TrailersReceived) \
                        and stream in self.outcome:
                    status = dict(event.headers).get("grpc-status")
                    if status is not None:
                        self.outcome[stream] = f"{REFUSED_BY_ARENA}:{status}"
            self.sock.sendall(self.conn.data_to_send())  # settings and ping acknowledgements only
        return dict(self.outcome)

    def close(self) -> None:
        self.sock.close()
