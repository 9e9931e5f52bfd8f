"""The codecs' number and list helpers: the fast path for plain ints in range (issue 32) gives what
the general path gives, and everything else is still converted and clamped to the proto field."""

from __future__ import annotations

import enum

from tourney.engine.server.codecs.base import int32_or, int_list, str_list, uint32_or, uint_list


class Colour(enum.IntEnum):
    RED = 3


def test_plain_ints_in_range_pass_through_and_the_rest_is_converted_and_clamped():
    assert [int32_or(v, -1) for v in (0, -5, 2**31 - 1, -(2**31))] == [0, -5, 2**31 - 1, -(2**31)]
    assert [int32_or(v, -1) for v in (2**62, -(2**40), True, 7.9, None, "3", Colour.RED)] == \
        [2**31 - 1, -(2**31), 1, 7, -1, -1, 3]
    assert [uint32_or(v, 9) for v in (0, 2**32 - 1, 2**62, -3, False, 2.5, None, Colour.RED)] == \
        [0, 2**32 - 1, 2**32 - 1, 0, 0, 2, 9, 3]


def test_lists_convert_each_element_the_same_way():
    assert int_list([1, 2**40, -(2**40), None, True, 2.7]) == [1, 2**31 - 1, -(2**31), 0, 1, 2]
    assert uint_list((4, -1, 2**33, "x", Colour.RED)) == [4, 0, 2**32 - 1, 0, 3]
    assert str_list(["a", 3, None, Colour.RED]) == ["a", "3", "None", str(Colour.RED)]
    assert int_list(None) == uint_list("abc") == str_list(7) == []
