"""Keep the cycle collector off what a process built before its first match (a Ray driver or worker,
or `tourney run --local`).

Python's collector walks every tracked object of the oldest generation once enough allocations
pile up, and unpickling a chunk of results (the driver) or playing a chunk (a worker) allocates
plenty. A process that has imported Ray holds hundreds of thousands of long-lived objects, so
those walks cost the driver about as much CPU as all its other work per task (issue 32: half of
the driver's CPU on the shortest matches); the CLI's imports and store cost 0.1 s a walk. Frozen,
they are skipped; they are still freed by
reference counting like any object, so only a reference cycle among them would outlive its use,
and the modules and Ray state frozen here live as long as the process anyway.

The youngest generation is then collected after YOUNG_COLLECTION_AT net allocations instead of
Python's 700: a chunk of finished matches stays alive until it is written (or pickled, in a
worker), so every young collection walked it and promoted it, and the older walks followed; in
`tourney run --local` on the shortest matches that was ~10 us of a ~350 us match and 380 young
collections in 8,000 matches, against 137 at 10,000 (issue 32). Cyclic garbage still goes, a
little later: at most that many objects' worth waits for it.
"""

from __future__ import annotations

import gc
import os

YOUNG_COLLECTION_AT = 10_000
_frozen_in: set[int] = set()  # the process ids that froze already (a forked child freezes again)


def freeze_once() -> None:
    """Move every object tracked so far out of the collector's sight, once per process, and collect the young
    generation less often (YOUNG_COLLECTION_AT)."""
    if os.getpid() not in _frozen_in:
        freeze_now()


def freeze_now() -> None:
    """freeze_once's work, even in a process that froze before: what it built since then (a Ray driver's Ray,
    started in the background after the run's own imports and store were frozen) leaves the collector's sight too."""
    _frozen_in.add(os.getpid())
    gc.collect()  # what is garbage now is freed first, not frozen
    gc.freeze()
    young, *older = gc.get_threshold()
    if 0 < young < YOUNG_COLLECTION_AT:  # 0: collection is off; a larger setting is the user's, kept
        gc.set_threshold(YOUNG_COLLECTION_AT, *older)
