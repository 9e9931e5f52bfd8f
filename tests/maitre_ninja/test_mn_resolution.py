"""The fight resolution of §3.2 and the golden fights M1-M6."""

from __future__ import annotations

import pytest

from tests.maitre_ninja.helpers import lay, new
from tourney.engine.games.maitre_ninja import AttackLine, ParryRow
from tourney.engine.games.maitre_ninja.rules import OVER, CardResult, codes_of, resolve


def fight(rank: int, line: AttackLine, row: tuple[str, ...], players: int = 2):  # type: ignore[no-untyped-def]
    """Play one fight at `rank` through the state API; return the state and the fight's record."""
    state = new(players)
    state.ranks[0] = rank
    lay(state, line, ParryRow(row))
    return state, state.history[-1]


def test_m1_apprenti_parried() -> None:
    state, rec = fight(1, AttackLine(("Fi",)), ("JU", "BL"))
    assert rec.resolution.cards == (CardResult(burned=(0,), parried_at=1),)
    assert not rec.resolution.attacker_wins
    assert state.ranks == [1, 1]
    assert state.attacks_made == [1, 0]
    assert rec.public["attack"] == ["Fi"] and rec.public["face_down"] == 0
    assert rec.public["winner"] == "defender"


def test_m2_apprenti_breaks_through() -> None:
    state, rec = fight(1, AttackLine(("Te",)), ("BL", "JU"))
    assert rec.resolution.cards == (CardResult(burned=(0, 1), parried_at=None),)
    assert rec.resolution.attacker_wins
    assert state.ranks == [2, 1]


def test_m3_junior_sliding_window() -> None:
    state, rec = fight(2, AttackLine(("Fo", "Sh")), ("JU", "DO", "DO", "BL", "BL"))
    assert rec.resolution.cards == (CardResult((), 0), CardResult((1,), 2))
    assert not rec.resolution.attacker_wins
    assert rec.resolution.unused == (4,)
    assert state.ranks == [2, 1]


def test_m4_junior_defender_runs_dry() -> None:
    state, rec = fight(2, AttackLine(("Fi", "Ku")), ("BL", "BL", "DO", "JU", "JU"))
    assert rec.resolution.cards == (CardResult((), 0), CardResult((1, 2, 3, 4), None))
    assert rec.resolution.attacker_wins
    assert state.ranks == [3, 1]


@pytest.mark.parametrize(
    ("order", "ka_burned", "ka_at", "attacker_wins"),
    [
        (("BL", "DO", "JU"), (), 6, False),
        (("JU", "BL", "DO"), (6, 7), 8, False),
        (("DO", "JU", "BL"), (6,), 7, False),
        (("BL", "JU", "DO"), (6, 7, 8, 9, 10, 11), None, True),
    ],
)
def test_m5_ninja_rank_katana_orders(
    order: tuple[str, ...], ka_burned: tuple[int, ...], ka_at: int | None, attacker_wins: bool
) -> None:
    row = ("JU", "JU", "DO", "DO", "BL", "JU", "BL", "DO", "JU", "BL", "DO", "BL")
    state, rec = fight(4, AttackLine(("Fo", "As", "Ni", "Ka"), order), row)
    res = rec.resolution
    assert [c.parried_at for c in res.cards[:3]] == [0, 1, 3]
    assert res.cards[3] == CardResult(ka_burned, ka_at)
    assert res.attacker_wins is attacker_wins
    assert rec.public["ka_order"] == list(order)  # the Katana was reached: its order is public
    if attacker_wins:
        assert state.ranks[0] == 5
        assert state.first_master == 0
        assert state.phase == OVER  # seat 1 is not rank 4: no last-chance fight
    else:
        assert state.ranks[0] == 4


