"""`tourney replay` tells what each seat did, as the rules show it to everyone.

Tiny Ninjas' plays, defences and discards are public (the card lands face up), so the public
replay names them; a Blitz mulligan is chosen face down, so the public replay says only that
each seat committed one, and the organiser's `--full` names the card.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tourney.engine.core import get_game
from tourney.engine.games.tiny_ninjas.data import INSTANCE_NAME
from tourney.tournament.cli import app

CARD_NAMES = frozenset(INSTANCE_NAME)

SEED_KEY = "replay-names-actions-test-key"


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _first_match(db: Path, *settings: str) -> str:
    ran = json.loads(_invoke("run", "--local", "--bots", "random,greedy", "--games-per-pair", "1", "--seed-key",
                             SEED_KEY, "--db", str(db), "--json", *settings))
    listing = json.loads(_invoke("matches", str(ran["tournament_id"]), "--db", str(db), "--json"))
    return str(listing["matches"][0]["id"])


def test_the_public_replay_of_tiny_ninjas_names_each_public_action(tmp_path: Path) -> None:
    db = tmp_path / "tn.db"
    public = _invoke("replay", _first_match(db), "--db", str(db))
    said = [line for line in public.splitlines() if line.startswith("seat ")]
    assert said and not any(line.endswith(": acted") for line in said)
    assert any(": play " in line for line in said) and any(": discard " in line for line in said)


def test_a_face_down_mulligan_stays_unnamed_in_public_and_is_named_in_full(tmp_path: Path) -> None:
    db = tmp_path / "blitz.db"
    match = _first_match(db, "--mode", "blitz")
    public = _invoke("replay", match, "--db", str(db))
    full = _invoke("replay", match, "--db", str(db), "--full")
    assert ": committed" in public and ": mulligan " not in public
    assert ": mulligan " in full and ": committed" not in full


@pytest.mark.parametrize("mode", ["standard", "blitz", "survivor", "champion"])
def test_every_action_the_public_replay_names_shows_only_cards_the_public_view_shows(mode: str) -> None:
    """A name in a public label must be a card the rules have turned face up: after the action,
    every card its label names is in the public view (the discard pile, the events)."""
    game = get_game("tiny-ninjas")
    for seed in range(6):
        state = game.new_state(seed, config={"mode": mode})
        rng = random.Random(seed)
        while not state.is_over():
            joint = {s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()}
            state.apply(joint)
            public = json.dumps(state.public_view())
            for action in joint.values():
                if action.secret:
                    continue
                named = {word for word in action.label.split() if word in CARD_NAMES}
                assert all(f'"{card}"' in public for card in named), (mode, seed, action.label)
