"""Workers tests: the test game; Ray comes from the session's `ray_session` (tests/conftest.py)."""

import tests.sticks  # noqa: F401
