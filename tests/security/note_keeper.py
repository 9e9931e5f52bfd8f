"""A `cmd:` program that keeps notes (its hand at its first decision of each match, a line each, in a
file), and a player of matches that dies after one: the parts of the attacks on matches played again
after their player died."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """
import json, sys
sys.path.insert(0, sys.argv[2])
from tourney_bot import Bot, run_bot

class Keeper(Bot):
    seen = set()

    def act(self, observation, legal_actions, request):
        if request.match_id not in self.seen:
            self.seen.add(request.match_id)
            with open(sys.argv[1], "a") as notes:
                notes.write(json.dumps(observation["hand"]) + "\\n")
        return 0

run_bot(Keeper())
"""


def keeper_spec(folder: Path) -> str:
    """The `cmd:` spec of the note keeper, writing to folder/hands.txt (see hands)."""
    (folder / "keeper.py").write_text(PROGRAM)
    return f"cmd:{sys.executable} {folder / 'keeper.py'} {folder / 'hands.txt'} {ROOT / 'clients/python'}"


def hands(folder: Path) -> list[list[str]]:
    """The hands the note keeper in `folder` was dealt, match by match."""
    return [json.loads(line) for line in (folder / "hands.txt").read_text().splitlines()]


class Died(Exception):
    """The process playing the matches is gone."""


class DiesAfterOneMatch:
    """An executor that plays the first match it is given (or fed), then dies before handing it back."""

    workers = 1

    def run(self, plan: Any, pairings: Sequence[Any], more: Any = None) -> Iterator[list[Any]]:
        plan.play((list(pairings) or more())[0])
        raise Died
        yield []  # a generator, as executors are

    def close(self) -> None:
        pass
