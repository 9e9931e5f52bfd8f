"""Engine benchmark: random-playout speed per game, and bot-versus-bot win rates.

    .venv/bin/python bench/engine.py                  # every built game, default sizes
    .venv/bin/python bench/engine.py --game tiny-ninjas --pairs 1000 --ismcts-pairs 100
    .venv/bin/python bench/engine.py --openspiel-only             # issue 32's table; TOURNEY_PURE=1: the source
    .venv/bin/python bench/engine.py --tensor-layout              # Tiny Ninjas' tensor as a list or an array

Speed: decisions/s and games/s of uniformly random playouts (legal_actions, a random
choice, apply) on one core, and the same through the referee (`play_match` with built-in
random bots: requests, timing and the replay log on top). When `open_spiel` is installed
(`pip install open_spiel`, part of the dev extra) the same run measures each game beside the
OpenSpiel C++ game it resembles, in CPU seconds, playouts and the cost of one observation (each
timed on a sampled state played afresh from its seed, never observed before, ours and OpenSpiel's
alike), so the ratio is measured on this machine rather than quoted. Win rates: duplicate pairs
(the same seed twice with the seats swapped, so both bots get the same cards and dice), reported
with a 95% interval.
"""

from __future__ import annotations

import argparse
import gc
import math
import operator
import os
import random
import sys
import time
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# This file is named engine.py: drop its own folder from the path so `engine` is the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import tourney.engine  # noqa: E402
from tourney.engine.bots import make_bot  # noqa: E402
from tourney.engine.core import ConfigError, available_games, get_game  # noqa: E402
from tourney.engine.referee import play_match  # noqa: E402


def rules_compiled() -> bool:
    """Whether the rules run compiled; a tree from before the compiled build (bench/engine_compare.py's
    base) has no such flag, and runs its source."""
    return bool(getattr(tourney.engine, "COMPILED_RULES", False))


def player_counts(game_id: str) -> list[int]:
    """The fewest players, and the most that the game's default options allow (Ninja Arena's
    six seats need an expansion option, so its default maximum is four)."""
    game = get_game(game_id)
    most = game.max_players
    while most > game.min_players:
        try:
            game.new_state(0, players=most)
            break
        except ConfigError:
            most -= 1
    return sorted({game.min_players, most})


Clock = Callable[[], float]


def _until(seconds: float | None, games: int | None, clock: Clock) -> Callable[[int], bool]:
    """Whether to play game number `k`: `games` of them, or as many as start within `seconds`."""
    if games is not None:
        return lambda k: k < games
    deadline = clock() + (seconds or 0.0)
    return lambda k: clock() < deadline


def random_playouts(game_id: str, players: int, config: dict[str, Any] | None = None, *,
                    seconds: float | None = None, games: int | None = None,
                    clock: Clock = time.perf_counter) -> tuple[int, int, float]:
    """(games, decisions, seconds by `clock`) of uniformly random playouts on seeds 0, 1, 2, ...:
    `games` of them, or as many as `seconds` allow."""
    game = get_game(game_id)
    rng = random.Random(1)
    decisions = played = 0
    started = clock()
    more = _until(seconds, games, clock)
    while more(played):
        state = game.new_state(played, players=players, config=config)
        while not state.is_over():
            joint = {}
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                joint[seat] = legal[rng.randrange(len(legal))]
            state.apply(joint)
            decisions += len(joint)
        played += 1
    return played, decisions, clock() - started


def refereed_random(game_id: str, players: int, config: dict[str, Any] | None = None, *,
                    seconds: float | None = None, games: int | None = None,
                    clock: Clock = time.perf_counter) -> tuple[int, int, float]:
    """(matches, decisions, seconds by `clock`) of built-in random bots refereed by `play_match`
    on seeds 0, 1, 2, ...: `games` matches, or as many as `seconds` allow."""
    game = get_game(game_id)
    decisions = matches = 0
    started = clock()
    more = _until(seconds, games, clock)
    while more(matches):
        seats = [make_bot("random", game, 31 * matches + i) for i in range(players)]
        result = play_match(game_id, seats, seed=matches, players=players, config=config)
        # A tree from before the one result (engine_compare's base) keeps its counts in seat_stats.
        seats = getattr(result, "seats", None) or result.seat_stats
        decisions += sum(stats.decisions for stats in seats)
        matches += 1
    return matches, decisions, clock() - started


