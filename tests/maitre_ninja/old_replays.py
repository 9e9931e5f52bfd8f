"""A Maître Ninja replay in the form stored before the defender laid its row parry by parry."""

from __future__ import annotations

from typing import Any

from tourney.engine.referee import new_match

OLD_ROW_INDEX = 20_000  # a rank-4 defender once chose among 34,650 rows; a Parry list is a handful


def old_form(replay: dict[str, Any]) -> dict[str, Any]:
    """The replay with its first defender decision as the old form stored it: an index into whole rows."""
    _game, state, _ = new_match(replay["game"], replay["seed"], replay["config"], replay["players"])
    for step in replay["steps"]:
        for seat, index, *_rest in step:
            if state.observe(seat)["role"] == "defender":
                assert index < len(state.legal_actions(seat))
                step[[d[0] for d in step].index(seat)][1] = OLD_ROW_INDEX
                return replay
        state.apply({seat: state.legal_actions(seat)[index] for seat, index, *_rest in step})
    raise AssertionError("the match had no defender decision")
