"""Pinning a tournament's hosted bots to versions when it starts."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.engine import Engine

from tourney.tournament.entrants import Entrant
from tourney.workers.program_specs import is_hosted, parse_hosted, pinned


def pin_specs(engine: Engine, specs: Sequence[str]) -> list[str]:
    """Each hosted spec made `hosted:NAME:version=N` (its latest validated version now), the rest kept.

    A tournament pins its hosted bots when it starts, so a version submitted meanwhile never
    changes who plays the rest of it (and a resumed tournament plays the same versions).
    """
    from tourney.tournament.store.hosted import resolve_version

    out = []
    for spec in specs:
        if is_hosted(spec):
            name, version = parse_hosted(spec)
            out.append(pinned(name, resolve_version(engine, name, version).version))
        else:
            out.append(spec)
    return out


def pin_entrants(engine: Engine, entrants: Sequence[Entrant]) -> list[Entrant]:
    """A tournament's entrants with every hosted one pinned to a version (see pin_specs).

    Refuses at once, in one sentence, on a machine that cannot sandbox them.
    """
    if not any(is_hosted(e.spec) for e in entrants):
        return list(entrants)
    from tourney.workers.sandbox import SandboxLimits, require_bwrap

    require_bwrap()
    SandboxLimits.from_env()  # a bad TOURNEY_SANDBOX_* setting fails here, not as every match's forfeit
    specs = pin_specs(engine, [e.spec for e in entrants])
    return [Entrant(e.alias, spec) for e, spec in zip(entrants, specs, strict=True)]
