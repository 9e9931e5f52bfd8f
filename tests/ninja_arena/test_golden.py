"""The golden scenarios A1-A19 of spec §12."""

from __future__ import annotations

from tests.ninja_arena.helpers import dice_of, events, force_order, set_dice, table, tick
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.actions import HIT, KEEP, SWITCH, WAIT, Activate, Roll


def test_a1_spiral_wildcard() -> None:
    st = table(["Sasuke", "Naruto"])
    set_dice(st, 0, "WFKLS")
    act = Activate("T1", (0, 1), target=1)
    assert act in st.legal_actions(0)
    tick(st, {0: act})
    assert st.pool[1] == 2
    assert dice_of(st, 0) == "..KLS"
    assert st.cube[0] == 0


def test_a2_mistake_missing_dice() -> None:
    st = table(["Sasuke", "Naruto"])
    set_dice(st, 0, "KFKLS")
    act = Activate("T1", (1, 2), target=1)
    assert act not in st.legal_actions(0)
    tick(st, {0: act})
    assert st.cube[0] == 1
    assert st.pool == [0, 0]
    assert dice_of(st, 0) == "KFKLS"  # the action became WAIT
    assert events(st, "mistake") == [("mistake", 0)]


def _sasuke_last(pool: int) -> None:
    st = table(["Naruto", "Sasuke", "Sakura"])
    set_dice(st, 0, "HHHLL")
    st.pool[1] = pool
    force_order(st, [0, 1, 2], [2, 1])  # π_t, then ρ_t over the non-hitters {1, 2}: Sasuke last
    tick(st, {0: HIT})
    assert ("last_hitter", 1) in st.events
    assert st.cube[1] == 2 and st.pool[1] == 0
    assert st.cube[2] == 0 and st.power[0]


def test_a3_sasuke_tally_12() -> None:
    _sasuke_last(10)


def test_a3_sasuke_tally_13() -> None:
    _sasuke_last(11)


def test_a4_chakra_control() -> None:
    st = table(["Sasuke", "Sakura", "Naruto"])
    st.power[1] = True
    st.pool[1] = 13
    set_dice(st, 0, "HKKSS")
    force_order(st, [0, 1, 2], [1, 2])  # Naruto last, not Sakura
    tick(st, {0: HIT})
    assert st.cube[1] == 1 and st.pool[1] == 0
    assert not st.power[1] and st.power[0]
    assert st.cube[2] == 0  # Naruto: 2 tokens < 6


def test_a5_rasengan() -> None:
    st = table(["Naruto", "Sasuke", "Sakura"])
    set_dice(st, 0, "HRL..")
    tick(st, {0: Activate("T2", (0, 1, 2), target=1)})
    assert st.pool[1] == 5
    st.pool[2] = 1
    set_dice(st, 0, "HRL..")
    tick(st, {0: Activate("T2", (0, 1, 2), target=2)})
    assert st.pool[2] == 3


def test_a6_uzumaki_ordering_four_players() -> None:
    st = table(["Naruto", "Sakura", "Sasuke", "Shikamaru"])
    set_dice(st, 2, "HKKSS")
    st.pool[2] = 5
    force_order(st, [3, 0, 2, 1], [1, 0])
    tick(st, {2: HIT, 3: HIT, 0: Roll((1,)), 1: Roll((1,))})
    rolls = [e[1] for e in events(st, "roll")]
    assert rolls == [0, 1]
    pause = events(st, "pause")[0]
    assert pause[1:] == ("power", 2, (2, 3, 1, 0))
    assert ("tokens", 0, 2, "penalty") in st.events
    assert st.cube[3] == 0  # an early hit is no Mistake
    assert st.pool[2] == 5  # the trigger skips the tally
    assert [e[1] for e in events(st, "tally")] == [0, 1, 3]
    assert all(dice_of(st, p) == "....." for p in range(4))


def test_a7_bare_hit() -> None:
    st = table(["Naruto", "Sakura", "Sasuke"])
    tick(st, {1: HIT})
    assert st.cube[1] == 1 and st.pool[1] == 0


def test_a7_bare_hit_sets_off_shadow_token() -> None:
    st = table(["Shikamaru", "Sakura", "Sasuke"])
    st.shadow_on = True
    tick(st, {1: HIT})
    assert st.cube[1] == 1 and st.pool[1] == 3
    assert not st.shadow_on


