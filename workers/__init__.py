"""Where matches are played: one `Executor` protocol (executor.py) and one module per way of playing.

local.py: in this process (`--local`); ray_tasks.py: Ray tasks on a local or remote cluster;
arena.py: a running arena's RunMatch (`run --arena`); threads.py: the thread pool the arena
executors share; programs.py: matches that seat bot programs (`cmd:`, `hosted:`) on a private
arena; realtime.py: real-time matches on the server's clock; sandbox/: the hosted bots' sandbox.
"""

from tourney.workers.executor import Executor, MatchPlan, Played
from tourney.workers.local import LocalExecutor
from tourney.workers.ray_tasks import ClusterUnreachable, RayExecutor, make_executor, play_chunk

__all__ = ["ClusterUnreachable", "Executor", "LocalExecutor", "MatchPlan", "Played", "RayExecutor", "make_executor",
           "play_chunk"]
