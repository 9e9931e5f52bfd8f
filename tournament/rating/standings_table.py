"""The standings as a person reads them in a terminal: one rich table, its columns fitted to the format.

Two-player tables show W-D-L; pods add how often each bot took each place and its share of
first places; a Solo table (every game against the game's own AI) shows the score against the
AI where the skill rating would be, since no two bots ever met. A bot that has not played
shows no rating at all rather than an even 1500.
"""

from __future__ import annotations

import math

from rich.table import Table

from tourney.engine.core.printable import plain
from tourney.tournament.rating.standings import Standing, legend_lines


def points_text(points: float) -> str:
    """Points for a table: at most two decimals, none when whole (7.17, 5.5, 8)."""
    return f"{round(points, 2):g}"


def elo_text(x: float) -> str:
    """An Elo figure or interval bound, whole, with ±inf for an open bound."""
    return f"{x:.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def rating_cell(s: Standing) -> str:
    """'1620 [1450,1790]', or a dash before the first game (no result, so no rating)."""
    if s.games == 0:
        return "—"
    return f"{s.rating:.0f} [{elo_text(s.low)},{elo_text(s.high)}]"


def skill_cell(s: Standing) -> str:
    """OpenSkill μ (μ-3σ); in Solo, where it never moves, the score against the game's AI."""
    if s.games == 0:
        return "—"
    if s.solo_games == s.games:
        return f"{s.score_pct:.0f}% vs AI"
    return f"{s.mu:.1f} ({s.mu - 3 * s.sigma:.1f})"


def places_text(s: Standing, width: int) -> str:
    """How often placed 1st, 2nd, ... in pods, every place up to `width` shown so columns line up: '2-3-1-2'."""
    return "-".join(str(s.places[k] if k < len(s.places) else 0) for k in range(width))


def standings_table(standings: list[Standing], title: str) -> Table:
    """The standings table with its legend as the caption."""
    pods = any(s.places for s in standings)
    columns = ["#", "bot", "games", "W-D-L"] + (["places", "1st share"] if pods else []) + [
        "pts", "Elo [95%]", "LOS", "μ (μ-3σ)", "DE", "Buch", "SB", "faults"]
    table = Table(title=title, caption="\n".join(legend_lines()), caption_justify="left")
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    width = max((len(s.places) for s in standings), default=0)
    for i, s in enumerate(standings, 1):
        wdl = f"{s.wins}-{s.draws}-{s.losses}" + (f" +{s.byes}bye" if s.byes else "")
        los = "" if s.los_next is None else f"{100 * s.los_next:.0f}%"
        pod = [places_text(s, width), points_text(s.first_share)] if pods else []
        table.add_row(str(i), plain(s.alias), str(s.games), wdl, *pod, points_text(s.points), rating_cell(s), los,
                      skill_cell(s), points_text(s.direct), points_text(s.buchholz),
                      points_text(s.sonneborn_berger), str(s.faults))
    return table

