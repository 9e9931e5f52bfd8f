"""Protobuf wire framing by hand: varints, field keys and length-delimited fields.

The arena writes its hottest messages (ActionRequests, and parts of observations that repeat)
as bytes rather than building protobuf objects for them. Protobuf allows fields in any order,
a repeated field's entries spread over the message, and explicit zero values, so these bytes
parse as the same message a generated stub would build.
"""

from __future__ import annotations

from typing import Any

_ONE_BYTE = [bytes((i,)) for i in range(0x80)]  # most varints here (ids, seats, lengths) are small


def varint(value: int) -> bytes:
    """A non-negative int as a protobuf varint: 7 bits a byte, low bits first."""
    if value < 0x80:
        return _ONE_BYTE[value]
    if value < 0x4000:  # request ids and lengths mostly stop here
        return bytes(((value & 0x7F) | 0x80, value >> 7))
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def field(tag: bytes, payload: bytes) -> bytes:
    """`payload` as a length-delimited field (a string or a submessage) with its tag."""
    return b"".join((tag, varint(len(payload)), payload))


def tag(message: Any, name: str, length_delimited: bool) -> bytes:
    """The key of field `name` of a proto message, as the wire writes it (field number << 3 | wire type).

    Read from the generated descriptors, so the bytes follow the contract if it ever changes.
    """
    return varint(message.DESCRIPTOR.fields_by_name[name].number << 3 | (2 if length_delimited else 0))
