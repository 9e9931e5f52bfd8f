"""A bot never learns its match's seed while the match runs: the seed decides every hidden card."""

from __future__ import annotations

import json

from tests.security.hidden import rebuild
from tests.server.bots import RecordingBot
from tests.server.harness import ArenaHarness
from tourney.engine.core import get_game


def test_match_started_carries_no_seed_and_the_seed_would_reveal_the_opponents_hand(harness: ArenaHarness) -> None:
    bot = RecordingBot(seed=3)
    harness.bot("curious", bot)
    record = harness.run_match("tiny-ninjas", ["remote:curious", "random"], 123456789, match_id="secret-deal")
    started = bot.started["secret-deal"]
    assert started.seed == 0 and started.seat == 0
    assert record.seed == 123456789  # revealed once the match is over
    # Why it matters: from the seed alone anyone can deal the same opening hands.
    logs, _ = rebuild(json.loads(record.replay_json))
    dealt = get_game("tiny-ninjas").new_state(record.seed, players=2)
    first = logs[0][0].state
    assert dealt.hands[1] == first.hands[1]  # type: ignore[attr-defined]
