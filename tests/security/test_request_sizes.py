"""No ActionRequest is over 64 KB, in any game and mode, under random play, the games' own bots,
and the longest matches the caps allow; each request is encoded as the arena encodes it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.maitre_ninja.helpers import play
from tests.security.request_sizes import CASES, LIMIT, MATCH_ID, MeasuringSeat, largest_request
from tourney.engine.bots import make_bot
from tourney.engine.core import get_game
from tourney.engine.referee import play_match
from tourney.engine.server.codecs import codec_for
from tourney.engine.server.wire import LegalEncoder, observation_bytes, request_message

IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in c.items()) or 'standard'}-{n}p" for g, c, n in CASES]


@pytest.mark.parametrize(("game_id", "config", "players"), CASES, ids=IDS)
def test_every_request_of_random_and_bot_play_fits(game_id: str, config: dict[str, Any], players: int) -> None:
    largest, measured = largest_request(game_id, config, players, range(3))
    assert measured > 0 and largest <= LIMIT


def test_a_long_champion_series_between_greedy_bots_fits() -> None:
    # Before observations carried only the latest events, this series reached 87 KB.
    sizes: list[int] = []
    game = get_game("tiny-ninjas")
    seats = [MeasuringSeat(make_bot("greedy", game, 63 + i), "tiny-ninjas", sizes) for i in range(2)]
    result = play_match("tiny-ninjas", seats, 9, {"mode": "champion"})
    assert len(result.replay.steps) > 300 and max(sizes) <= LIMIT


def test_a_maitre_ninja_match_at_its_fight_cap_fits() -> None:
    # Every defender wins, so nobody is promoted and the match runs to its cap of 200 fights.
    state = get_game("maitre-ninja").new_state(0, players=4, config={"first_player": 0})
    while not state.is_over():
        play(state, False)  # type: ignore[arg-type]
        if state.fights == 199:
            break
    codec = codec_for("maitre-ninja")
    for seat in state.to_act():
        message = request_message(MATCH_ID, 1, seat, observation_bytes(codec, state.observe(seat)), 60_000,
                                  LegalEncoder(codec).encode(state.legal_actions(seat)))
        assert len(message) <= LIMIT
    assert state.fights == 199