def test_a8_kod_last_hitter_is_eliminated() -> None:
    st = table(["Naruto", "Sakura", "Sasuke"])
    st.ko[2] = True
    st.cube[2] = 4
    st.out_time[2] = 0
    set_dice(st, 0, "HHHLL")
    st.pool[1] = 3
    force_order(st, [0, 1, 2], [2])
    tick(st, {0: HIT, 1: HIT})
    assert events(st, "pause")[0][3] == (0, 1, 2)
    assert st.eliminated[2]
    assert [e[1] for e in events(st, "tally")] == [1]
    assert not st.over


def test_a8_variant_claimant_wins() -> None:
    st = table(["Naruto", "Sakura", "Sasuke"])
    st.ko[2] = True
    st.cube[2] = 4
    st.t = 7
    set_dice(st, 0, "HHHLL")
    st.cube[1] = 3
    st.pool[1] = 5
    force_order(st, [0, 1, 2], [2])
    tick(st, {0: HIT, 1: HIT})
    assert st.over
    out = st.outcome()
    assert out.ranking[0] == (0,)
    assert out.reason == "elimination"


def test_a9_shadow_stitching() -> None:
    st = table(["Shikamaru", "Sakura", "Sasuke"])
    st.t = 10
    set_dice(st, 0, "RRH..")
    tick(st, {0: Activate("T2", (0, 1, 2), target=1)})
    assert st.pool[1] == 3 and st.stitched[1] == 13
    for t in (11, 12, 13):
        assert st.t == t
        assert not any(isinstance(a, Roll) for a in st.legal_actions(1))
        if t == 12:
            set_dice(st, 1, "FH...")
            tick(st, {1: Activate("T1", (0, 1), target=2)})
            assert st.cube[1] == 1 and st.pool[2] == 1  # no new wound: ACTIVATE is fine
        else:
            before = st.cube[1]
            tick(st, {1: Roll((1,))})
            assert st.cube[1] == before + 1
    assert st.cube[1] == 2
    assert st.t == 14 and Roll((1,)) in st.legal_actions(1)
    tick(st, {1: Roll((1,))})
    assert st.cube[1] == 2


def test_a9_pause_clears_stitch() -> None:
    st = table(["Shikamaru", "Sakura", "Sasuke"])
    st.t = 10
    set_dice(st, 0, "RRH..")
    tick(st, {0: Activate("T2", (0, 1, 2), target=1)})
    set_dice(st, 2, "HKKSS")
    tick(st, {2: HIT})  # tick 11: a Power pause
    assert st.stitched[1] == 0
    tick(st, {1: Roll((1,))})  # tick 12
    assert st.cube[1] == 0


def test_a10_recovery() -> None:
    st = table(["Naruto", "Sakura", "Sasuke"])
    st.ko[0] = True
    st.cube[0] = 4
    set_dice(st, 0, "HHLLK")
    set_dice(st, 1, "FFHHL")
    force_order(st, [0, 1, 2], [1, 2])
    tick(st, {0: HIT})
    assert events(st, "pause")[0][1] == "recovery"
    assert ("tokens", 2, 2, "penalty") in st.events
    assert not st.ko[0] and st.cube[0] == 3 and st.recovered[0]
    assert all(dice_of(st, p) == "....." for p in range(3))
    tick(st, {0: Activate("T1", (0, 1), target=1)})  # a Mistake: KO again, so eliminated
    assert st.eliminated[0]


def test_a11_gamabunta() -> None:
    st = table(["Naruto", "Sakura", "Sasuke"])
    st.power[0] = True
    st.pool[0] = 3
    set_dice(st, 0, "HH...")
    tick(st, {0: Activate("T1", (0, 1), target=1)})
    assert st.pool[1] == 4 and st.pool[0] == 2


def test_a12_byakugan() -> None:
    st = table(["Sasuke", "Naruto", "Hinata"])
    st.power[2] = True
    st.byakugan[2] = 2
    set_dice(st, 0, "FF...")
    set_dice(st, 1, "HH...")
    tick(st, {0: Activate("T1", (0, 1), target=2), 1: Activate("T1", (0, 1), target=2)})
    assert st.byakugan[2] == 0 and st.pool[2] == 0
    set_dice(st, 0, "FF...")
    tick(st, {0: Activate("T1", (0, 1), target=2)})
    assert st.pool[2] == 2