# Each of our games beside the OpenSpiel C++ game it resembles (issue 32): (our game, players,
# OpenSpiel game string). Tiny Ninjas is a small poker-like card duel, Maître Ninja and Ninja
# Arena are simultaneous bids like goofspiel, Ninja Versus Ninja is a dice race like backgammon.
REFERENCES: tuple[tuple[str, int, str], ...] = (
    ("tiny-ninjas", 2, "leduc_poker"),
    ("maitre-ninja", 2, "goofspiel(players=2)"),
    ("maitre-ninja", 4, "goofspiel(players=4)"),
    ("ninja-versus-ninja", 2, "backgammon"),
    ("ninja-arena", 2, "goofspiel(players=2)"),
    ("ninja-arena", 4, "goofspiel(players=4)"),
)


def openspiel_playouts(name: str, *, seconds: float, clock: Clock = time.process_time) -> tuple[int, int, float]:
    """(games, decisions, seconds by `clock`) of uniformly random playouts of OpenSpiel game `name`
    driven from Python like ours: chance drawn by its probabilities, every seat of a simultaneous
    node choosing at once. A decision is one seat's choice, as in `random_playouts`."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    decisions = played = 0
    started = clock()
    more = _until(seconds, None, clock)
    while more(played):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            elif state.is_simultaneous_node():
                joint = [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
                state.apply_actions(joint)
                decisions += len(joint)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        played += 1
    return played, decisions, clock() - started


def _sampler(new: Callable[[int], Any], step: Callable[[Any, random.Random], None],
             over: Callable[[Any], bool], count: int, stride: int = 1,
             keep: Callable[[Any], bool] = lambda state: True) -> Callable[[], list[Any]]:
    """A function giving up to `count` states, every `stride`-th one met along random playouts of seeds
    0, 1, ... (so an observation is timed over a game's whole course, not its start) of those `keep`
    accepts. Each call plays every state afresh from its seed: no object is shared with another state or
    an earlier call."""
    spots: list[tuple[int, int]] = []  # (seed, decisions played)
    seed = 0
    while len(spots) < count and seed < count:
        state, rng, played = new(seed), random.Random(seed), 0
        while not over(state) and len(spots) < count:
            if played % stride == 0 and keep(state):
                spots.append((seed, played))
            step(state, rng)
            played += 1
        seed += 1

    def sample() -> list[Any]:
        states = []
        for seed, played in spots:
            state, rng = new(seed), random.Random(seed)
            for _ in range(played):
                step(state, rng)
            states.append(state)
        return states

    return sample


def _per_fresh_call(sample: Callable[[], list[Any]], call: Callable[[Any], object], clock: Clock,
                    rounds: int = 9) -> float:
    """Seconds by `clock` per `call(state)`, the best of `rounds` batches. Each batch runs on clones of
    states `sample` plays again from their seeds, all made outside the timing: played afresh, no
    state shares anything with one observed before (a clone would share what its original remembers,
    such as a Maitre Ninja fight's public face), so no memo can make the figure; cloned in one go,
    they lie together in memory as a trainer's one state does, so the figure is not a cache miss's."""
    best = math.inf
    for _ in range(rounds):
        played = sample()  # kept until the batch is timed: freeing them now would scatter the clones
        gc.collect()  # the garbage of playing them again is not the call's cost (before cloning: a
        fresh = [state.clone() for state in played]  # collection walks the heap and leaves the cache cold)
        best = min(best, _per_item(fresh, call, clock))
    return best


def _per_item(items: Sequence[Any], call: Callable[[Any], object], clock: Clock) -> float:
    """Seconds by `clock` per `call(item)` over `items`, with the collector off (as timeit does)."""
    gc.disable()
    try:
        started = clock()
        for item in items:
            call(item)
        return (clock() - started) / len(items)
    finally:
        gc.enable()


OBSERVE = "observe"  # what observe_cost times: the JSON view alone,
VIEW_TENSOR = "observe+encode"  # the view and the tensor built from it,
STATE_TENSOR = "encode_state"  # or the tensor straight from the state (what the training environments use)


def observe_cost(game_id: str, players: int, *, count: int = 400, clock: Clock = time.process_time,
                 what: str = OBSERVE) -> float:
    """CPU seconds of seat 0's `observe` (or `what` else) on states met along random playouts."""
    game = get_game(game_id)
    encoding = game.encoding()

    def step(state: Any, rng: random.Random) -> None:
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})

    sample = _sampler(lambda k: game.new_state(k, players=players), step, lambda s: s.is_over(), count)
    if what == OBSERVE or encoding is None:
        return _per_fresh_call(sample, lambda s: s.observe(0), clock)
    if what == VIEW_TENSOR:
        return _per_fresh_call(sample, lambda s: encoding.encode(s.observe(0)), clock)
    # A tree from before the tensor from the state (engine_compare's base) has no encode_state.
    from_state = getattr(encoding, "encode_state", None)
    if from_state is None:
        return math.nan
    return _per_fresh_call(sample, lambda s: from_state(s, 0), clock)


