"""The pages in headless Chromium: every page loads, each game's replay steps forward and back drawing
what the replay says, a live arena match is followed to its end, and no hidden card reaches the DOM."""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.server.bots import RecordingBot
from tests.server.harness import ArenaHarness
from tests.web.browser import WAIT_S, chromium, served
from tests.web.conftest import ARTIFACTS, HOSTILE, Filled
from tourney.engine.core import Action, State
from tourney.engine.referee import Replay, new_match, replay_match
from tourney.tournament.store.codec import unpack_replay
from tourney.tournament.store.reads import stored_matches
from tourney.web.app import create_app

GAMES = ["tiny-ninjas", "ninja-versus-ninja", "maitre-ninja", "ninja-arena"]


@pytest.fixture(scope="module")
def site(filled: Filled) -> Iterator[tuple[str, Any]]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with served(create_app(filled.engine)) as base, chromium() as page:
        yield base, page


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_every_page_loads(site: tuple[str, Any], filled: Filled) -> None:
    base, page = site
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    assert page.locator("#tournaments a").count() >= 2 * len(filled.by_game)
    shot(page, "home")
    page.goto(f"{base}/tournaments/{filled.sprt}")
    assert page.locator("#llr-chart polyline").count() == 1
    assert page.locator(".standings tr").count() == 3  # a header and two entrants
    shot(page, "tournament-sprt")
    page.goto(f"{base}/tournaments/{filled.by_game['tiny-ninjas']}")
    assert page.locator(".standings td.bot", has_text=HOSTILE).count() == 1  # the name shown as text
    assert page.evaluate("window.__pwned === undefined")
    page.select_option("#filters select[name=bot]", "greedy")
    page.click("#filters button")
    rows = page.locator("#matches tr").count() - 1
    assert rows > 0 and all("greedy" in t for t in page.locator("#matches tr td:nth-child(4)").all_inner_texts())
    shot(page, "tournament-tiny-ninjas")
    page.goto(f"{base}/bots/greedy")
    assert page.locator("#rating-chart circle").count() >= 2
    shot(page, "bot-greedy")
    page.goto(f"{base}/leagues/{filled.league}")
    assert page.locator("#season").inner_text() == "3" and page.locator(".standings").count() == 2
    shot(page, "league")
    page.goto(f"{base}/matches/99999")
    assert page.locator("#error").inner_text().startswith("404")
    shot(page, "not-found")
    page.goto(base + "/live")
    shot(page, "live-index")
    assert errors == []


def _drawn(page: Any, game: str) -> dict[str, Any]:
    """What the SVG shows of the keys each game's drawing labels."""
    return page.evaluate("""(game) => {
      const t = k => { const n = document.querySelector(`#board [data-k="${k}"]`); return n ? n.textContent : null; };
      const out = {ply: +document.querySelector('#board').dataset.ply};
      for (let s = 0; s < 6; s++) {
        out['health-' + s] = t('health-' + s); out['rank-' + s] = t('rank-' + s);
        out['dice-' + s] = t('dice-' + s); out['score-' + s] = t('score-' + s);
        out['pieces-' + s] = [...document.querySelectorAll(`#board circle[data-seat="${s}"]`)]
          .map(c => c.dataset.sq).sort();
      }
      const path = document.querySelector('#board [data-k="path"]');
      out.path = path ? path.dataset.path : null;
      return out;
    }""", game)


def _expected(game: str, view: dict[str, Any]) -> dict[str, Any]:
    """What the drawing must show for one public view."""
    want: dict[str, Any] = {}
    if game == "tiny-ninjas":
        want = {f"health-{s}": str(h) for s, h in enumerate(view["health"])}
    elif game == "ninja-versus-ninja":
        want = {f"pieces-{s}": sorted(sq) for s, sq in enumerate(view["ninjas"])}
        want.update({f"score-{s}": str(v) for s, v in enumerate(view["score"])})
        want["path"] = view["log"][-1][2] if view["log"] else None
    elif game == "maitre-ninja":
        want = {f"rank-{s}": str(r) for s, r in enumerate(view["ranks"])}
    elif game == "ninja-arena":
        want = {f"dice-{p['seat']}": p["dice"] for p in view["players"]}
    return want


