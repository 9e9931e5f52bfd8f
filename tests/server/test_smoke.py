from tests.server.harness import ArenaHarness


def test_two_network_bots_play_sticks(harness: ArenaHarness) -> None:
    a = harness.bot("alice")
    b = harness.bot("bob")
    record = harness.run_match("sticks", ["remote:alice", "remote:bob"], seed=3)
    assert record.termination == "normal"
    assert sorted(record.ranks) == [1, 2]
    assert a.requests + b.requests > 0
