"""Where matches are played: in this process (`--local`) or as Ray tasks on a local or remote cluster."""

from tourney.workers.pool import ClusterUnreachable, Executor, LocalExecutor, RayExecutor, make_executor, play_chunk

__all__ = ["ClusterUnreachable", "Executor", "LocalExecutor", "RayExecutor", "make_executor", "play_chunk"]