def _check(page: Any, game: str, frames: list[dict[str, Any]], ply: int) -> None:
    page.wait_for_function("p => document.querySelector('#board').dataset.ply == String(p)", arg=ply)
    drawn = _drawn(page, game)
    for key, value in _expected(game, frames[ply]).items():
        assert drawn[key] == value, (game, ply, key)


@pytest.mark.parametrize("game", GAMES)
def test_replay_steps_forward_and_back(site: tuple[str, Any], filled: Filled, game: str) -> None:
    base, page = site
    match, _ = max(stored_matches(filled.engine, filled.by_game[game]), key=lambda ms: ms[0].plies)
    frames = page.request.get(f"{base}/api/matches/{match.id}/frames").json()["frames"]
    assert len(frames) > 4
    page.goto(f"{base}/matches/{match.id}")
    _check(page, game, frames, 0)
    shown = [json.dumps(_drawn(page, game), sort_keys=True)]
    for ply in range(1, 4):
        page.keyboard.press("ArrowRight")
        _check(page, game, frames, ply)
        shown.append(json.dumps(_drawn(page, game), sort_keys=True))
    assert page.url.endswith("#ply=3")
    assert len(set(shown)) > 1  # stepping changed what is drawn
    page.click("#back")
    _check(page, game, frames, 2)
    page.fill("#ply", str(len(frames) // 2))
    page.dispatch_event("#ply", "change")
    _check(page, game, frames, len(frames) // 2)
    page.click("#last")
    _check(page, game, frames, len(frames) - 1)
    shot(page, f"match-{game}")
    page.keyboard.press("Home")
    _check(page, game, frames, 0)
    page.select_option("#speed", "16")
    # The pause is clicked inside the page by the tick that draws ply 3 (an observer runs before the next tick).
    # Clicked from here it raced the timer, which on a loaded machine reached the last ply first: the click then
    # started the replay over, and the shared-URL check below saw it run on.
    page.evaluate("""n => {
        const board = document.querySelector('#board');
        new MutationObserver((_, watch) => {
            if (+board.dataset.ply >= n) { watch.disconnect(); document.querySelector('#play').click(); }
        }).observe(board, {attributes: true, attributeFilter: ['data-ply']});
    }""", 3)
    page.click("#play")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '3' && "
                           "document.querySelector('#play').textContent === '▶ play'", timeout=WAIT_S * 1000)
    # A shared URL opens at its ply.
    page.goto(f"{base}/matches/{match.id}#ply=4")
    _check(page, game, frames, 4)


def test_no_hidden_card_reaches_the_dom(site: tuple[str, Any], filled: Filled) -> None:
    base, page = site
    match, _ = stored_matches(filled.engine, filled.by_game["tiny-ninjas"])[0]
    replay = Replay.from_dict(unpack_replay(match.replay_json))
    hands: list[set[str]] = []

    def record(state: State, _joint: list[tuple[int, Action]]) -> None:
        hands.append(_hidden_cards(state))

    _g, first, _ = new_match(replay.game_id, replay.seed, replay.config, replay.players)
    hands.append(_hidden_cards(first))
    replay_match(replay, record)
    page.goto(f"{base}/matches/{match.id}")
    frames = json.loads(page.request.get(f"{base}/api/matches/{match.id}/frames").text())["frames"]
    checked = 0
    for ply in range(len(hands)):
        # Card names in hand that no public frame shows at this ply (a type played or discarded is
        # public from then on, so a ply whose whole hands are such types has nothing to look for).
        public = json.dumps(frames[ply])
        hidden = {c for c in hands[ply] if c not in public}
        if not hidden:
            continue
        page.goto(f"{base}/matches/{match.id}#ply={ply}")
        page.wait_for_function("p => document.querySelector('#board').dataset.ply == String(p)", arg=ply)
        dom = page.content()
        for card in hidden:
            assert card not in dom, (ply, card)
        checked += 1
        if checked == 12:
            break
    assert checked >= 5, "too few plies with a card nobody else has seen"


def _hidden_cards(state: State) -> set[str]:
    cards: set[str] = set()
    for seat in range(2):
        for c in state.observe(seat).get("hand", []):
            cards.add(c if isinstance(c, str) else str(c.get("name")))
    return cards


def test_a_live_arena_match_is_followed_to_its_end(site: tuple[str, Any], filled: Filled) -> None:
    _, page = site
    harness = ArenaHarness()
    try:
        harness.bot("slow", RecordingBot(seed=3, delay_s=0.05), max_concurrent_matches=2)
        live = create_app(filled.engine, arena=harness.address,
                          live_ids=lambda: list(harness.arena._live))  # noqa: SLF001  (the arena's own table)
        with served(live) as base, concurrent.futures.ThreadPoolExecutor(1) as pool:
            page.goto(f"{base}/live/followed")  # before the match exists: the page waits and retries
            running = pool.submit(harness.run_match, "tiny-ninjas", ["remote:slow", "remote:slow"], 987_654_321,
                                  0, "", "", 0, "followed")
            page.wait_for_function("document.querySelector('#board').dataset.ply != '-1'", timeout=WAIT_S * 1000)
            listed = page.request.get(base + "/api/live").json()["matches"]
            still_running = not running.done()  # checked after listing: then it was live while listed
            page.wait_for_selector("#live-result[data-finished]", timeout=WAIT_S * 1000 * 2)
            record = running.result(WAIT_S)
            shot(page, "live-tiny-ninjas")
            result = page.locator("#live-result").inner_text()
            assert record.reason in result and ("slow: 1st" in result or "slow: 2nd" in result)
            # The arena still serves a finished match's last event: its final public view.
            from tourney.engine.server.generated import arena_pb2 as pb

            last = list(harness.stub.Watch(pb.WatchRequest(match_id="followed"), timeout=WAIT_S))[-1]
            assert last.finished
            final = json.loads(last.public_view_json)
            drawn = _drawn(page, "tiny-ninjas")
            for key, value in _expected("tiny-ninjas", final).items():
                assert drawn[key] == value
            assert int(page.locator("#board").get_attribute("data-ply")) >= 3  # it drew the steps as they came
            dom = page.content()
            assert str(record.seed) not in dom and '"steps"' not in dom
        assert "followed" in listed or not still_running
    finally:
        harness.close()


def _forfeited_after(seed: int, moves: int) -> Replay:
    """A Tiny Ninjas match whose acting seat takes the first legal action `moves` times, then times out."""
    from tourney.engine.referee import Decision

    _g, state, _ = new_match("tiny-ninjas", seed, {}, 2)
    steps = []
    for _ in range(moves):
        seat = state.to_act()[0]
        steps.append([Decision(seat, 0, 1.0)])
        state.apply_one(seat, state.legal_actions(seat)[0])
    steps.append([Decision(state.to_act()[0], -1, 1.0, "timeout")])
    return Replay("tiny-ninjas", 2, {}, seed, steps)


def _two_worlds(moves: int = 3) -> tuple[Replay, Replay]:
    """Two matches with the same public course whose hidden hands (and seeds) differ."""
    from tourney.engine.public_replay import public_frames

    seen: dict[str, Replay] = {}
    for seed in range(1000):
        replay = _forfeited_after(seed, moves)
        key = json.dumps(public_frames(replay), sort_keys=True)
        if key in seen:
            return seen[key], replay
        seen[key] = replay
    raise AssertionError("no two deals with the same public course")


def _world(tmp: Any, replay: Replay) -> Any:
    """A store holding one arena match (outside any tournament) with this replay."""
    from sqlmodel import Session

    from tourney.engine.referee import replay_match as replay_it
    from tourney.tournament.store.codec import pack_replay
    from tourney.tournament.store.database import open_store
    from tourney.tournament.store.tables import Match, MatchSeat

    engine = open_store(str(tmp / f"world{replay.seed}.db"))
    result = replay_it(replay)
    with Session(engine) as session:
        row = Match(tournament_id=None, number=0, game="tiny-ninjas", seed=replay.seed, players=2,
                    termination=result.termination, reason=result.reason, plies=len(replay.steps), duration_s=0.5,
                    replay_json=pack_replay(replay.to_dict()), finished_at=datetime(2026, 1, 1, tzinfo=UTC))
        session.add(row)
        session.flush()
        for seat, name in enumerate(("alpha", "beta")):
            tier = next(i for i, t in enumerate(result.ranking) if seat in t)
            session.add(MatchSeat(match_id=row.id or 0, seat=seat, alias=name, tier=tier,
                                  points=result.points(seat), score=0.0, decisions=0, think_s=0.0))
        session.commit()
    return engine


def test_two_worlds_differing_in_hidden_cards_give_identical_pages(site: tuple[str, Any], tmp_path: Any) -> None:
    _, page = site
    a, b = _two_worlds()
    hidden_a = _hidden_cards(new_match("tiny-ninjas", a.seed, {}, 2)[1])
    hidden_b = _hidden_cards(new_match("tiny-ninjas", b.seed, {}, 2)[1])
    assert hidden_a != hidden_b  # the worlds really differ in what a spectator must not know
    seen: list[dict[str, Any]] = []
    for replay in (a, b):
        engine = _world(tmp_path, replay)
        with served(create_app(engine, admin_token="org")) as base:
            world: dict[str, Any] = {"html": page.request.get(f"{base}/matches/1").text(),
                                     "api": page.request.get(f"{base}/api/matches/1").json(),
                                     "frames": page.request.get(f"{base}/api/matches/1/frames").json(),
                                     "full": page.request.get(f"{base}/api/matches/1/full",
                                                              headers={"X-Admin-Token": "org"}).json()}
            doms = []
            for ply in range(len(world["frames"]["frames"])):
                page.goto(f"{base}/matches/1#ply={ply}")
                page.wait_for_function("p => document.querySelector('#board').dataset.ply == String(p)", arg=ply)
                doms.append(page.inner_html("#viewer"))
            world["dom"] = doms
            world["page"] = page.content()
            seen.append(world)
    assert len(seen[0]["dom"]) == 4
    for key in ("html", "api", "frames", "dom"):
        assert seen[0][key] == seen[1][key], key
    assert seen[0]["full"] != seen[1]["full"]  # the organiser's view does tell them apart
    only_a, only_b = hidden_a - hidden_b, hidden_b - hidden_a
    for world in seen:
        assert not any(card in world["page"] for card in only_a | only_b)


def test_the_admin_token_unlocks_every_seats_view(site: tuple[str, Any], filled: Filled) -> None:
    _, page = site
    match, seats = stored_matches(filled.engine, filled.by_game["tiny-ninjas"])[0]
    replay = Replay.from_dict(unpack_replay(match.replay_json))
    first_hands = [set(new_match("tiny-ninjas", replay.seed, {}, 2)[1].observe(s)["hand"]) for s in range(2)]
    with served(create_app(filled.engine, admin_token="org")) as base:
        page.goto(f"{base}/matches/{match.id}")
        page.wait_for_function("document.querySelector('#board').dataset.ply == '0'")
        assert page.locator("#seat-views pre").count() == 0  # the public page shows no seat's view
        page.goto(f"{base}/matches/{match.id}?token=org#ply=0")
        page.wait_for_function("document.querySelector('#board').dataset.ply == '0'")
        views = page.locator("#seat-views pre").all_inner_texts()
        assert len(views) == len(seats)
        for seat, text in enumerate(views):
            assert set(json.loads(text)["hand"]) == first_hands[seat]
        shot(page, "match-tiny-ninjas-organiser")


def test_a_live_match_names_its_players_before_it_ends(site: tuple[str, Any], filled: Filled) -> None:
    from tests.web.test_live import GATED_MOVE_MS, GatedBot

    _, page = site
    harness = ArenaHarness()
    bot = GatedBot()
    try:
        harness.bot("gated", bot)
        live = create_app(filled.engine, arena=harness.address)
        with served(live) as base, concurrent.futures.ThreadPoolExecutor(1) as pool:
            running = pool.submit(harness.run_match, "tiny-ninjas", ["remote:gated", "greedy"], 3, GATED_MOVE_MS,
                                  "", "", 0,
                                  "named-live")
            page.goto(f"{base}/live/named-live")
            page.wait_for_function("document.querySelector('#board').dataset.ply != '-1'", timeout=WAIT_S * 1000)
            board = page.locator("#board").text_content() or ""
            assert not running.done()  # the gated bot has not moved: the match is still on
            assert "gated" in board and "greedy" in board and "seat 0" not in board
            bot.gate.set()
            running.result(WAIT_S * 2)
    finally:
        bot.gate.set()
        harness.close()