def _containers(value: Any) -> list[Any]:
    """Every dict and list inside `value` (itself included), outermost first."""
    found = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            found.append(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            todo.extend(item)
    return found


def floor_costs(game_id: str, players: int, *, count: int = 400, clock: Clock = time.process_time,
                rounds: int = 9) -> tuple[float, float]:
    """CPU seconds per state, on the states `observe_cost` samples, of the least a fresh view and a fresh
    tensor cost in CPython with no game code at all: a shallow copy (in C) of every dict and list of seat
    0's view, which is the making of each container a view must hand over as the caller's own, its
    numbers and strings already made; and list() of its finished tensor. Best of `rounds`."""
    game = get_game(game_id)
    encoding = game.encoding()

    def step(state: Any, rng: random.Random) -> None:
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})

    states = _sampler(lambda k: game.new_state(k, players=players), step, lambda s: s.is_over(), count)()
    tensors = [encoding.encode_state(state, 0) if encoding is not None else [] for state in states]
    view = _copy_floor([state.observe(0) for state in states], clock, rounds)
    tensor = math.inf
    for _ in range(rounds):
        gc.collect()
        tensor = min(tensor, _per_item(tensors, list, clock))
    return view, tensor


def _copy_floor(views: Sequence[Any], clock: Clock, rounds: int = 9) -> float:
    """CPU seconds per view of a copy in C of each of its dicts and lists, best of `rounds`. Each
    container's `copy` is bound before the timing and called through map(operator.call, ...): finding a
    method by name is no part of making a container (with it, the floor stood above observe() itself)."""
    bound = [[container.copy for container in _containers(view)] for view in views]
    best = math.inf
    for _ in range(rounds):
        gc.collect()
        best = min(best, _per_item(bound, lambda copies: list(map(operator.call, copies)), clock))
    return best


def late_champion_costs(*, count: int = 100, clock: Clock = time.process_time) -> tuple[float, float, int]:
    """Tiny Ninjas' seat-0 `observe` on Champion series states past the view's window (more events than
    EVENTS_SHOWN, where a long series' views cost most), each played afresh; the copy floor of the same
    views; and how many states were timed."""
    from tourney.engine.games.tiny_ninjas.state import EVENTS_SHOWN

    game = get_game("tiny-ninjas")

    def step(state: Any, rng: random.Random) -> None:
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})

    sample = _sampler(lambda k: game.new_state(k, players=2, config={"mode": "champion"}), step,
                      lambda s: s.is_over(), count, stride=7,
                      keep=lambda s: s.observe(0)["events_total"] > EVENTS_SHOWN)
    states = sample()
    view = _per_fresh_call(sample, lambda s: s.observe(0), clock)
    return view, _copy_floor([state.observe(0) for state in states], clock), len(states)


def openspiel_observe_cost(name: str, *, count: int = 400, clock: Clock = time.process_time) -> float:
    """CPU seconds of one `observation_tensor(0)` of OpenSpiel game `name` on states met along
    random playouts (decision nodes only: a chance node has no observer's turn), each on a state
    played afresh as ours are."""
    import pyspiel

    game = pyspiel.load_game(name)

    def step(state: Any, rng: random.Random) -> None:
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))

    everything = _sampler(lambda k: game.new_initial_state(), step, lambda s: s.is_terminal(), count)
    return _per_fresh_call(lambda: [s for s in everything() if not s.is_chance_node()],
                           lambda s: s.observation_tensor(0), clock)


