"""`tourney pair --system dutch TRF_FILE`: a TRF written by us, paired by us and by py4swiss from the same file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser
from typer.testing import CliRunner

from tourney.tournament.cli import app
from tourney.tournament.formats.dutch import dutch_round
from tourney.tournament.formats.pairing import PlayedGame
from tourney.tournament.formats.trf import format_pairing, read_trf, write_trf

runner = CliRunner()


def simulate(n: int, rounds: int, total: int, seed: int) -> list[list[PlayedGame]]:
    rng = random.Random(seed)
    history: list[list[PlayedGame]] = []
    for _ in range(rounds):
        pairs, bye = dutch_round(n, history, total)
        games = [PlayedGame((a, b), (x, 1 - x)) for a, b in pairs for x in [rng.choice([1.0, 0.5, 0.0])]]
        if bye is not None:
            games.append(PlayedGame((bye,), (1.0,)))
        history.append(games)
    return history


def pairing_lines(text: str) -> list[str]:
    lines = text.strip().splitlines()
    assert int(lines[0]) == len(lines) - 1  # the count, then one line per pair
    return lines[1:]


@pytest.mark.parametrize(("n", "played", "total", "seed"), [(37, 4, 7, 1), (24, 3, 5, 2), (51, 6, 7, 3)])
def test_pair_reads_our_trf_and_agrees_with_py4swiss_on_the_same_file(tmp_path, n, played, total, seed):
    history = simulate(n, played, total, seed)
    path = tmp_path / "event.trf"
    path.write_text(write_trf([f"bot{i}" for i in range(n)], history, total))
    result = runner.invoke(app, ["pair", "--system", "dutch", str(path)])
    assert result.exit_code == 0, result.output
    ours = pairing_lines(result.stdout)
    theirs = [f"{p.white} {p.black}" for p in DutchEngine.generate_pairings(TrfParser.parse(path))]
    assert sorted(ours) == sorted(theirs)
    assert (n % 2 == 1) == any(line.endswith(" 0") for line in ours)  # a bye is N 0
    # The file says what our history says: the command pairs exactly as the pairer does in a tournament.
    pairs, bye = dutch_round(n, history, total)
    assert pairing_lines(format_pairing(pairs, bye)) == ours


def test_the_trf_round_trip_keeps_scores_colours_and_byes():
    history = simulate(9, 3, 5, 4)
    t = read_trf(write_trf([f"b{i}" for i in range(9)], history, 5))
    assert t.total_rounds == 5 and len(t.players) == 9
    games, extra = t.history()
    assert all(x == 0 for row in extra for x in row)
    for ours, theirs in zip(history, games, strict=True):
        assert sorted((g.seats, g.points) for g in ours) == sorted((g.seats, g.points) for g in theirs)


BAD = [
    ("hello world\n", "fewer than two player lines"),
    ("001    1      a\n001    1      b\n", "appears twice"),
    ("001    1      a\n001    3      b\n", "without gaps"),
    ("XXR nine\n", "XXR needs the total number of rounds"),
]


@pytest.mark.parametrize(("text", "words"), BAD)
def test_a_bad_trf_is_one_sentence_and_exit_2(tmp_path, text, words):
    path = tmp_path / "bad.trf"
    path.write_text(text)
    result = runner.invoke(app, ["pair", "--system", "dutch", str(path)])
    assert result.exit_code == 2
    message = result.output.strip()
    assert words in message and len(message.splitlines()) == 1 and "Traceback" not in message


def test_games_the_two_players_disagree_on_are_refused(tmp_path):
    text = write_trf(["a", "b", "c", "d"], [[PlayedGame((0, 1), (1.0, 0.0)), PlayedGame((2, 3), (0.5, 0.5))]], 3)
    lines = text.splitlines()
    lines[3] = lines[3][:91] + "   3 b 0"  # player 2 claims to have met 3, who says it met 1
    path = tmp_path / "odd.trf"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["pair", str(path)])
    assert result.exit_code == 2 and "do not agree on their game" in result.output


def test_a_missing_file_and_an_unknown_system_are_one_sentence(tmp_path):
    missing = runner.invoke(app, ["pair", str(tmp_path / "nope.trf")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    path = tmp_path / "e.trf"
    path.write_text(write_trf(["a", "b"], [], 1))
    unknown = runner.invoke(app, ["pair", "--system", "burstein", str(path)])
    assert unknown.exit_code == 2 and "use --system dutch" in unknown.output


def test_the_readme_example_pairs_as_py4swiss_does_line_for_line():
    # README: `tourney pair --system dutch docs/examples/event.trf`. The file is hand-written TRF (not by
    # write_trf), with two pairing-allocated byes; the output must be py4swiss's, in its publishing order.
    path = Path(__file__).resolve().parents[2] / "docs" / "examples" / "event.trf"
    result = runner.invoke(app, ["pair", "--system", "dutch", str(path)])
    assert result.exit_code == 0, result.output
    theirs = [f"{p.white} {p.black}" for p in DutchEngine.generate_pairings(TrfParser.parse(path))]
    assert result.stdout.splitlines() == [str(len(theirs)), *theirs]
    assert theirs[-1].endswith(" 0")  # eleven players: the bye, printed last as N 0


def test_the_readme_quotes_the_example_output():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    path = Path(__file__).resolve().parents[2] / "docs" / "examples" / "event.trf"
    lines = runner.invoke(app, ["pair", "--system", "dutch", str(path)]).stdout.splitlines()
    assert "that is " + ", then ".join([f"`{lines[0]}`", ", ".join(f"`{x}`" for x in lines[1:])]) + "." in \
        " ".join(readme.split())
