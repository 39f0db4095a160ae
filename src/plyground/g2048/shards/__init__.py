"""The strong solver on a cluster: age layers split into shards by a hash of the canonical code's leading cells.

:func:`solve_sharded` runs the passes as tasks on a process pool or Dask
(:mod:`~plyground.g2048.shards.solver`, :mod:`~plyground.g2048.shards.tasks`); the folder's files
are :mod:`~plyground.g2048.shards.store`, stored by :mod:`~plyground.g2048.shards.codec`;
:class:`ShardedSolution` answers the queries of :class:`~plyground.g2048.solution.Solution` on it.
"""

from plyground.g2048.shards.solution import ShardedSolution, open_solution
from plyground.g2048.shards.solver import solve_sharded

__all__ = ["ShardedSolution", "open_solution", "solve_sharded"]
