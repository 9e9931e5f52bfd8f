"""clients/README.md cannot go stale: its observation fields per game are the proto's, and every
ErrorReport code the arena sends is documented there."""

from __future__ import annotations

import re
from pathlib import Path

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from engine.server.generated import arena_pb2 as pb

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
