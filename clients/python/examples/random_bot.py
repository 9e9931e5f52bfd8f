"""Plays any game: a uniformly random legal action. Run: .venv/bin/python clients/python/examples/random_bot.py"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tourney_bot import RandomBot, run_bot  # noqa: E402

if __name__ == "__main__":
    run_bot(RandomBot())
