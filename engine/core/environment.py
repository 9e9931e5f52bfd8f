"""Every environment variable tourney reads or sets, each name spelled once: code names these constants.

Any layer may import this module (it is in engine/core, which every layer may import). Docstrings and
comments still say the names in words, for readers; code and messages use the constants.
"""

# The store and the organiser
DB_ENV = "TOURNEY_DB"  # the results database (a SQLite path or SQLAlchemy URL), for every command with --db
DB_RETRY_ENV = "TOURNEY_DB_RETRY_S"  # how long a command waits for a PostgreSQL that went away
SEED_KEY_ENV = "TOURNEY_SEED_KEY"  # the organiser's secret behind a tournament's match seeds
ADMIN_TOKEN_ENV = "TOURNEY_ADMIN_TOKEN"  # the arena's organiser token (RunMatch, the web's private views)
METRICS_PORT_ENV = "TOURNEY_METRICS_PORT"  # where a run serves its Prometheus metrics
METRICS_HOST_ENV = "TOURNEY_METRICS_HOST"  # ... and on which interface

# The arena and its bots
TOKENS_ENV = "TOURNEY_TOKENS"  # the arena's token file
ARENA_ENV = "TOURNEY_ARENA"  # a bot's arena address (host:port or unix:PATH)
TOKEN_ENV = "TOURNEY_TOKEN"  # a bot's token
BOT_NAME_ENV = "TOURNEY_BOT_NAME"  # the name a bot connects under
GAMES_ENV = "TOURNEY_GAMES"  # a bot program's settings, passed through to it
MATCHES_ENV = "TOURNEY_MATCHES"
CONCURRENCY_ENV = "TOURNEY_CONCURRENCY"
PROTO_ENV = "TOURNEY_PROTO"

# Hosted bots
BUNDLE_CACHE_ENV = "TOURNEY_BUNDLE_CACHE"  # where unpacked bundles are kept
BUNDLE_CACHE_BYTES_ENV = "TOURNEY_BUNDLE_CACHE_BYTES"  # ... up to this many bytes in all
SANDBOX_ENV_PREFIX = "TOURNEY_SANDBOX_"  # + MEMORY_MIB, PIDS, CPUS, WALL_S: the sandbox's caps

# Other programs' variables that tourney reads or sets
RAY_ADDRESS_ENV = "RAY_ADDRESS"  # the Ray cluster to join
RAY_AUTH_MODE_ENV = "RAY_AUTH_MODE"
RAY_FAILURE_SIGNAL_ENV = "RAY_DISABLE_FAILURE_SIGNAL_HANDLER"
RAY_IGNORE_UNHANDLED_ENV = "RAY_IGNORE_UNHANDLED_ERRORS"  # read by Ray when an unfetched failed result is freed
GRPC_VERBOSITY_ENV = "GRPC_VERBOSITY"