def test_m6_disciple_parried_with_three_cards_unused() -> None:
    state, rec = fight(3, AttackLine(("Te", "As", "Jo")), ("DO", "JU", "DO", "JU", "DO", "BL", "BL", "BL", "JU"))
    assert [c.parried_at for c in rec.resolution.cards] == [0, 1, 3]
    assert rec.resolution.burned == ()
    assert rec.resolution.unused == (6, 7, 8)
    assert not rec.resolution.attacker_wins
    assert state.ranks == [3, 1]  # no promotion, and the defender's rank never changes (A16)


def test_last_attack_parried_with_last_card_is_a_defender_win() -> None:
    # Fi [BL] at 0, Ku [BL JU] after one burn at 2-3, then Nu [BL JU DO] exactly fills 6-8.
    row = ("BL", "DO", "BL", "JU", "JU", "DO", "BL", "JU", "DO")
    res = resolve(codes_of(AttackLine(("Fi", "Ku", "Nu"))), row)
    assert [c.parried_at for c in res.cards] == [0, 2, 6]
    assert res.burned == (1, 4, 5)
    assert res.unused == ()
    assert not res.attacker_wins


def test_too_few_parries_left_burns_the_rest_without_comparing() -> None:
    # Fo [JU] at 0, Sh [DO BL] at 1-2; Jo [JU DO BL] burns 3-6, then 2 cards are left for a
    # 3-code: they burn without a comparison even though they start with JU DO.
    row = ("JU", "DO", "BL", "BL", "BL", "DO", "DO", "JU", "DO")
    res = resolve(codes_of(AttackLine(("Fo", "Sh", "Jo"))), row)
    assert res.attacker_wins
    assert res.cards[2] == CardResult((3, 4, 5, 6, 7, 8), None)
    assert res.revealed == 3
    assert res.unused == ()
    # One card short at the very first attack of a Junior: the 1-code is answered, the 2-code is not.
    res = resolve(codes_of(AttackLine(("Fi", "As"))), ("DO", "DO", "DO", "BL", "JU"))
    assert res.attacker_wins and res.cards[1] == CardResult((4,), None)


def test_attacker_win_leaves_later_cards_face_down_and_private() -> None:
    row = ("BL",) * 4 + ("JU",) * 4 + ("DO",) * 4
    state, rec = fight(4, AttackLine(("Te", "Ku", "Nu", "Ka"), ("JU", "DO", "BL")), row)
    # Te [DO] burns 0-7 and is parried at 8; Ku [BL JU] then finds no BL: 3 cards burn, exhausted.
    assert rec.resolution.attacker_wins
    assert rec.resolution.cards[1].burned == (9, 10, 11)
    assert rec.public["attack"] == ["Te", "Ku"]
    assert rec.public["face_down"] == 2
    assert rec.public["ka_order"] == []  # the Katana was never reached, so its order stays secret
    assert "Nu" not in str(state.observe(1)["history"])
    hidden = [{"fight": 1, "line": ["Te", "Ku", "Nu", "Ka"], "ka_order": ["JU", "DO", "BL"]}]
    assert state.observe(0)["my_hidden"] == hidden
    assert state.observe(1)["my_hidden"] == []


def test_katana_order_matters_against_one_row() -> None:
    row = ("DO", "BL", "JU") * 4
    base = ("Te", "Sh", "Ni")  # DO | DO BL | DO BL JU leaves j=6 on a DO
    wins = {
        order: resolve(codes_of(AttackLine((*base, "Ka"), order)), row).attacker_wins
        for order in (("DO", "BL", "JU"), ("BL", "JU", "DO"), ("JU", "DO", "BL"), ("JU", "BL", "DO"))
    }
    # Te at 0, Sh burns 1-2 and matches 3-4, Ni burns 5 and matches 6-8: 3 cards remain, DO BL JU.
    assert wins == {
        ("DO", "BL", "JU"): False,
        ("BL", "JU", "DO"): True,
        ("JU", "DO", "BL"): True,
        ("JU", "BL", "DO"): True,
    }
