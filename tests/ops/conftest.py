"""Operations tests: the test game; Ray comes from the session's `ray_session` (tests/conftest.py)."""

from __future__ import annotations

import tests.sticks  # noqa: F401
from tests.tournament.conftest import postgres_url  # noqa: F401  (the private PostgreSQL cluster fixture)