def test_a13_fan() -> None:
    st = table(["Temari", "Sasuke", "Naruto"])
    set_dice(st, 0, "SL...")
    tick(st, {0: Activate("T1", (0, 1), target=2)})
    assert st.pool[2] == 1 and st.fan[0] == 3
    set_dice(st, 1, "FF...")
    tick(st, {1: Activate("T1", (0, 1), target=0)})
    assert st.pool[0] == 2 and st.pool[1] == 1 and st.fan[0] == 2


def test_a14_sides_two_players() -> None:
    st = table(["RockLee", "Sasuke"])
    set_dice(st, 0, "FLL..")
    tick(st, {0: Activate("T2", (0, 1, 2))})
    assert st.pool[1] == 4
    st2 = table(["RockLee", "Hinata"])
    st2.power[1] = True
    st2.byakugan[1] = 2
    set_dice(st2, 0, "FLL..")
    tick(st2, {0: Activate("T2", (0, 1, 2))})
    assert st2.pool[1] == 0 and st2.byakugan[1] == 1


def test_a15_mistake_knockout_ends_the_game() -> None:
    st = table(["Sasuke", "Naruto"])
    st.cube[0] = 3
    set_dice(st, 0, "KFKLS")
    tick(st, {0: Activate("T1", (1, 2), target=1), 1: Roll((1, 2))})
    assert st.over and st.ko[0]
    assert st.outcome().ranking == ((1,), (0,))
    assert dice_of(st, 1) == "....."  # the game ended at step C: no roll resolved


def test_a16_reclaiming_own_power() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    st.power[0] = True
    st.pool[0] = 9
    st.pool[1] = 6
    set_dice(st, 0, "HKKSS")
    force_order(st, [0, 1, 2], [1, 2])
    tick(st, {0: HIT})
    assert st.pool[0] == 9 and st.power[0]
    assert st.cube[1] == 1 and st.pool[1] == 0
    assert [e[1] for e in events(st, "tally")] == [1, 2]
    assert not events(st, "power_lost")


def test_a17_duel_switch() -> None:
    st = table(["Naruto", "Sasuke", "Sakura", "Gaara"], mode="duel")
    assert st.n == 2 and st.top == [D.NARUTO, D.SAKURA] and st.bottom == [D.SASUKE, D.GAARA]
    st.cube_b[0] = 1
    st.cube[0] = 2
    set_dice(st, 1, "FFHHL")
    tick(st, {1: HIT})
    assert st.power[1]
    assert list(st.to_act()) == [0]
    assert list(st.legal_actions(0)) == [KEEP, SWITCH]
    st.apply({0: SWITCH})
    assert st.top[0] == D.SASUKE and st.bottom[0] == D.NARUTO
    assert st.cube[0] == 1 and st.cube_b[0] == 2 and not st.power[0]
    assert list(st.to_act()) == [0, 1]
    set_dice(st, 0, "HH...")
    b1 = Activate("B1", (0, 1), target=1)
    assert b1 in st.legal_actions(0)
    tick(st, {0: b1})
    assert st.pool[1] == 3  # Naruto's Shadow Clone Jutsu from the bottom board
    st.pool[0] = 6
    set_dice(st, 1, "FFHHL")
    tick(st, {1: HIT})
    assert st.cube[0] == 2  # Sasuke's track: 6 (+2 last-hitter) = 8 >= 6 -> one wound
    st.apply({0: KEEP})
    assert st.top[0] == D.SASUKE


def test_a18_tick_cap() -> None:
    st = table(["Sasuke", "Naruto"], tick_cap=5)
    st.t = 5
    st.pool[:] = [7, 3]
    st.cube[:] = [1, 2]
    tick(st)
    assert st.over
    assert st.cube == [2, 2] and st.pool == [0, 0]
    out = st.outcome()
    assert out.reason == "cap" and out.ranking == ((0, 1),)


def test_a19_blade_dance_never_fills_with_blank() -> None:
    st = table(["Temari", "Sasuke"])
    st.power[0] = True
    set_dice(st, 0, "FSLSL")
    act = Activate("T1", (1, 2), target=1)
    tick(st, {0: act})
    assert st.cube[0] == 0 and dice_of(st, 0) == "F..SL"
    tick(st, {0: act})
    assert st.cube[0] == 1


def test_wait_is_always_legal_and_harmless() -> None:
    st = table(["Sasuke", "Naruto"])
    tick(st, {0: WAIT, 1: WAIT})
    assert st.cube == [0, 0] and st.t == 2
