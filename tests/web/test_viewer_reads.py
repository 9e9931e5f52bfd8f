"""The replay viewer in headless Chromium reads as the game does: Ninja Versus Ninja's sides in the
colours their labels name, on a board oriented like `tourney match --verbose` (files a-d left to
right, rank 11 at the top); Ninja Arena's events as sentences; Tiny Ninjas' last frame naming the
winner."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import chromium, served
from tests.web.conftest import Filled
from tourney.tournament.store.reads import stored_matches
from tourney.web.app import create_app


@pytest.fixture(scope="module")
def site(filled: Filled) -> Iterator[tuple[str, Any]]:
    with served(create_app(filled.engine)) as base, chromium() as page:
        yield base, page


def _longest(filled: Filled, game: str) -> Any:
    return max(stored_matches(filled.engine, filled.by_game[game]), key=lambda ms: ms[0].plies)


def _open(page: Any, base: str, match_id: int, ply: int) -> None:
    page.goto(f"{base}/matches/{match_id}#ply={ply}")
    page.wait_for_function("p => document.querySelector('#board').dataset.ply == String(p)", arg=ply)


@pytest.mark.timeout(300)
def test_ninja_versus_ninja_is_drawn_in_its_labels_colours_and_the_cli_orientation(
        site: tuple[str, Any], filled: Filled) -> None:
    base, page = site
    match, _ = _longest(filled, "ninja-versus-ninja")
    frames = page.request.get(f"{base}/api/matches/{match.id}/frames").json()["frames"]
    _open(page, base, match.id, 0)
    pieces = page.evaluate("""() => [...document.querySelectorAll('#board circle[data-sq]')].map(c =>
        ({seat: +c.dataset.seat, sq: c.dataset.sq, x: +c.getAttribute('cx'), y: +c.getAttribute('cy'),
          fill: c.getAttribute('fill')}))""")
    assert {p["sq"] for p in pieces} == {sq for side in frames[0]["ninjas"] for sq in side}
    colours = frames[0]["colors"]
    fills = {colours[p["seat"]]: p["fill"] for p in pieces}
    assert fills == {"Black": "#1b1b1b", "Red": "#c0392b"}  # Black is drawn black, Red red
    for seat in (0, 1):  # each label is written in its own side's colour
        label = page.locator(f'#board [data-k="side-{seat}"]')
        assert colours[seat] in (label.text_content() or "") and label.get_attribute("fill") == fills[colours[seat]]
    for a in pieces:
        for b in pieces:
            file_a, rank_a = a["sq"][0], int(a["sq"][1:])
            file_b, rank_b = b["sq"][0], int(b["sq"][1:])
            if file_a < file_b:
                assert a["x"] < b["x"], (a, b)  # a-d from left to right
            if rank_a < rank_b:
                assert a["y"] > b["y"], (a, b)  # rank 1 at the bottom, 11 at the top
    files = page.evaluate("""() => [0, 1, 2, 3].map(c => {
        const n = document.querySelector(`#board [data-k="file-${c}"]`);
        return [n.textContent, +n.getAttribute('x')]; })""")
    assert [f for f, _ in files] == ["a", "b", "c", "d"] and [x for _, x in files] == sorted(x for _, x in files)


@pytest.mark.timeout(300)
def test_ninja_arena_events_read_as_words(site: tuple[str, Any], filled: Filled) -> None:
    base, page = site
    match, _ = _longest(filled, "ninja-arena")
    frames = page.request.get(f"{base}/api/matches/{match.id}/frames").json()["frames"]
    plies = [i for i, f in enumerate(frames) if any(e[0] == "roll" for e in f["last_events"])][:3]
    assert plies
    for ply in plies:
        _open(page, base, match.id, ply)
        shown = page.evaluate("""() => [...document.querySelectorAll('#board [data-k^="event-"]')]
            .map(n => n.textContent)""")
        assert shown and not any("[" in line or '"' in line for line in shown), shown
        assert any(re.search(r" rolls [.KSRHFLW](?: [.KSRHFLW]){4}$", line) for line in shown), shown


@pytest.mark.timeout(300)
def test_the_last_tiny_ninjas_frame_names_the_winner(site: tuple[str, Any], filled: Filled) -> None:
    base, page = site
    match, seats = _longest(filled, "tiny-ninjas")
    frames = page.request.get(f"{base}/api/matches/{match.id}/frames").json()["frames"]
    _open(page, base, match.id, len(frames) - 1)
    phase = page.locator('#board [data-k="phase"]').text_content() or ""
    winners = [s.alias for s in seats if s.tier == 0]
    if len(winners) == 1:
        assert f"over: {winners[0]} wins" in phase, phase
    else:
        assert "over: a draw" in phase, phase
    _open(page, base, match.id, 0)
    assert "wins" not in (page.locator('#board [data-k="phase"]').text_content() or "")