PLAYOUT_ROUNDS = 3  # rounds of playouts per row, ours and OpenSpiel's in turn; the best of each is kept


def openspiel_table(seconds: float, games: Sequence[str]) -> Table | None:
    """Our random playouts and observations beside OpenSpiel's, in CPU time, interleaved row by
    row and round by round (the best round of each: noise only ever adds time); None when
    `open_spiel` is not installed."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    table = Table(title="Beside OpenSpiel's C++ games (CPU time, same run)")
    for col in ("game", "n", "dec/s", "OpenSpiel game", "OpenSpiel dec/s", "ratio", "observe µs",
                "+ tensor µs", "state tensor µs", "OpenSpiel tensor µs", "ratio view", "ratio state",
                "copy view µs", "copy tensor µs"):
        table.add_column(col, justify="right")
    for gid, n, name in REFERENCES:
        if gid not in games:
            continue
        ours = theirs = 0.0
        for _ in range(PLAYOUT_ROUNDS):  # alternating, so that a change in the machine's load hits both
            ours = max(ours, _rates(*random_playouts(gid, n, seconds=seconds / PLAYOUT_ROUNDS,
                                                     clock=time.process_time))[0])
            theirs = max(theirs, _rates(*openspiel_playouts(name, seconds=seconds / PLAYOUT_ROUNDS))[0])
        view = observe_cost(gid, n)
        both = observe_cost(gid, n, what=VIEW_TENSOR)
        direct = observe_cost(gid, n, what=STATE_TENSOR)
        tensor = openspiel_observe_cost(name)
        least_view, least_tensor = floor_costs(gid, n)
        table.add_row(gid, str(n), f"{ours:,.0f}", name, f"{theirs:,.0f}", f"{ours / theirs:.2f}",
                      f"{view * 1e6:.2f}", f"{both * 1e6:.2f}", f"{direct * 1e6:.2f}", f"{tensor * 1e6:.2f}",
                      f"{both / tensor:.2f}", f"{direct / tensor:.2f}", f"{least_view * 1e6:.2f}",
                      f"{least_tensor * 1e6:.2f}")
    return table


def beside_openspiel(console: Console, seconds: float, games: Sequence[str]) -> None:
    """Print `openspiel_table`, the build of the rules that ran and the load, or why there is no table."""
    beside = openspiel_table(seconds, games)
    if beside is None:
        console.print("OpenSpiel is not installed (pip install open_spiel, or the dev extra): "
                      "no reference figures in this run.")
        return
    console.print(beside)
    if "tiny-ninjas" in games:
        late, floor, count = late_champion_costs()
        console.print(f"tiny-ninjas late in a Champion series ({count} states whose view is past its window of "
                      f"events): observe {late * 1e6:.2f} µs, copy view {floor * 1e6:.2f} µs.")
    console.print("ratio: ours / OpenSpiel's (playouts: above 1 is faster than OpenSpiel; ratio view: "
                  "observe() + its tensor, ratio state: the tensor from the state as the training environments "
                  "build it; below 2 meets issue 32's goal). Each view is timed on a state played afresh. copy: a "
                  "copy in C of each dict and list of the same view, and list() of its tensor, with no game code: "
                  "what fresh containers of that size cost in CPython (the floor of any observe() and tensor). rules: "
                  + ("compiled (mypyc)" if rules_compiled() else "pure Python (TOURNEY_PURE=1 or no compiler)")
                  + ". load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


def tensor_changes(seeds: int) -> list[int]:
    """For each decision of Tiny Ninjas' random playouts (seeds 0..seeds-1, every mode): how many numbers
    of the two seats' state tensors it changes, the writes a tensor kept up to date by the rules would add
    to that decision."""
    game = get_game("tiny-ninjas")
    encoding = game.encoding()
    assert encoding is not None
    changed = []
    for mode in game.modes:
        for seed in range(seeds):
            state = game.new_state(seed, config={"mode": mode})
            rng = random.Random(seed)
            before = [list(encoding.encode_state(state, seat)) for seat in (0, 1)]
            while not state.is_over():
                state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
                after = [list(encoding.encode_state(state, seat)) for seat in (0, 1)]
                changed.append(sum(x != y for seat in (0, 1) for x, y in zip(before[seat], after[seat], strict=True)))
                before = after
    return changed


def tensor_layout(console: Console, *, count: int = 400, seeds: int = 40, rounds: int = 9) -> None:
    """What handing out Tiny Ninjas' finished state tensor costs as a list and as an `array('d')` copy, and
    what envs/table.py's `np.asarray(..., np.float32)` costs on each, beside the tensor now, the training
    environments' whole float32 observation tensor (`Table.tensor`) and leduc's (CPU time, on the states
    `observe_cost` samples); then how many numbers one decision changes. The
    figures an incremental tensor (kept by the rules, copied out) is weighed by before it is built."""
    import numpy as np

    game = get_game("tiny-ninjas")
    encoding = game.encoding()
    assert encoding is not None
    clock = time.process_time

    def step(state: Any, rng: random.Random) -> None:
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})

    states = _sampler(lambda k: game.new_state(k), step, lambda s: s.is_over(), count)()
    lists = [encoding.encode_state(state, 0) for state in states]
    arrays = [array("d", tensor) for tensor in lists]
    from tourney.envs.float32 import float32_array
    from tourney.envs.table import Table as Match

    match = Match("tiny-ninjas")

    def env_tensor(state: Any) -> object:
        match.state = state
        return match.tensor(0)

    rows: list[tuple[str, float]] = [
        ("encode_state now", observe_cost("tiny-ninjas", 2, count=count, clock=clock, what=STATE_TENSOR)),
        ("envs' float32 observation", _per_fresh_call(_sampler(lambda k: game.new_state(k), step,
                                                               lambda s: s.is_over(), count), env_tensor, clock)),
        ("list(tensor)", min(_per_item(lists, list, clock) for _ in range(rounds))),
        ("array('d') copy", min(_per_item(arrays, array.__copy__, clock) for _ in range(rounds))),
        ("np.asarray(list, float32)",
         min(_per_item(lists, lambda t: np.asarray(t, np.float32), clock) for _ in range(rounds))),
        ("np.asarray(array, float32)",
         min(_per_item(arrays, lambda t: np.asarray(t, np.float32), clock) for _ in range(rounds))),
        ("float32_array(list) (envs')", min(_per_item(lists, float32_array, clock) for _ in range(rounds))),
    ]
    try:
        leduc = openspiel_observe_cost("leduc_poker", count=count, clock=clock)
    except ImportError:
        leduc = math.nan
    table = Table(title="Tiny Ninjas' state tensor handed out (one seat, CPU time)")
    for col in ("what", "µs", "/ leduc tensor"):
        table.add_column(col, justify="right")
    for name, seconds in (*rows, ("leduc observation_tensor", leduc)):
        table.add_row(name, f"{seconds * 1e6:.2f}", f"{seconds / leduc:.2f}")
    console.print(table)
    changed = sorted(tensor_changes(seeds))
    console.print(f"numbers of both seats' tensors one decision changes ({len(changed)} decisions, every mode): "
                  f"mean {sum(changed) / len(changed):.1f}, median {changed[len(changed) // 2]}, 90th percentile "
                  f"{changed[int(0.9 * len(changed))]}, most {changed[-1]}. load average: "
                  + " ".join(f"{x:.2f}" for x in os.getloadavg()))


def _rates(games: int, decisions: int, elapsed: float) -> tuple[float, float, int]:
    return decisions / elapsed, games / elapsed, games


def duplicate_win_rate(game_id: str, hero: str, villain: str, pairs: int) -> tuple[float, float, int]:
    """Hero's mean points per game over `pairs` duplicate pairs, with the 95% half-width."""
    game = get_game(game_id)
    points: list[float] = []
    for k in range(pairs):
        for hero_seat in (0, 1):
            names = [villain, villain]
            names[hero_seat] = hero
            seats = [make_bot(n, game, 7919 * k + 2 * i + hero_seat) for i, n in enumerate(names)]
            points.append(play_match(game_id, seats, seed=k, players=2).points(hero_seat))
    mean = sum(points) / len(points)
    var = sum((p - mean) ** 2 for p in points) / max(1, len(points) - 1)
    return mean, 1.96 * math.sqrt(var / len(points)), len(points)


