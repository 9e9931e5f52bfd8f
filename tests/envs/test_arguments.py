"""Bad arguments to the environments' constructors: one sentence naming the problem and the fix, as a
ConfigError, never a TypeError from deep in a game's rules or an argument accepted that fails later."""

from __future__ import annotations

import pytest

from tourney.engine.core import ConfigError
from tourney.envs import SeatEnv, TourneyAEC, TourneyParallel

CASES = [
    (lambda: TourneyAEC("tiny-ninjas", "two"), "players is 'two'"),
    (lambda: TourneyParallel("maitre-ninja", 2.5), "players is 2.5"),
    (lambda: TourneyAEC("maitre-ninja", True), "players is True"),
    (lambda: TourneyAEC("tiny-ninjas", None, "blitz"), "config is a str, not a mapping"),
    (lambda: TourneyParallel("tiny-ninjas", None, [("mode", "blitz")]), "config is a list, not a mapping"),
    (lambda: TourneyAEC("tiny-ninjas", render_mode="rgb_array"), "render_mode 'rgb_array' is not offered"),
    (lambda: TourneyParallel("tiny-ninjas", render_mode="text"), "render_mode 'text' is not offered"),
    (lambda: SeatEnv("tiny-ninjas", render_mode="rgb_array"), "render_mode 'rgb_array' is not offered"),
    (lambda: SeatEnv("tiny-ninjas", "random", seat="1"), "seat is '1'"),
    (lambda: SeatEnv("tiny-ninjas", None), "opponents is None"),
    (lambda: SeatEnv("tiny-ninjas", ["random", 3]), "opponents is"),
    (lambda: SeatEnv("tiny-ninjas", "random", config="blitz"), "config is a str"),
    (lambda: SeatEnv("tiny-ninjas", "hosted:mybot", store="/nonexistent/folder/t.db"), "pass store="),
    (lambda: SeatEnv("tiny-ninjas", "random,random,random"), "seats 1 opponent beside the learner, not 3: give fewer"),
    (lambda: SeatEnv("maitre-ninja", ["random"] * 4), "seats 1 to 3 opponents beside the learner, not 4: give fewer"),
    (lambda: TourneyAEC("tiny-ninjas", 3), "played by 2 players, not 3: pass players=2"),
    (lambda: TourneyParallel("ninja-versus-ninja", 4), "played by 2 players, not 4: pass players=2"),
]
IDS = [words for _, words in CASES]


@pytest.mark.parametrize(("make", "words"), CASES, ids=IDS)
def test_a_bad_argument_is_one_sentence(make, words):
    with pytest.raises(ConfigError, match=words) as refused:
        make()
    sentence = str(refused.value).replace("e.g. ", "")
    assert "--" not in sentence  # a Python API's fix is in its own arguments, never a command-line flag
    assert ". " not in sentence and "\n" not in sentence and sentence.endswith(".")


@pytest.mark.parametrize("make", [lambda name: TourneyAEC(name),
                                  lambda name: TourneyAEC("tiny-ninjas", None, {name: 1})], ids=["game", "option"])
def test_a_long_name_is_not_echoed_whole(make):
    with pytest.raises(ConfigError) as refused:
        make("x" * 100_000)
    assert len(str(refused.value)) < 1_000


def test_numpy_integers_are_whole_numbers():
    np = pytest.importorskip("numpy")
    assert TourneyAEC("maitre-ninja", np.int64(3)).possible_agents == ["seat_0", "seat_1", "seat_2"]
    assert SeatEnv("tiny-ninjas", "random", seat=np.int64(1)).seat == 1
