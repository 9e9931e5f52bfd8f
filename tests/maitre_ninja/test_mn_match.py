"""Turn order, the final round, ranking, the cap, configuration and setup (§1.3, §4, §6, M7, M8, M10)."""

from __future__ import annotations

import pytest

from tests.maitre_ninja.helpers import LINE, PARRYING_ROW, new, play, play_script
from tourney.engine.core import ConfigError, IllegalAction, Inject
from tourney.engine.games.maitre_ninja import GAME, AttackLine, Parry
from tourney.engine.games.maitre_ninja.rules import FINAL_ROUND, NORMAL, OVER


def fights_seen(players: int, first: int, count: int) -> list[tuple[int, int]]:
    state = new(players, first)
    seen = []
    for _ in range(count):
        seen.append((state.attacker, state.defender))
        play(state, attacker_wins=False)
    return seen


def test_m10_rotation_four_players_from_p2() -> None:
    assert fights_seen(4, 2, 5) == [(2, 3), (3, 0), (0, 1), (1, 2), (2, 3)]


def test_rotation_two_and_three_players() -> None:
    assert fights_seen(2, 0, 4) == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert fights_seen(3, 0, 4) == [(0, 1), (1, 2), (2, 0), (0, 1)]


def test_to_act_is_both_fighters_at_once() -> None:
    state = new(4, 1)
    assert list(state.to_act()) == [1, 2]
    assert state.legal_actions(0) == () and state.legal_actions(3) == ()
    with pytest.raises(IllegalAction):
        state.apply({1: LINE[1]})
    with pytest.raises(IllegalAction):
        state.apply({1: LINE[2], 2: Parry("BL")})  # a Junior line from an Apprenti
    with pytest.raises(IllegalAction):
        state.apply({1: LINE[1], 2: PARRYING_ROW[1]})  # a whole row: the defender lays one parry at a time
    with pytest.raises(IllegalAction):
        state.apply({1: Parry("BL"), 2: LINE[1]})  # roles swapped
    state.apply({1: LINE[1], 2: Parry("BL")})
    assert list(state.to_act()) == [2] and state.legal_actions(1) == ()  # the defender lays the rest alone
    with pytest.raises(IllegalAction):
        state.apply({1: LINE[1], 2: Parry("BL")})  # the line is already laid
    state.apply({2: Parry("BL")})
    assert state.fights == 1 and list(state.to_act()) == [2, 3]


def test_promotion_only_for_the_attacker() -> None:
    state = new(2)
    play_script(state, "WW")
    assert state.ranks == [2, 2]
    play_script(state, "LW")
    assert state.ranks == [2, 3]
    assert state.attacks_made == [2, 2]


# M7: fights 1-14, attackers P0, P1, P2, ...; P1 wins on its 5th attack at rank 4 (fight 14).
M7_SCRIPT = "LLWWWWLWLLWWLW"


def test_m7_final_round_three_players_triggers_for_p2_only() -> None:
    state = new(3, 0)
    play_script(state, M7_SCRIPT)
    assert state.fights == 14
    assert state.attacks_made == [5, 5, 4]
    assert state.ranks == [2, 5, 4]
    assert state.first_master == 1
    assert state.phase == FINAL_ROUND
    assert (state.attacker, state.defender) == (2, 0)
    assert state.queue == []


@pytest.mark.parametrize(("p2_wins", "ranking"), [(True, ((1, 2), (0,))), (False, ((1,), (2,), (0,)))])
def test_m7_result(p2_wins: bool, ranking: tuple[tuple[int, ...], ...]) -> None:
    state = new(3, 0)
    play_script(state, M7_SCRIPT)
    play(state, p2_wins)
    assert state.is_over() and state.phase == OVER
    out = state.outcome()
    assert out.ranking == ranking
    assert out.reason == "maitre"
    assert state.to_act() == []


# M8: P0 becomes Maître on its 6th attack (fight 11); P1 has 5 attacks and is rank 4.
M8_SCRIPT = "LWWWWLLWWLW"


