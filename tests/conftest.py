"""Shared test setup: the test-only game is registered for every test module."""

import tests.sticks  # noqa: F401
