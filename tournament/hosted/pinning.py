"""Pinning a tournament's hosted bots to versions when it starts, and a league's for each round."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.engine import Engine

from tourney.engine.core import ConfigError
from tourney.tournament.entrants import Entrant
from tourney.workers.program_specs import is_hosted, parse_hosted, pinned

ROUND_PINS = "round_pins"  # a division's settings key: {"round": N, "entrants": [[alias, spec], ...]}


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


def playable(engine: Engine, spec: str) -> bool:
    """False for a hosted spec with no version to play now (its bot retired, the version named missing, or
    none validated yet); True for every other spec. A league's round counts such a member absent: its
    matches are forfeits, unrated, and it gets no bye, as a member who left."""
    if not is_hosted(spec):
        return True
    try:
        pin_specs(engine, [spec])
    except ConfigError:
        return False
    return True


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


def pin_for_round(engine: Engine, tournament_id: int, rnd: int, entrants: Sequence[Entrant]) -> list[Entrant]:
    """A league round's entrants with each hosted one pinned to its latest validated version as the round
    starts, kept in the division's settings (ROUND_PINS) and reused by whoever plays the rest of it.

    A league plays its members' latest versions, round by round; within a round, the two games of a
    duplicate pair share a deal, and the first is public once it ends. Pinned, both meet one version:
    one uploaded after the first game, by an author who has read its deal, plays from the next round,
    even when the round is taken over (its player died or stopped) after that upload.
    A member with no version to pin (retired, none validated) is left as it is: the round counts it absent
    (`playable`), so its matches are forfeits.
    """
    from tourney.tournament.store.reads import stored_setting
    from tourney.tournament.store.writes import save_setting

    stored = stored_setting(engine, tournament_id, ROUND_PINS)
    kept = dict(stored["entrants"]) if isinstance(stored, dict) and stored.get("round") == rnd else {}
    out = []
    for entrant in entrants:
        if entrant.alias in kept:
            out.append(Entrant(entrant.alias, kept[entrant.alias]))
            continue
        try:
            out.append(Entrant(entrant.alias, pin_specs(engine, [entrant.spec])[0]))
        except ConfigError:
            out.append(entrant)
    save_setting(engine, tournament_id, ROUND_PINS, {"round": rnd, "entrants": [[e.alias, e.spec] for e in out]})
    return out
