"""`jsonable` (a match's details as they are sent and stored): the plain types it passes by their exact
type give what the general path gives any value of their kind, subclasses included."""

from __future__ import annotations

import enum
from collections import OrderedDict
from fractions import Fraction

import orjson

from tourney.engine.core import jsonable


class Colour(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Name(str):
    pass


def test_plain_and_subclassed_values_come_out_as_json_holds_them() -> None:
    details = {
        "n": 1, "x": 0.5, "yes": True, "none": None, "s": "text",
        2: ["int key"], (0, 1): "tuple key",
        "tuple": (1, (2, 3)), "set": {4}, "frozen": frozenset({"a"}),
        "ordered": OrderedDict([(5, "five")]), "level": Level.HIGH, "name": Name("kept"),
        "colour": Colour.RED, "fraction": Fraction(1, 3),
    }
    out = jsonable(details)
    assert out == {
        "n": 1, "x": 0.5, "yes": True, "none": None, "s": "text",
        "2": ["int key"], "(0, 1)": "tuple key",
        "tuple": [1, [2, 3]], "set": [4], "frozen": ["a"],
        "ordered": {"5": "five"}, "level": Level.HIGH, "name": "kept",
        "colour": "Colour.RED", "fraction": "1/3",
    }
    assert type(out["ordered"]) is dict and type(out["tuple"][1]) is list
    assert out["yes"] is True and type(out["level"]) is Level  # an int subclass stays what it was
    assert orjson.loads(orjson.dumps(out)) == {**out, "level": 3}
