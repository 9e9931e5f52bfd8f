"""Validations of versions uploaded through the web app, played one at a time on a thread of its own.

The queue is bounded: an author who uploads faster than versions validate is told to wait. The queue
lives in memory, so versions an earlier run of the web app left pending (it was stopped or killed) are
validated first, oldest first, read from the store one at a time: they wait there, never in the queue.
Each version is validated once by the app that queued or found it; two web apps started on one store
would each find the same pending versions and validate them both (the same result, twice the work), as
would a web app started while `tourney bot submit` validates: run one web app per store.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from sqlalchemy.engine import Engine

from tourney.engine.core import TourneyError
from tourney.engine.core.printable import shown
from tourney.tournament.hosted.validation import validate
from tourney.tournament.store.hosted import FAILED, newest_pending_id, next_pending, set_status
from tourney.tournament.store.hosted_tables import HostedVersion

logger = logging.getLogger(__name__)
MAX_WAITING = 8
REASON_CHARS = 200  # how much of a failed validation's own error its reason repeats


class ValidationBusy(TourneyError):
    """Too many versions are waiting for their validation."""


class ValidationQueue:
    """Validates the versions left pending in the store, then queued ones, in order on one daemon thread
    (started at once when versions are left pending, else on the first submission)."""

    def __init__(self, engine: Engine, store: str) -> None:
        self.engine = engine
        self.store = store
        self._waiting: queue.Queue[tuple[str, HostedVersion]] = queue.Queue(MAX_WAITING)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._storing = threading.Lock()
        # Versions stored after this are queued by this object: the two sets never meet, so none is validated twice.
        self._resume_upto = newest_pending_id(engine)
        if self._resume_upto:
            self._start()

    def submit(self, name: str, store: Callable[[], HostedVersion]) -> HostedVersion:
        """Store a new version of bot `name` (`store()`) and queue it for validation; ValidationBusy, with
        nothing stored, when MAX_WAITING already wait (a version stored without its place would wait for
        ever, and every refused upload would still have left its bundle in the store)."""
        with self._storing:  # the only writer of the queue: the room seen here is still there at the put
            if self._waiting.full():
                raise ValidationBusy(f"{MAX_WAITING} versions are waiting for validation: upload again later.")
            version = store()
            self._waiting.put_nowait((name, version))
        self._start()
        return version

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="hosted-validation", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        self._resume()
        while True:
            name, version = self._waiting.get()  # its place in the queue is free again from here
            self._validate(name, version)

    def _resume(self) -> None:
        """Validate the versions left pending before this queue was made, oldest first (ids only grow: it ends)."""
        after = 0
        while (found := next_pending(self.engine, after, self._resume_upto)) is not None:
            name, version = found
            assert version.id is not None
            after = version.id
            self._validate(name, version)

    def _validate(self, name: str, version: HostedVersion) -> None:
        try:
            validate(self.engine, self.store, name, version)
        except Exception as exc:  # one version's failure must not stop the others' validation
            logger.exception("validating %s v%s failed", name, version.version)
            self._record_failure(name, version, exc)

    def _record_failure(self, name: str, version: HostedVersion, exc: Exception) -> None:
        """Record a validation that raised as `failed`, with a reason its author sees: else the version
        would stay `pending` for good."""
        what = str(exc) if isinstance(exc, TourneyError) else type(exc).__name__
        reason = f"the validation itself stopped ({shown(what, REASON_CHARS)}): submit the version again."
        assert version.id is not None
        try:
            set_status(self.engine, version.id, FAILED, reason)
        except Exception:  # the store itself is failing: the log above is all there can be
            logger.exception("recording %s v%s as failed failed too", name, version.version)
