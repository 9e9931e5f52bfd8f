"""The HTTP server Prometheus scrapes, bounded.

prometheus_client's own server starts a thread for every connection and waits as long as a client
likes for its request, so a client that opens connections and never finishes them gains a thread each.
This one serves at most MAX_SCRAPES connections at once (more are closed unanswered) and gives each
read READ_S seconds. A scrape takes milliseconds, and Prometheus opens one connection per target.
"""

from __future__ import annotations

import socket
import threading
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import make_wsgi_app
from prometheus_client.registry import Collector

MAX_SCRAPES = 16
READ_S = 10.0


class _QuietHandler(WSGIRequestHandler):
    """A scrape's handler: no access log, and READ_S for each read of the request."""

    timeout = READ_S

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class names it so)
        """Scrapes are not logged."""


class _BoundedServer(ThreadingMixIn, WSGIServer):
    """One thread per connection, at most MAX_SCRAPES at once."""

    daemon_threads = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.slots = threading.BoundedSemaphore(MAX_SCRAPES)
        super().__init__(*args, **kwargs)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            self.shutdown_request(request)  # every slot is taken: closed at once, no thread started
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


def start_metrics_http(port: int, host: str, registry: Collector) -> tuple[WSGIServer, threading.Thread]:
    """Serve `registry` on host:port (0: a free port) from a daemon thread; the server and its thread."""
    server_class = type("MetricsServer", (_BoundedServer,), {
        "address_family": socket.AF_INET6 if ":" in host else socket.AF_INET})
    server: WSGIServer = make_server(host, port, make_wsgi_app(registry), server_class, handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="metrics-http", daemon=True)
    thread.start()
    return server, thread
