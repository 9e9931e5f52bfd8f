"""The HTTP server Prometheus scrapes, bounded.

prometheus_client's own server starts a thread for every connection and waits as long as a client
likes for its request, so a client that opens connections and never finishes them gains a thread each.
This one serves at most MAX_SCRAPES connections at once, at most MAX_SCRAPES_PER_ADDRESS of them from one
client address (`address_key`, as the arena and the web app count them), so one client cannot take the
slots Prometheus needs; more are closed unanswered. It gives each read
READ_S seconds and a whole connection REQUEST_S (a byte trickled every few seconds passes every read's
timeout). A scrape takes milliseconds, and Prometheus opens one connection per target.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import make_wsgi_app
from prometheus_client.registry import Collector

from tourney.engine.core.addresses import address_key

MAX_SCRAPES = 16
MAX_SCRAPES_PER_ADDRESS = 4  # Prometheus opens one connection per target; a few scrapers may share a host
READ_S = 10.0
REQUEST_S = 10.0  # a connection's whole life: request read, answered and closed
CHECK_S = 1.0  # how often connections past REQUEST_S are looked for


class _QuietHandler(WSGIRequestHandler):
    """A scrape's handler: no access log, and READ_S for each read of the request."""

    timeout = READ_S

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class names it so)
        """Scrapes are not logged."""


class _BoundedServer(ThreadingMixIn, WSGIServer):
    """One thread per connection, at most MAX_SCRAPES at once (MAX_SCRAPES_PER_ADDRESS from one address),
    each connection ended after REQUEST_S."""

    daemon_threads = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.slots = threading.BoundedSemaphore(MAX_SCRAPES)
        self.opened: dict[socket.socket, float] = {}  # each connection being served: when it was taken
        self.from_address: dict[str, int] = {}  # connections being served, by `address_key`
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        super().__init__(*args, **kwargs)
        # One watchdog for every connection (a timer each would double the threads MAX_SCRAPES bounds).
        threading.Thread(target=self._cut_late, name="metrics-cutoff", daemon=True).start()

    def process_request(self, request: Any, client_address: Any) -> None:
        address = address_key(str(client_address[0]))
        with self.lock:
            taken = self.from_address.get(address, 0) < MAX_SCRAPES_PER_ADDRESS and self.slots.acquire(blocking=False)
            if taken:
                self.from_address[address] = self.from_address.get(address, 0) + 1
        if not taken:
            self.shutdown_request(request)  # no slot, or none left for this address: closed at once, no thread
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        with self.lock:
            self.opened[request] = time.monotonic()
        try:
            super().process_request_thread(request, client_address)
        finally:
            address = address_key(str(client_address[0]))
            with self.lock:
                del self.opened[request]
                self.from_address[address] -= 1
                if not self.from_address[address]:
                    del self.from_address[address]
            self.slots.release()

    def _cut_late(self) -> None:
        """Every CHECK_S, end the connections older than REQUEST_S, until the server stops."""
        while not self.stopped.wait(CHECK_S):
            now = time.monotonic()
            with self.lock:
                late = [connection for connection, since in self.opened.items() if now - since > REQUEST_S]
            for connection in late:
                with contextlib.suppress(OSError):  # it ended meanwhile (a closed socket has no descriptor)
                    connection.shutdown(socket.SHUT_RDWR)  # its thread's blocked read or write returns at once

    def shutdown(self) -> None:
        self.stopped.set()
        super().shutdown()

    def server_close(self) -> None:
        self.stopped.set()
        super().server_close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that timed out, hung up or was cut off is no error of ours: no traceback on stderr."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


def start_metrics_http(port: int, host: str, registry: Collector) -> tuple[WSGIServer, threading.Thread]:
    """Serve `registry` on host:port (0: a free port) from a daemon thread; the server and its thread."""
    server_class = type("MetricsServer", (_BoundedServer,), {
        "address_family": socket.AF_INET6 if ":" in host else socket.AF_INET})
    server: WSGIServer = make_server(host, port, make_wsgi_app(registry), server_class, handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="metrics-http", daemon=True)
    thread.start()
    return server, thread
