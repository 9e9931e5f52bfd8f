"""Numbers are checked where the organiser gives them, and an OverflowError of ours is never blamed on them.

Before, `guarded` turned any OverflowError into "a number given is beyond a 64-bit integer": gRPC's
refusal of --max-receive-kb 4194304 (a 64-bit number) read as the user's fault, and a real overflow deep
in the code would have too; --move-ms past RunMatch's uint32, --concurrency past Hello's and an infinite
SPRT Elo ended in tracebacks. Each route now has its own sentence naming the option, and the store keeps
what it held.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.tournament.test_cli import one_sentence_error, run
from tourney.tournament.cli.shared import guarded

BIG = str(1 << 63)
PAST_UINT32 = str(1 << 32)


def test_an_overflow_inside_a_command_surfaces_as_the_bug_it_is():
    def deep_bug() -> None:
        raise OverflowError("int too large to convert")

    with pytest.raises(OverflowError):
        guarded(deep_bug)


@pytest.mark.parametrize("args,fragment", [
    (("run", "--game", "sticks", "--bots", "random,greedy", "--resume", BIG), "--resume 9223372036854775808"),
    (("league", "create", "a", "--game", "sticks", "--schedule", "0 20 * * *", "--rounds-per-season", BIG),
     "--rounds-per-season 9223372036854775808"),
    (("league", "create", "b", "--game", "sticks", "--schedule", "0 20 * * *", "--promote", BIG), "--promote"),
    (("league", "standings", "x", "--season", BIG), "--season 9223372036854775808"),
    (("replay", BIG), "MATCH_ID 9223372036854775808"),
    (("ladder", "standings", "--game", "sticks", "--limit", BIG), "--limit"),
    (("league", "create", "c", "--game", "sticks", "--schedule", "0 20 * * *", "--move-ms", PAST_UINT32),
     "--move-ms 4294967296 is out of range: give a whole number from 1 to 4,294,967,295"),
    (("run", "--game", "sticks", "--bots", "random,greedy", "--move-ms", PAST_UINT32), "--move-ms 4294967296"),
    (("arena-match", "--game", "sticks", "--bots", "random,random", "--move-ms", PAST_UINT32),
     "from 0 to 4,294,967,295"),
    (("connect", "--game", "sticks", "--arena", "127.0.0.1:1", "--concurrency", PAST_UINT32), "--concurrency"),
    (("serve", "--port", "0", "--max-receive-kb", str(1 << 22)), "--max-receive-kb 4194304"),
    (("serve", "--port", "0", "--streams-per-connection", PAST_UINT32), "--streams-per-connection"),
    (("serve", "--port", "0", "--idle-connection-s", "inf"), "--idle-connection-s"),
    (("serve", "--port", "0", "--move-ms", PAST_UINT32), "--move-ms 4294967296"),
    (("sprt", "--game", "sticks", "--bots", "greedy,random", "--local", "--elo0", "1e308", "--elo1", "inf"),
     "within ±4,000"),
    (("run", "--game", "sticks", "--bots", "greedy,random", "--local", "--format", "gauntlet", "--sprt", "0,9000"),
     "within ±4,000"),
    (("run", "--game", "tiny-ninjas", "--bots", "random,greedy", "--set", f"round_cap={BIG}"), "config 'round_cap'"),
])
def test_each_route_to_an_oversized_number_is_one_sentence_and_keeps_the_store(tmp_path, args, fragment):
    db = str(tmp_path / "t.db")
    first = run("run", "--game", "sticks", "--bots", "random,greedy", "--db", db, "--json")
    assert first.exit_code == 0, first.output
    one_sentence_error(run(*args, "--db", db) if args[0] not in ("connect", "serve", "arena-match")
                       else run(*args), fragment)
    again = run("standings", "1", "--db", db, "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["standings"] == json.loads(first.stdout)["standings"]
    with sqlite3.connect(db) as con:  # and the refused command stored nothing
        assert con.execute("select count(*) from tournament").fetchone()[0] == 1
