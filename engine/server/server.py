"""Starting a gRPC server for an arena: message limits, metrics, health, reflection, TLS."""

from __future__ import annotations

import logging
import resource
from typing import Any

import grpc

from tourney.engine.core import available_games
from tourney.engine.server.arena import Arena
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.metrics import MetricsInterceptor, arena_methods
from tourney.engine.server.servicer import ArenaServicer, arena_handler

# What the arena may send. Bots need none of it (no ActionRequest is over 64 KB, so gRPC's default
# 4 MiB receive limit plays every game); the public GetMatch record of a long match does: its
# replay is one public view per step (a 388-step Tiny Ninjas champion series: 10.6 MB, while the
# admin's full record of it, seed and decisions, is 7.5 KB).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
logger = logging.getLogger(__name__)


# File descriptors kept free under the open-file limit for everything but client connections:
# the store, the metrics and web listeners, bot programs' pipes, log files.
SPARE_FILES = 256
# Streams one connection may have open on the organiser's listener (start_admin_listener): room
# for a tournament's RunMatch calls, which share one connection however many workers play them.
ADMIN_STREAMS_PER_CONNECTION = 256


def raise_file_limit() -> int:
    """Raise this process's soft open-file limit to its hard limit; returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # an infinite hard limit some kernels refuse as a soft one
            logger.warning("could not raise the open-file limit from %d to %d", soft, hard)
    return soft


def connection_cap(config: ArenaConfig, file_limit: int) -> int:
    """How many client connections the arena accepts: its setting, and always SPARE_FILES under the file limit."""
    return max(1, min(config.max_connections, file_limit - SPARE_FILES))


def server_options(config: ArenaConfig, file_limit: int) -> list[tuple[str, Any]]:
    """gRPC server options: what clients may send is capped at config.max_receive_bytes, connections
    at `connection_cap`, idle and half-open connections are closed (see ArenaConfig)."""
    return [
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_receive_message_length", config.max_receive_bytes),
        # No bandwidth probing of what clients send (they send small replies): with it gRPC widens a
        # stream's receive window to take a whole oversized message in before refusing it (four
        # 60 MB Hellos: +60 MB of peak memory); without it the window stays small.
        ("grpc.http2.bdp_probe", 0),
        ("grpc.keepalive_time_ms", 30_000),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        ("grpc.max_allowed_incoming_connections", connection_cap(config, file_limit)),
        ("grpc.max_connection_idle_ms", int(config.idle_connection_s * 1000)),
        ("grpc.server_handshake_timeout_ms", int(config.handshake_timeout_s * 1000)),
        # Streams open at once on one connection, at the transport (see ArenaConfig.streams_per_connection).
        ("grpc.max_concurrent_streams", config.streams_per_connection),
        # A port in use is an error, never shared: gRPC's default SO_REUSEPORT let a second `tourney serve`
        # on the same port listen beside the first, and the kernel split connections between the two
        # arenas, so a connected bot was "not connected" to every other RunMatch.
        ("grpc.so_reuseport", 0),
    ]


async def _serve_arena(arena: Arena, options: list[tuple[str, Any]], listener: str | None = None
                       ) -> grpc.aio.Server:
    """A gRPC server of the Arena service (with health and reflection when installed), not yet bound;
    listener names every caller for the limits (see ArenaServicer), None: each by its gRPC peer."""
    available_games()  # import every game now, not during the first bot's Hello
    server = grpc.aio.server(options=options, interceptors=[MetricsInterceptor(arena_methods())])
    server.add_generic_rpc_handlers((arena_handler(ArenaServicer(arena, listener)),))
    service_names = ["tourney.v1.Arena"]
    try:
        from grpc_health.v1 import health, health_pb2, health_pb2_grpc

        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        await health_servicer.set("tourney.v1.Arena", health_pb2.HealthCheckResponse.SERVING)
        service_names.append(health_pb2.DESCRIPTOR.services_by_name["Health"].full_name)
    except ImportError:
        pass
    try:
        from grpc_reflection.v1alpha import reflection

        service_names.append(reflection.SERVICE_NAME)
        reflection.enable_server_reflection(service_names, server)
    except ImportError:
        pass
    return server


async def start_server(
    arena: Arena,
    host: str = "127.0.0.1",
    port: int = 50051,
    tls: tuple[bytes, bytes] | None = None,
) -> tuple[grpc.aio.Server, int]:
    """Start the arena on host:port (0 picks a free port); returns the server and its port.

    tls is (certificate chain PEM, private key PEM). The standard health service and server
    reflection are enabled when their packages are installed.
    """
    server = await _serve_arena(arena, server_options(arena.config, raise_file_limit()))
    address = f"{host}:{port}"
    if tls is not None:
        credentials = grpc.ssl_server_credentials([(tls[1], tls[0])])
        bound = server.add_secure_port(address, credentials)
    else:
        bound = server.add_insecure_port(address)
    await server.start()
    return server, bound


async def start_unix_listener(arena: Arena, path: str, connections: int | None = None) -> grpc.aio.Server:
    """The same arena on the Unix socket `path` (plain: only local processes reach it), for a sandboxed
    bot with no network; returns the server. `connections`: the most it holds at once (default: the
    arena's cap, as on its TCP listener); a seat needs one.

    Every caller on it counts as one address, `unix:PATH`, for the limits: gRPC gives Unix peers no
    address of their own, so each hosted seat gets a socket (and a server) of its own, and what one
    seat spends on its socket (failed tokens, Hellos, calls in flight) no other seat pays for.
    """
    options = server_options(arena.config, raise_file_limit())
    if connections is not None:
        options = [(key, connections if key == "grpc.max_allowed_incoming_connections" else value)
                   for key, value in options]
    server = await _serve_arena(arena, options, f"unix:{path}")
    server.add_insecure_port(f"unix:{path}")
    await server.start()
    return server


async def start_admin_listener(arena: Arena, port: int = 0) -> tuple[grpc.aio.Server, int]:
    """The organiser's listener: the same arena on 127.0.0.1:port (0 picks a free port), plain, with
    ADMIN_STREAMS_PER_CONNECTION streams a connection; returns the server and its port.

    Only processes on this machine reach it, so no flood from the network does, and a tournament's
    many RunMatch calls on one connection (`tourney run --arena --workers N`) all run at once where
    the bots' listener lets a connection have ArenaConfig.streams_per_connection. Calls here are
    admitted as on the bots' listener: only the organiser's RunMatch is never counted.
    """
    options = [(key, ADMIN_STREAMS_PER_CONNECTION if key == "grpc.max_concurrent_streams" else value)
               for key, value in server_options(arena.config, raise_file_limit())]
    server = await _serve_arena(arena, options)
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    return server, bound
