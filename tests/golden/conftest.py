"""The golden tournaments play on the test session's one local Ray (started by the workers' fixture)."""

from tests.workers.conftest import ray_session  # noqa: F401  (the session fixture, shared, not a second Ray)
