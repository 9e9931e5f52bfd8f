"""clients/README.md cannot go stale: its observation fields per game are the proto's, and every
ErrorReport code the arena sends is documented there."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from tourney.engine.core import State, get_game
from tourney.engine.games.maitre_ninja.state import HISTORY_SHOWN
from tourney.engine.games.tiny_ninjas.state import EVENTS_SHOWN, shown_ids
from tourney.engine.server.codecs import codec_for
from tourney.engine.server.generated import arena_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "clients" / "README.md"
BEGIN, END = "<!-- observation fields: begin -->", "<!-- observation fields: end -->"
SCALARS = {FieldDescriptor.TYPE_STRING: "string", FieldDescriptor.TYPE_UINT32: "uint32",
           FieldDescriptor.TYPE_INT32: "int32", FieldDescriptor.TYPE_BOOL: "bool",
           FieldDescriptor.TYPE_DOUBLE: "double", FieldDescriptor.TYPE_UINT64: "uint64"}


def _type(field: FieldDescriptor) -> str:
    base = field.message_type.name if field.type == FieldDescriptor.TYPE_MESSAGE else SCALARS[field.type]
    return f"repeated {base}" if field.is_repeated else base


def _row(descriptor: Descriptor, what: str) -> str:
    fields = sorted(descriptor.fields, key=lambda f: f.number)
    return f"| {what} | `{descriptor.name}` | " + ", ".join(f"`{f.name}` {_type(f)}" for f in fields) + " |"


def observation_table() -> str:
    """The README's table: one row per game's typed observation (and the messages they nest)."""
    observation = pb.Observation.DESCRIPTOR
    rows = ["| `observation.<game>` | message | fields (number order) |", "|---|---|---|"]
    nested = []
    for field in sorted(observation.fields, key=lambda f: f.number):
        rows.append(_row(field.message_type, f"`{field.name}`"))
        nested += [f.message_type for f in field.message_type.fields
                   if f.type == FieldDescriptor.TYPE_MESSAGE and f.message_type not in nested]
    rows += [_row(message, "(nested)") for message in nested]
    return "\n".join(rows)


def test_the_readme_lists_the_observation_fields_of_every_game_as_the_proto_has_them() -> None:
    text = README.read_text()
    assert BEGIN in text and END in text, f"clients/README.md lost its {BEGIN} ... {END} block"
    block = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    expected = observation_table()
    assert block == expected, f"clients/README.md is stale; put this between the markers:\n{expected}"


def test_every_error_code_the_arena_sends_is_documented() -> None:
    sources = "".join(p.read_text() for p in (ROOT / "engine" / "server").rglob("*.py"))
    sent = set(re.findall(r'error_message\(\s*"([a-z_]+)"', sources))
    sent |= set(re.findall(r'error_message\(\s*"([a-z_]+)" if', sources))
    assert {"unknown_request", "rate_limited", "hello_timeout", "arena_full", "disconnection"} <= sent
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", README.read_text(), flags=re.MULTILINE))
    assert sent | {"slow_reader"} <= documented, f"undocumented codes: {sorted(sent - documented)}"


CHANGES_BEGIN, CHANGES_END = "<!-- observation changes: begin -->", "<!-- observation changes: end -->"


def _changes() -> str:
    text = README.read_text()
    assert CHANGES_BEGIN in text and CHANGES_END in text, "clients/README.md lost its observation changes list"
    return " ".join(text.split(CHANGES_BEGIN, 1)[1].split(CHANGES_END, 1)[0].split())


def _played_until(game_id: str, players: int, wanted: Callable[[State, int], bool]) -> tuple[State, int]:
    """A state of a random match (fixed seed) at the first seat to act for which `wanted` holds."""
    state = get_game(game_id).new_state(3, players=players, config={})
    rng = random.Random(3)
    for _ in range(2000):
        assert not state.is_over(), f"no {game_id} match state looked as wanted"
        seats = list(state.to_act())
        for seat in seats:
            if wanted(state, seat):
                return state, seat
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in seats})
    raise AssertionError(f"no {game_id} match state looked as wanted")


def test_the_readme_names_the_maitre_ninja_parry_actions_and_windows_as_the_game_has_them() -> None:
    text = _changes()
    assert f"only the latest {HISTORY_SHOWN} fights" in text
    assert '`kind` "Parry" and its one card in `row`' in text and "`row_so_far`" in text
    assert "number in `fight`" in text
    # A defender with a card laid already, after at least one fight, in a real (random) match.
    state, seat = _played_until("maitre-ninja", 4, lambda s, seat: s.observe(seat)["role"] == "defender"
                                and bool(s.observe(seat).get("row_so_far")) and len(s.observe(seat)["history"]) > 0)
    observation = state.observe(seat)
    assert "fight" in observation["history"][0]
    codec = codec_for("maitre-ninja")
    kinds = {codec.action(a).maitre_ninja.kind for a in state.legal_actions(seat)}
    rows = {len(codec.action(a).maitre_ninja.row) for a in state.legal_actions(seat)}
    assert kinds == {"Parry"} and rows == {1}


def test_the_readme_names_the_tiny_ninjas_event_window_and_ids_as_the_game_has_them() -> None:
    text = _changes()
    assert f"only the latest {EVENTS_SHOWN} events" in text and "`events_total`" in text
    assert "`hand_ids` names copies by rank" in text
    state, seat = _played_until("tiny-ninjas", 2, lambda s, seat: len(s.observe(seat)["hand"]) > 0)
    observation = state.observe(seat)
    assert observation["events_total"] >= len(observation["events"])
    assert observation["hand_ids"] == shown_ids(state.hands[seat])  # type: ignore[attr-defined]