@pytest.mark.parametrize(("p1_wins", "ranking"), [(True, ((0, 1),)), (False, ((0,), (1,)))])
def test_m8_final_round_two_players(p1_wins: bool, ranking: tuple[tuple[int, ...], ...]) -> None:
    state = new(2, 0)
    play_script(state, M8_SCRIPT)
    assert state.attacks_made == [6, 5] and state.ranks == [5, 4]
    assert state.phase == FINAL_ROUND
    assert (state.attacker, state.defender) == (1, 0)
    assert state.row_length() == 12  # the Maître defends against a rank-4 attacker
    play(state, p1_wins)
    assert state.is_over()
    assert state.outcome().ranking == ranking
    assert state.outcome().points(0) == (0.5 if p1_wins else 1.0)


def test_m8_second_player_master_first_gets_no_last_chance() -> None:
    state = new(2, 0)
    play_script(state, "LWWWWWWW")
    assert state.ranks == [4, 5] and state.attacks_made == [4, 4]
    assert state.is_over()
    assert state.outcome().ranking == ((1,), (0,))


# 4 players, P0 first and Maître on its 4th attack (fight 13); P1 and P3 are rank 4 with 3
# attacks, P2 is rank 3: P1 attacks P2, then P3 attacks the Maître P0.
FOUR_SCRIPT = "WWWWWWWWWWLWW"


def test_final_round_four_players_queue_is_clockwise_rank4_only() -> None:
    state = new(4, 0)
    play_script(state, FOUR_SCRIPT)
    assert state.ranks == [5, 4, 3, 4]
    assert state.attacks_made == [4, 3, 3, 3]
    assert state.phase == FINAL_ROUND
    assert (state.attacker, state.defender) == (1, 2)
    assert state.queue == [3]
    play(state, attacker_wins=True)
    assert (state.attacker, state.defender) == (3, 0)
    assert not state.is_over()
    play(state, attacker_wins=False)
    assert state.is_over()
    assert state.outcome().ranking == ((0, 1), (3,), (2,))
    assert state.outcome().details["masters"] == [0, 1]


def test_final_round_four_players_all_three_masters_share() -> None:
    state = new(4, 0)
    play_script(state, FOUR_SCRIPT)
    play_script(state, "WW")
    assert state.outcome().ranking == ((0, 1, 3), (2,))


def test_final_round_skips_players_with_k_attacks() -> None:
    # 4 players from P0; P2 becomes Maître on its 4th attack (fight 15). P3 has 3 attacks and is
    # rank 4; P0 and P1 have 4 attacks and get nothing even at rank 4.
    state = new(4, 0)
    play_script(state, "WWWW" + "WWWW" + "WWWL" + "LLW")
    assert state.ranks == [4, 4, 5, 3]
    play_script(state, "")
    assert state.is_over()  # P3 is rank 3: no last-chance fight at all
    assert state.outcome().ranking == ((2,), (0, 1), (3,))

    state = new(4, 0)
    play_script(state, "WWWW" + "WWWW" + "WWWW" + "LLW")
    assert state.ranks == [4, 4, 5, 4]
    assert state.phase == FINAL_ROUND and (state.attacker, state.defender) == (3, 0)
    assert state.queue == []


def test_cap_ends_a_game_without_master_and_ranks_by_rank() -> None:
    state = new(2, 0, fight_cap=6)
    play_script(state, "WLWLLL")
    assert state.is_over()
    out = state.outcome()
    assert out.reason == "cap" and state.fights == 6
    assert out.ranking == ((0,), (1,))
    state = new(3, 0, fight_cap=3)
    play_script(state, "LWW")
    assert state.outcome().ranking == ((1, 2), (0,))  # highest ranks share first place at the cap


def test_cap_does_not_cut_off_the_final_round() -> None:
    state = new(2, 0, fight_cap=11)
    play_script(state, M8_SCRIPT)
    assert state.phase == FINAL_ROUND
    play(state, attacker_wins=False)
    assert state.outcome().reason == "maitre"


