"""Each character's kit (§10), the tally arithmetic (§3.4), hit order and Duel losses."""

from __future__ import annotations

import pytest

from tests.ninja_arena.helpers import dice_of, events, force_faces, force_order, set_dice, table, tick
from tourney.engine.core import ConfigError, Illegal
from tourney.engine.games.ninja_arena import GAME, rules
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.actions import HIT, Activate, Roll


@pytest.mark.parametrize(
    ("pool", "cube", "ko"),
    [(5, 0, False), (6, 1, False), (16, 2, False), (17, 3, False), (21, 4, True), (40, 4, True)],
)
def test_tally_arithmetic_sasuke(pool: int, cube: int, ko: bool) -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    st.pool[0] = pool
    rules.tally(st, 0, defer=False)
    assert st.cube[0] == cube and st.pool[0] == 0 and st.ko[0] == ko


def test_mistake_wound_does_not_tally() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    st.pool[0] = 4
    tick(st, {0: Illegal(raw="99")})
    assert st.cube[0] == 1 and st.pool[0] == 4


def test_sakura_kit() -> None:
    st = table(["Sakura", "Sasuke", "Naruto"])
    st.pool[0] = 3
    set_dice(st, 0, "FH...")
    tick(st, {0: Activate("T1", (0, 1), target=1)})
    assert st.pool == [1, 1, 0]
    set_dice(st, 0, "HHF..")
    tick(st, {0: Activate("T2", (0, 1, 2), target=2)})
    assert st.pool[2] == 4


def test_sasuke_chidori_and_curse_mark() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "HHK..")
    tick(st, {0: Activate("T2", (0, 1, 2), allocation=((1, 4), (2, 2)))})
    assert st.pool == [1, 4, 2]
    st.power[0] = True
    set_dice(st, 0, "HHK..")
    tick(st, {0: Activate("T2", (0, 1, 2), allocation=((1, 4), (2, 2)), bonus_target=2)})
    assert st.pool == [2, 8, 6]
    set_dice(st, 0, "FF...")
    tick(st, {0: Activate("T1", (0, 1), target=2)})
    assert st.pool[2] == 10  # 2 + Curse Mark 2


def test_split_must_sum() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "HHK..")
    tick(st, {0: Activate("T2", (0, 1, 2), allocation=((1, 4), (2, 1)))})
    assert st.cube[0] == 1 and st.pool == [0, 0, 0]


def test_shikamaru_shadow_possession_and_token() -> None:
    st = table(["Shikamaru", "Sasuke", "Naruto"])
    set_dice(st, 0, "RH...")
    tick(st, {0: Activate("T1", (0, 1), target=1)})
    assert st.pool[1] == 2 and st.shadow_on
    # Naruto claims a Power: as first hitter he takes the Shadow token's 3.
    set_dice(st, 2, "HHHLL")
    force_order(st, [0, 1, 2], [0, 1])
    tick(st, {2: HIT})
    assert ("tokens", 2, 3, "shadow") in st.events and not st.shadow_on
    assert st.pool[2] == 3  # the trigger keeps its pool


def test_shikamaru_claim_ignores_his_own_shadow() -> None:
    st = table(["Shikamaru", "Sasuke", "Naruto"])
    st.shadow_on = True
    set_dice(st, 0, "RRHHL")
    tick(st, {0: HIT})
    assert st.pool[0] == 0 and not st.shadow_on and st.power[0]


def test_stream_his_chakra() -> None:
    st = table(["Shikamaru", "Sasuke", "Naruto"])
    st.power[0] = True
    force_faces(st, 1, 1)  # black die: W; die 1: K
    tick(st, {0: Roll((0, 1))})
    assert dice_of(st, 0) == "WK..."
    assert st.pool[1] == 3  # default: the left neighbour
    force_faces(st, 1)
    assert Roll((0,), 2) in st.legal_actions(0)
    tick(st, {0: Roll((0,), 2)})
    assert st.pool[2] == 3
    force_faces(st, 2)  # no spiral, no stream
    tick(st, {0: Roll((0,))})
    assert st.pool == [0, 3, 3]


def test_rock_lee_fist_levels_and_gate() -> None:
    st = table(["RockLee", "Sasuke", "Naruto"])
    for k, dmg in ((2, 1), (3, 3), (4, 5)):
        set_dice(st, 0, "FFFF.")
        st.pool[1] = 0
        tick(st, {0: Activate("T1", tuple(range(k)), target=1)})
        assert st.pool[1] == dmg
    set_dice(st, 0, "FFFLL")
    tick(st, {0: HIT})
    assert st.power[0] and st.gate[0] == 7
    set_dice(st, 0, "FF...")
    tick(st, {0: Activate("T1", (0, 1), target=2)})
    assert st.pool[2] == 2 and st.gate[0] == 6
    # Sasuke claims: Lee loses the Power and takes his 6 Gate tokens.
    set_dice(st, 1, "HKKSS")
    force_order(st, [0, 1, 2], [0, 2])
    tick(st, {1: HIT})
    assert not st.power[0] and st.gate[0] == 0 and st.pool[0] == 6


