"""Everything about playing one match: game rules, built-in bots, the referee and the Arena server."""

from tourney.engine.compiled import use_source_when_needed

# Before any rule module loads: whether they come from mypyc's extensions or from source (compiled.py).
COMPILED_RULES = use_source_when_needed()
