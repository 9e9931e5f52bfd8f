"""Say on the terminal, as it happens, why a bot program (`cmd:...`) did not play.

The forfeit is stored with its reason either way; this makes the first one of each bot visible
at once instead of only in `tourney matches` or bot-logs/ after the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tourney.workers.program_specs import NOT_PLAYED


class ProgramFaultNotes:
    """Wraps an executor: passes every chunk on, and calls `say` once per bot whose program did not play."""

    def __init__(self, inner: Any, say: Callable[[str], None]) -> None:
        self.inner = inner
        self.say = say
        self.noted: set[str] = set()

    @property
    def workers(self) -> int:
        return int(self.inner.workers)

    def run(self, plan: Any, pairings: Sequence[Any], more: Callable[[], Sequence[Any]] | None = None
            ) -> Iterator[list[Any]]:
        for chunk in self.inner.run(plan, pairings, more):
            for pairing, record, _seconds in chunk:
                self._note(pairing, record)
            yield chunk

    def _note(self, pairing: Any, record: Any) -> None:
        if NOT_PLAYED not in record.reason:
            return
        for alias, seat in zip(record.aliases, record.seats, strict=False):  # solo: the AI's seats come last
            if seat.faults.get("crash") and alias not in self.noted:
                self.noted.add(alias)
                self.say(f"warning: {alias} forfeited match #{pairing.number + 1}: {record.reason} "
                         "(later forfeits of this bot are listed by `tourney matches`)")

    def close(self) -> None:
        self.inner.close()
