"""The arena executors' run loop (workers/threads.py): every pairing once, the ladder's feed, the stop flag."""

from __future__ import annotations

import threading

import pytest

from tourney.workers.threads import play_on_threads


def _play(pairing: int) -> tuple[int, str, float]:
    return pairing, f"record {pairing}", 0.0


@pytest.mark.timeout(60)
def test_every_pairing_is_played_once_and_the_feed_is_asked_until_it_runs_dry() -> None:
    batches = [[3, 4], [5], []]
    asked = []

    def more() -> list[int]:
        asked.append(1)
        return batches.pop(0) if batches else []

    played = [p for chunk in play_on_threads(_play, [1, 2], 2, "test", more=more) for p, _, _ in chunk]
    assert sorted(played) == [1, 2, 3, 4, 5]
    assert len(asked) == 3  # after [1, 2], after [3, 4], after [5]: then it ran dry and the run ended


@pytest.mark.timeout(60)
def test_an_empty_run_with_a_feed_still_asks_it() -> None:
    fed = iter([[7], []])
    assert [p for chunk in play_on_threads(_play, [], 1, "test", more=lambda: next(fed)) for p, _, _ in chunk] == [7]


@pytest.mark.timeout(60)
def test_a_set_stop_flag_hands_back_nothing_more() -> None:
    stop = threading.Event()
    stop.set()
    assert list(play_on_threads(_play, [1, 2, 3], 1, "test", stop=stop)) == []
