"""What an arena allows and how long it waits: the limits of `tourney serve`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass
class ArenaConfig:
    """What an arena allows and how long it waits.

    tokens: bot name -> SHA-256 of its token (see `token_hash`). With allow_anonymous any
    name may connect with any token. admin_token None leaves RunMatch open (local play), and
    then full replays too; with an admin token, GetMatch and Watch give full replays only to
    whoever sends it.
    """

    admin_token: str | None = None
    allow_anonymous: bool = False
    tokens: Mapping[str, str] = field(default_factory=dict)
    default_move_ms: int = 10_000
    seat_wait_s: float = 10.0
    max_finished: int = 1000
    max_workers: int = 256
    # Hello is rate-limited per connection (token bucket): a client may open hello_burst sessions
    # at once, then hello_per_s a second; more are refused with RESOURCE_EXHAUSTED. This bounds
    # both token guessing and session floods from one connection.
    hello_burst: int = 32
    hello_per_s: float = 4.0
    # A stream must say Hello this soon after it opens, and the arena holds at most
    # max_sessions bot sessions at once: idle or surplus streams cannot pile up.
    hello_timeout_s: float = 10.0
    max_sessions: int = 10_000
    # ... and at most max_sessions_per_address from one address (a bot needs one; each holds up to
    # max_matches_per_session matches), so one client cannot take every place.
    max_sessions_per_address: int = 1_000
    # Per stream: messages waiting for a bot that does not read (past either cap it is cut off,
    # `slow_reader`), and the match slots a Hello may ask for.
    max_queued_messages: int = 4096
    max_queued_bytes: int = 32 * 1024 * 1024
    # ... and in every stream together (past it, the stream holding the most is cut off as a slow
    # reader): without it, max_sessions streams that never read could hold max_sessions times the above.
    max_queued_bytes_overall: int = 1024 * 1024 * 1024
    max_matches_per_session: int = 256
    # Messages a stream may send that the arena can only answer with an ErrorReport (malformed,
    # a second Hello, a reply to no pending request): bad_message_burst at once, then
    # bad_messages_per_s; past that it is cut off (`rate_limited`). A flood costs little that way.
    bad_message_burst: int = 64
    bad_messages_per_s: float = 8.0
    # The largest message any client may send (a reply or a Hello needs well under 1 KB; an
    # organiser's RunMatch with its config fits too). gRPC cuts a stream that sends more.
    max_receive_bytes: int = 64 * 1024
    # Admission control (admission.py): calls in flight on one connection, unauthenticated calls
    # in flight on the arena, and new unauthenticated calls a second (overall and per address).
    # The organiser's RunMatch with the admin token is never counted: it always gets through.
    calls_per_connection: int = 8
    # HTTP/2 streams a connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS on the bots'
    # listener): a gRPC client's further calls wait in the client until one ends, and those that
    # arrive anyway (sent on a new connection before the client learnt the limit, or by a client that
    # ignores it) are reset by gRPC unread (REFUSED_STREAM: the client sees UNAVAILABLE). So a burst
    # over a few connections reaches the arena's Python code only as fast as its calls end (a refused
    # one after REFUSAL_PAUSE_S). Twice calls_per_connection, so that a client that opens a few calls
    # too many still hears admission's sentence. The organiser's listener allows more (server.py).
    streams_per_connection: int = 16
    unauthenticated_calls: int = 256
    unauthenticated_per_s: float = 200.0
    unauthenticated_per_s_per_address: float = 100.0
    # Failed authentications (auth_failures.py), per address and overall: a burst, then a rate.
    auth_failures_per_address: int = 10
    auth_failures_per_address_per_s: float = 1.0
    auth_failures_overall: int = 50
    auth_failures_overall_per_s: float = 5.0
    # Connections (server.py): at most max_connections, and always 256 file descriptors under the
    # process's open-file limit (raised to its hard limit at start); a connection with no call for
    # idle_connection_s is closed, and so is one that has not finished its HTTP/2 handshake
    # within handshake_timeout_s.
    max_connections: int = 4096
    idle_connection_s: float = 60.0
    handshake_timeout_s: float = 5.0
