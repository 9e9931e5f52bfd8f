"""Training environments over the real engine: PettingZoo (AEC and Parallel) and Gymnasium.

Every game and mode is offered. Observations are a Dict of the game's observation tensor
(`Game.encoding()`, only what the seat may see, built straight from the state by `encode_state`) and
an action mask over the game's fixed action space; the seat's JSON view (`State.observe`) travels
beside it in `info["view"]`, because a variable-length JSON document is not a fixed space a learner
can batch.
"""

from tourney.envs.aec import TourneyAEC
from tourney.envs.parallel import TourneyParallel
from tourney.envs.single import SeatEnv
from tourney.envs.table import Table

__all__ = ["SeatEnv", "Table", "TourneyAEC", "TourneyParallel"]
