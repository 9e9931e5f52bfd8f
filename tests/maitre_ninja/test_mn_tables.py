"""Maître Ninja data tables and legal lists (§1, §3.1, M9)."""

from __future__ import annotations

from itertools import product

import pytest

from tests.maitre_ninja.helpers import new
from tourney.engine.games.maitre_ninja import data
from tourney.engine.games.maitre_ninja.actions import (
    AttackLine,
    ParryRow,
    attack_lines,
    count_rows,
    iter_rows,
    next_parries,
    parry_rows,
)

SUPPLY = (4, 4, 4)


def test_the_box_holds_33_cards() -> None:
    assert data.card_count() == 33
    assert sum(len(level) for level in data.ATTACK_LEVELS) == 10


def test_codes_are_one_answer_per_first_parry_and_length_is_level() -> None:
    for level, cards in enumerate(data.ATTACK_LEVELS[:3], start=1):
        codes = [data.PARRY_CODE[c] for c in cards]
        assert all(len(code) == level for code in codes)
        assert sorted(code[0] for code in codes) == sorted(data.PARRY_TYPES)
    assert len(set(data.KATANA_ORDERS)) == 6


def test_no_rank4_line_needs_more_than_four_of_a_type() -> None:
    for line in attack_lines(4):
        needed = [p for card in line.cards for p in (line.ka_order if card == "Ka" else data.PARRY_CODE[card])]
        assert len(needed) == 9
        assert max(needed.count(t) for t in data.PARRY_TYPES) <= 4


@pytest.mark.parametrize(("rank", "lines", "length", "rows"), [(1, 3, 2, 9), (2, 9, 5, 240), (3, 27, 9, 11130),
                                                               (4, 162, 12, 34650)])
def test_legal_counts_by_rank(rank: int, lines: int, length: int, rows: int) -> None:
    state = new(2, parries_by_rank={1: 2, 2: 5, 3: 9, 4: 12})
    state.ranks[0] = rank
    assert len(state.legal_actions(0)) == lines
    assert [p.parry for p in state.legal_actions(1)] == list(data.PARRY_TYPES)  # one parry at a time
    assert data.PARRIES_BY_RANK[rank] == length
    assert len(set(state.legal_actions(0))) == lines
    assert reachable_rows(length) == set(iter_rows(length, SUPPLY)) and len(reachable_rows(length)) == rows


def reachable_rows(length: int) -> set[tuple[str, ...]]:
    """Every whole row the defender can lay parry by parry: the legal rows, no more, no fewer (§3.1)."""
    out: set[tuple[str, ...]] = set()

    def walk(laid: tuple[str, ...]) -> None:
        if len(laid) == length:
            out.add(laid)
            return
        for parry in next_parries(laid, length, SUPPLY):
            walk((*laid, parry.parry))

    walk(())
    return out


def test_lines_are_in_level_order_and_katana_orders_are_free() -> None:
    lines = attack_lines(4)
    assert lines[0] == AttackLine(("Fi", "As", "Nu", "Ka"), ("DO", "BL", "JU"))
    for line in lines:
        assert [c in level for c, level in zip(line.cards, data.ATTACK_LEVELS, strict=True)] == [True] * 4
    assert {line.ka_order for line in lines} == set(data.KATANA_ORDERS)
    assert all(line.ka_order == () for line in attack_lines(3))


def test_row_list_indexing_matches_full_enumeration() -> None:
    for length in (2, 5, 9):
        rows = parry_rows(length, SUPPLY)
        listed = list(iter_rows(length, SUPPLY))
        brute = [r for r in product(data.PARRY_TYPES, repeat=length) if all(r.count(t) <= 4 for t in data.PARRY_TYPES)]
        assert sorted(listed) == sorted(brute)
        assert len(rows) == len(listed)
        for i in range(0, len(listed), max(1, len(listed) // 500)):
            assert rows[i].row == listed[i]
            assert rows.index(rows[i]) == i
        assert rows[-1].row == listed[-1]


def test_rank4_row_list_round_trips_by_index_arithmetic() -> None:
    rows = parry_rows(12, SUPPLY)
    assert len(rows) == 34650 == count_rows(12, SUPPLY)
    for i in (0, 1, 2, 1000, 17325, 34648, 34649):
        row = rows[i]
        assert sorted(row.row.count(t) for t in data.PARRY_TYPES) == [4, 4, 4]
        assert rows.index(row) == i
    with pytest.raises(IndexError):
        rows[34650]


def test_row_order_is_lexicographic_in_do_bl_ju_order() -> None:
    keys = [tuple(data.PARRY_TYPES.index(p) for p in row) for row in iter_rows(9, SUPPLY)]
    assert keys == sorted(keys)
    assert parry_rows(2, SUPPLY)[0] == ParryRow(("DO", "DO"))


def test_legal_list_is_the_same_object_every_query() -> None:
    state = new(2)
    state.ranks[0] = 4
    assert state.legal_actions(1) is state.legal_actions(1)
    assert state.legal_actions(0) is state.legal_actions(0)


def test_m9_a_fifth_ju_is_never_offered_and_a_short_supply_forces_the_rest() -> None:
    assert [p.parry for p in next_parries(("JU",) * 4, 12, SUPPLY)] == ["DO", "BL"]
    assert [p.parry for p in next_parries(("JU",) * 4 + ("DO",) * 4, 12, SUPPLY)] == ["BL"]
    # Two piles of one card each and a row of two: after DO, only BL can complete it.
    assert [p.parry for p in next_parries(("DO",), 2, (1, 1, 0))] == ["BL"]


def test_m9_five_ju_is_illegal_any_444_permutation_is_legal() -> None:
    rows = parry_rows(12, SUPPLY)
    assert ParryRow(("JU",) * 5 + ("DO",) * 4 + ("BL",) * 3) not in rows
    assert ParryRow(("JU",) * 4 + ("DO",) * 4 + ("BL",) * 4) in rows
    assert ParryRow(("BL", "DO", "JU") * 4) in rows
    assert ParryRow(("BL", "DO", "JU") * 3) not in rows  # wrong length
    with pytest.raises(ValueError):
        rows.index(ParryRow(("JU",) * 12))
