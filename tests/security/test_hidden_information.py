"""No observation delivered to a seat holds another seat's hidden information, per game.

Matches are played through the referee with recording seats; at every decision the delivered
observation is checked against the true state: game-specific checks (the opponent's hand ids
in Tiny Ninjas, unflipped attack cards in Maître Ninja, ...) and one generic check: the
observation is unchanged when everything hidden from the seat is resampled (determinize).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.security.hidden import (
    invariant_under_determinization,
    jsonable,
    keys,
    play_recorded,
    public_invariant,
)
from tourney.engine.games.maitre_ninja.state import HISTORY_SHOWN
from tourney.engine.games.tiny_ninjas.data import INSTANCE_NAME
from tourney.engine.games.tiny_ninjas.state import EVENTS_SHOWN, _event_dict, shown_ids

MATCHES = 6


@pytest.mark.parametrize("seed", range(MATCHES))
def test_tiny_ninjas_never_shows_the_opponents_hand(seed: int) -> None:
    _, log = play_recorded("tiny-ninjas", 2, seed)
    assert log
    opp_cards_seen = 0
    for shown in log:
        obs, state, me = shown.observation, shown.state, shown.seat
        opp = 1 - me
        mine, theirs = state.hands[me], state.hands[opp]  # type: ignore[attr-defined]
        # A hand is shown by type and copy rank, never by physical card: a physical id would
        # let the seat follow a copy through the opponent's hidden hand.
        assert obs["hand_ids"] == shown_ids(mine)
        assert [INSTANCE_NAME[c] for c in obs["hand_ids"]] == obs["hand"]
        # Card ids appear only in the seat's own hand_ids: no other id-carrying field exists.
        assert {k for k in keys(obs) if k.endswith(("_id", "_ids"))} == {"hand_ids"}
        opp_cards_seen += len(theirs)
        # Only the opponent's hand size is public; its card names only where revealed or known.
        assert obs["hand_sizes"][opp] == len(theirs)
        assert str(opp) not in obs["revealed_hands"]
        # The opponent's private events (its draws, its mulligan marks) never reach this seat.
        log_events = [_event_dict(ev) for ev in state.log if ev[0] in (-1, me)]  # type: ignore[attr-defined]
        assert obs["events"] == jsonable(log_events)[-EVENTS_SHOWN:] and obs["events_total"] == len(log_events)
        assert "mulligan_marked" not in obs or Counter(obs["mulligan_marked"]) <= Counter(obs["hand"])
        assert invariant_under_determinization(shown)
        assert public_invariant(state, 2, shown.step)
    assert opp_cards_seen > 0  # not vacuous


@pytest.mark.parametrize("players", [2, 3, 4])
def test_maitre_ninja_never_shows_other_seats_unflipped_attack_cards(players: int) -> None:
    face_down_elsewhere = 0
    for seed in range(MATCHES):
        _, log = play_recorded("maitre-ninja", players, seed)
        assert log
        for shown in log:
            obs, state, me = shown.observation, shown.state, shown.seat
            history = state.history  # type: ignore[attr-defined]
            assert len(obs["history"]) == min(len(history), HISTORY_SHOWN)  # the latest fights
            for rec, public in zip(history[len(history) - len(obs["history"]):], obs["history"], strict=True):
                shown_cards = list(rec.line.cards[: len(rec.line.cards) - rec.face_down])
                assert public["attack"] == shown_cards and public["face_down"] == rec.face_down
                if rec.attacker != me and rec.face_down:
                    face_down_elsewhere += 1
            assert {h["fight"] for h in obs["my_hidden"]} == {
                rec.number for rec in state.history if rec.attacker == me and rec.face_down}  # type: ignore[attr-defined]
            assert invariant_under_determinization(shown)
            assert public_invariant(state, players, shown.step)
    assert face_down_elsewhere > 0  # some other seat did keep cards face down


@pytest.mark.parametrize("seed", range(MATCHES))
def test_ninja_versus_ninja_is_perfect_information_and_shows_no_future_dice(seed: int) -> None:
    _, log = play_recorded("ninja-versus-ninja", 2, seed)
    assert log
    for shown in log:
        public = shown.state.public_view()
        assert shown.observation == jsonable({**public, "seat": shown.seat})
        # Future rolls come from chance streams: resampling them changes nothing the seat sees.
        assert invariant_under_determinization(shown)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ninja_arena_seats_never_see_the_others_choices_of_the_same_tick(players: int) -> None:
    result, log = play_recorded("ninja-arena", players, 40 + players)
    assert log
    for shown in log:
        # Every seat deciding in one tick is shown the state before anyone's choice of that tick.
        assert invariant_under_determinization(shown, tries=1)
        view = {k: v for k, v in shown.observation.items() if k not in ("seat", "summary")}
        assert view == jsonable(shown.state.public_view())
    # Within each referee step, all seats got the same public part.
    steps = result.replay.steps
    i = 0
    for step in steps:
        views = [{k: v for k, v in log[i + j].observation.items() if k not in ("seat", "summary")}
                 for j in range(len(step))]
        assert all(v == views[0] for v in views)
        i += len(step)
    assert i == len(log)
