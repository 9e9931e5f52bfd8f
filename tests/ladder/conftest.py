"""The ladder tests' PostgreSQL: the same private cluster fixture the tournament tests use."""

from tests.tournament.conftest import postgres_url  # noqa: F401  (a fixture, used by name)