def test_tenten_kit_and_dragon_bomb() -> None:
    st = table(["Tenten", "Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "KS...")
    tick(st, {0: Activate("T1", (0, 1), allocation=((2, 3),))})
    assert st.pool[2] == 3
    st.power[2] = True
    set_dice(st, 0, "KKSS.")
    tick(st, {0: Activate("T2", (0, 1, 2, 3))})
    assert st.pool[1:] == [2, 7, 2]
    st.pool[:] = [0, 0, 0, 0]
    st.power[2] = False
    st.power[0] = True
    set_dice(st, 1, "HKKSS")
    force_order(st, [0, 1, 2, 3], [0, 2, 3])
    tick(st, {1: HIT})
    # Dragon Bomb after the tally: 4 to each side (seats 1 and 3).
    assert st.pool[1] == 4 and st.pool[3] == 4 and st.pool[2] == 0


def test_hinata_kit() -> None:
    st = table(["Hinata", "Sasuke", "Naruto"])
    st.pool[0] = 2
    set_dice(st, 0, "FH...")
    tick(st, {0: Activate("T1", (0, 1), target=1)})
    assert st.pool == [1, 2, 0]
    set_dice(st, 0, "FFHL.")
    allocs = [a.allocation for a in st.legal_actions(0) if isinstance(a, Activate) and a.technique == "T2"]
    assert sorted(allocs) == [((1, 1), (2, 4)), ((1, 2), (2, 3)), ((1, 3), (2, 2)), ((1, 4), (2, 1))]
    tick(st, {0: Activate("T2", (0, 1, 2, 3), allocation=((1, 5),))})  # 64 Palms misses seat 2: a Mistake
    assert st.cube[0] == 1
    tick(st, {0: Activate("T2", (0, 1, 2, 3), allocation=((1, 1), (2, 4)))})
    assert st.pool[1:] == [3, 4]


def test_kiba_kit_and_akamaru() -> None:
    st = table(["Kiba", "Sasuke", "Naruto"])
    set_dice(st, 0, "FL...")
    tick(st, {0: Activate("T1", (0, 1), target=2)})
    assert st.pool[1:] == [1, 2]  # seat 2 is the right neighbour (main), seat 1 the left
    st.cube[0] = 2
    set_dice(st, 0, "FFK..")
    tick(st, {0: Activate("T2", (0, 1, 2), target=1)})
    assert st.pool[1] == 7
    st.power[0] = True
    set_dice(st, 0, ".F...")
    act = Activate("T1", (1,), target=1)
    assert act in st.legal_actions(0)
    tick(st, {0: act})
    assert st.pool[1] == 9 and st.cube[0] == 2
    two = table(["Kiba", "Sasuke"])
    set_dice(two, 0, "FL...")
    tick(two, {0: Activate("T1", (0, 1), target=1)})
    assert two.pool[1] == 3


def test_temari_sea_dragon_sides() -> None:
    st = table(["Temari", "Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "SSL..")
    tick(st, {0: Activate("T2", (0, 1, 2))})
    assert st.pool == [0, 2, 0, 2]


def test_gaara_kit_and_sand_shield() -> None:
    st = table(["Gaara", "Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "RRS..")
    tick(st, {0: Activate("T1", (0, 1, 2), target=2)})  # seat 2 is no neighbour: Mistake
    assert st.cube[0] == 1
    set_dice(st, 0, "RRS..")
    tick(st, {0: Activate("T1", (0, 1, 2), target=3)})
    assert st.pool[3] == 4
    set_dice(st, 0, "RRRS.")
    tick(st, {0: Activate("T3", (0, 1, 2, 3), allocation=((1, 2), (2, 2), (3, 2)))})
    assert st.pool[1:] == [2, 2, 6]
    set_dice(st, 0, "RRSSH")
    tick(st, {0: HIT})
    assert st.power[0] and st.shield[0] == 0
    set_dice(st, 1, "FF...")
    tick(st, {1: Activate("T1", (0, 1), target=0)})
    assert st.shield[0] == 2 and st.pool[0] == 0
    set_dice(st, 1, "FF...")
    tick(st, {1: Activate("T1", (0, 1), target=0)})
    assert st.shield[0] == 2 and st.pool[0] == 2
    set_dice(st, 0, "RH...")
    legal = st.legal_actions(0)
    assert Activate("T2", (0, 1), target=1, from_shield=2) in legal
    tick(st, {0: Activate("T2", (0, 1), target=1, from_shield=1)})
    assert st.pool[1] == 2 and st.shield[0] == 1 and st.pool[0] == 1
    # Losing the Power: the tile's token goes to Gaara's pool.
    set_dice(st, 1, "HKKSS")
    force_order(st, [0, 1, 2, 3], [0, 2, 3])
    tick(st, {1: HIT})
    assert not st.power[0] and st.shield[0] == 0 and st.pool[0] == 1


def test_naruto_neighbour_only() -> None:
    st = table(["Naruto", "Sasuke", "Sakura", "Shikamaru"])
    set_dice(st, 0, "HH...")
    targets = sorted(a.target for a in st.legal_actions(0) if isinstance(a, Activate))
    assert targets == [1, 3]
    tick(st, {0: Activate("T1", (0, 1), target=2)})
    assert st.cube[0] == 1


def test_neighbours_skip_kod_players() -> None:
    st = table(["Naruto", "Sasuke", "Sakura", "Shikamaru"])
    st.ko[1] = True
    assert rules.left_of(st, 0) == 2 and rules.right_of(st, 0) == 3
    set_dice(st, 0, "HH...")
    tick(st, {0: Activate("T1", (0, 1), target=1)})  # a KO'd player cannot be targeted
    assert st.cube[0] == 1


def test_hit_order_two_players_non_claimant_last() -> None:
    for early in (False, True):
        st = table(["Sasuke", "Naruto"])
        set_dice(st, 0, "HKKSS")
        tick(st, {0: HIT, 1: HIT} if early else {0: HIT})
        assert events(st, "pause")[0][3] == (0, 1)
        assert ("tokens", 1, 2, "penalty") in st.events


def test_hit_order_three_players_uses_rho() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "HKKSS")
    force_order(st, [2, 1, 0], [2, 1])
    tick(st, {0: HIT})
    assert events(st, "pause")[0][3] == (0, 2, 1)


def test_two_claims_first_in_priority_triggers() -> None:
    st = table(["Sasuke", "Naruto", "Sakura"])
    set_dice(st, 0, "HKKSS")
    set_dice(st, 1, "HHHLL")
    force_order(st, [1, 0, 2], [2])
    tick(st, {0: HIT, 1: HIT})
    assert st.power[1] and not st.power[0]
    assert events(st, "pause")[0][3] == (1, 0, 2)


def test_duel_top_wound_loses() -> None:
    st = table(["Naruto", "Sasuke", "Sakura", "Gaara"], mode="duel")
    st.cube[0] = 3
    tick(st, {0: Illegal(raw="x")})
    assert st.over and st.outcome().ranking == ((1,), (0,))


def test_duel_both_lose_is_a_draw() -> None:
    st = table(["Naruto", "Sasuke", "Sakura", "Gaara"], mode="duel")
    st.cube[:] = [3, 3]
    tick(st, {0: HIT, 1: HIT})
    assert st.over and st.outcome().ranking == ((0, 1),)


def test_duel_cap_counts_both_boards() -> None:
    st = table(["Naruto", "Sasuke", "Sakura", "Gaara"], mode="duel", tick_cap=3)
    st.t = 3
    st.cube[:] = [1, 2]
    st.cube_b[:] = [2, 0]
    tick(st)
    out = st.outcome()
    assert out.reason == "cap" and out.ranking == ((1,), (0,))
    assert out.scores == (5.0, 6.0)


def test_ranking_by_out_time() -> None:
    st = table(["Naruto", "Sasuke", "Sakura", "Shikamaru"])
    st.t = 5
    st.cube[1] = 3
    tick(st, {1: Illegal()})  # seat 1 KO'd at tick 5
    st.cube[2] = 3
    st.cube[3] = 3
    tick(st, {2: Illegal(), 3: Illegal()})  # seats 2 and 3 at tick 6: the game ends
    out = st.outcome()
    assert out.ranking == ((0,), (2, 3), (1,))


@pytest.mark.parametrize(
    "config",
    [
        {"mode": "blitz"},
        {"tick_cap": 0},
        {"characters": ["Naruto", "Naruto"]},
        {"characters": ["Naruto", "Gaara"]},
        {"characters": ["Naruto", "Zabuza"]},
        {"colour": "red"},
    ],
)
def test_bad_config(config: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        GAME.new_state(1, players=2, config=config)


def test_player_counts() -> None:
    with pytest.raises(ConfigError):
        GAME.new_state(1, players=5)
    with pytest.raises(ConfigError):
        GAME.new_state(1, players=3, config={"mode": "duel"})
    st = GAME.new_state(1, players=6, config={"genin_pack": True})
    assert sorted(set(st.top)) == sorted(st.top) and len(st.top) == 6
    core = GAME.new_state(1, players=4)
    assert sorted(core.top) == list(D.CORE_ROSTER)


def test_legal_list_is_small_and_stable() -> None:
    st = GAME.new_state(3, players=6, config={"genin_pack": True})
    for p in range(6):
        set_dice(st, p, "WFHRS")
    for p in range(6):
        legal = st.legal_actions(p)
        assert len(legal) < 400
        assert legal == st.clone().legal_actions(p)
        assert len({a for a in legal}) == len(legal)
        assert all(rules.valid(st, p, a) for a in legal)


def test_largest_legal_list_six_players() -> None:
    st = table(["Sasuke", "Naruto", "Sakura", "Shikamaru", "Gaara", "Tenten"])
    st.power[0] = True
    set_dice(st, 0, "HHKFF")
    legal = st.legal_actions(0)
    chidori = [a for a in legal if isinstance(a, Activate) and a.technique == "T2"]
    assert len(chidori) == 210  # every split of 6 tokens over 5 opponents
    assert len(legal) == 2 + 31 + 5 + 210