def test_an_empty_pile_is_refused_for_the_rest_of_the_row() -> None:
    state = new(2, 0, parry_supply={"DO": 1, "BL": 4, "JU": 7})
    state.ranks[0] = 4
    state.apply({0: LINE[4], 1: Parry("BL")})
    state.apply({1: Parry("DO")})  # the only DO
    assert [p.parry for p in state.legal_actions(1)] == ["BL", "JU"]
    with pytest.raises(IllegalAction, match="cannot follow"):
        state.apply({1: Parry("DO")})
    for _ in range(3):
        state.apply({1: Parry("BL")})  # the last BL: only JU is left
    assert [p.parry for p in state.legal_actions(1)] == ["JU"]
    with pytest.raises(IllegalAction, match="cannot follow"):
        state.apply({1: Parry("BL")})
    assert state.laid == ("BL", "DO", "BL", "BL", "BL") and state.fights == 0


def test_no_config_is_the_declared_defaults() -> None:
    defaults = {k: v for k, v in GAME.default_config().items() if k != "n_players"}
    for players in (2, 3, 4):
        for seed in range(4):
            assert GAME.new_state(seed, players=players).setup == \
                GAME.new_state(seed, players=players, config=defaults).setup
    for _ in range(2):  # a refused player count stays refused (the checked defaults are kept per count)
        with pytest.raises(ConfigError):
            GAME.new_state(0, players=5)


def test_first_player_is_a_seeded_pick_or_forced() -> None:
    firsts = {GAME.new_state(seed, players=4).attacker for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.new_state(7, players=3).attacker == GAME.new_state(7, players=3).attacker
    forced = GAME.new_state(7, players=4, inject=Inject(picks=[2]))
    assert (forced.attacker, forced.defender) == (2, 3)


def test_elements_default_in_seat_order_and_can_be_chosen() -> None:
    assert new(3).setup.elements == ("Air", "Terre", "Eau")
    assert new(2, elements=["Feu", "Eau"]).setup.elements == ("Feu", "Eau")


@pytest.mark.parametrize(
    ("players", "config"),
    [
        (5, {}),
        (1, {}),
        (2, {"n_players": 3}),
        (3, {"first_player": 3}),
        (2, {"first_player": "north"}),
        (2, {"fight_cap": 0}),
        (2, {"colour": "red"}),
        (2, {"parry_supply": {"DO": 4, "BL": 4}}),
        (2, {"parry_supply": {"DO": -1, "BL": 4, "JU": 4}}),
        (2, {"parries_by_rank": {1: 2, 2: 5, 3: 9}}),
        (2, {"parries_by_rank": {1: 2, 2: 5, 3: 9, 4: 13}}),
        (2, {"parries_by_rank": {"one": 2}}),
        (2, {"elements": ["Air", "Air"]}),
    ],
)
def test_bad_config_is_one_clear_sentence(players: int, config: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as err:
        GAME.new_state(0, players=players, config=config)
    message = str(err.value)
    assert message.endswith(".") and "\n" not in message and ":" in message


def test_config_from_json_with_string_rank_keys() -> None:
    state = GAME.new_state(0, players=2, config={"parries_by_rank": {"1": 3, "2": 5, "3": 9, "4": 12}})
    state.attacker = 0
    assert state.row_length() == 3
    assert len(state.legal_actions(state.defender)) == 3  # DO, BL or JU first, three times
    assert GAME.new_state(0, config={"n_players": 3}).num_players == 3
    assert GAME.new_state(0).num_players == 2


def test_outcome_before_the_end_is_an_error() -> None:
    with pytest.raises(ValueError):
        new(2).outcome()
    with pytest.raises(IllegalAction):
        state = new(2, 0, fight_cap=1)
        play(state, False)
        state.apply({0: LINE[1], 1: Parry("BL")})


def test_evaluate_prefers_the_higher_rank() -> None:
    state = new(3, 0)
    play_script(state, "WW")
    assert GAME.evaluate(state, 0) > GAME.evaluate(state, 2)
    assert -1.0 <= GAME.evaluate(state, 2) <= 1.0
    assert state.phase == NORMAL
    assert AttackLine(("Fi",)).label == "Fi"