def solo_win_rate(bot: str, difficulty: str, games: int) -> tuple[float, float]:
    """A bot's mean points against Tiny Ninjas' Solo AI, with the 95% half-width."""
    game = get_game("tiny-ninjas")
    config = {"mode": "solo", "difficulty": difficulty}
    points = []
    for k in range(games):
        # Seat 1 is the AI, played by the engine; its placeholder bot is never asked.
        seats = [make_bot(bot, game, 7919 * k), make_bot("random", game, 0)]
        points.append(play_match("tiny-ninjas", seats, seed=k, config=config).points(0))
    mean = sum(points) / len(points)
    var = sum((p - mean) ** 2 for p in points) / max(1, len(points) - 1)
    return mean, 1.96 * math.sqrt(var / len(points))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="game id (repeatable); default: every built game")
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per game")
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs for greedy vs random")
    parser.add_argument("--ismcts-pairs", type=int, default=20, help="duplicate pairs for ismcts vs greedy")
    parser.add_argument("--solo-games", type=int, default=40, help="games per bot and difficulty against "
                        "Tiny Ninjas' Solo AI (0 skips the ladder)")
    parser.add_argument("--openspiel-only", action="store_true",
                        help="print only the table beside OpenSpiel's games (issue 32's speed targets)")
    parser.add_argument("--tensor-layout", action="store_true",
                        help="print only what Tiny Ninjas' state tensor costs handed out as a list and as an "
                        "array, and how many of its numbers a decision changes")
    args = parser.parse_args(argv)
    games = args.game or [g.id for g in available_games()]
    console = Console(width=160)
    if args.tensor_layout:
        tensor_layout(console)
        return
    if args.openspiel_only:
        beside_openspiel(console, args.seconds, games)
        return

    speed = Table(title="Random playouts (one core)")
    for col in ("game", "players", "decisions/s", "games/s", "games"):
        speed.add_column(col, justify="right")
    for gid in games:
        for n in player_counts(gid):
            d, gs, count = _rates(*random_playouts(gid, n, seconds=args.seconds))
            speed.add_row(gid, str(n), f"{d:,.0f}", f"{gs:,.1f}", str(count))
    if "tiny-ninjas" in games:
        for mode in get_game("tiny-ninjas").modes[1:]:
            d, gs, count = _rates(*random_playouts("tiny-ninjas", 2, {"mode": mode}, seconds=args.seconds))
            speed.add_row(f"tiny-ninjas {mode}", "2", f"{d:,.0f}", f"{gs:,.1f}", str(count))
    console.print(speed)
    beside_openspiel(console, args.seconds, games)

    refereed = Table(title="Refereed random bots (play_match, one core)")
    for col in ("game", "players", "decisions/s", "matches/s", "matches"):
        refereed.add_column(col, justify="right")
    for gid in games:
        for n in player_counts(gid):
            d, ms, count = _rates(*refereed_random(gid, n, seconds=args.seconds))
            refereed.add_row(gid, str(n), f"{d:,.0f}", f"{ms:,.1f}", str(count))
    console.print(refereed)

    if "tiny-ninjas" in games and args.solo_games > 0:
        solo = Table(title=f"Against the Solo AI ({args.solo_games} games each; win points, 95% interval)")
        difficulties = ("easy", "normal", "hard")
        for col in ("bot", *difficulties):
            solo.add_column(col, justify="right")
        for bot in ("random", "greedy", "ismcts"):
            cells = []
            for difficulty in difficulties:
                mean, half = solo_win_rate(bot, difficulty, args.solo_games)
                cells.append(f"{100 * mean:.0f}% ± {100 * half:.0f}")
            solo.add_row(bot, *cells)
        console.print(solo)

    rates = Table(title="Win rates over duplicate pairs (points per game, 95% interval)")
    for col in ("game", "hero", "villain", "games", "hero score"):
        rates.add_column(col, justify="right")
    for gid in games:
        if get_game(gid).min_players > 2:
            continue
        for hero, villain, pairs in (("greedy", "random", args.pairs), ("ismcts", "greedy", args.ismcts_pairs)):
            if pairs <= 0:
                continue
            mean, half, n = duplicate_win_rate(gid, hero, villain, pairs)
            rates.add_row(gid, hero, villain, str(n), f"{100 * mean:.1f}% ± {100 * half:.1f}")
    if rates.row_count:
        console.print(rates)


if __name__ == "__main__":
    main()
