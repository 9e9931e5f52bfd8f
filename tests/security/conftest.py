"""A fresh arena on loopback per test: the server tests' fixture."""

from tests.server.conftest import harness  # noqa: F401
