"""FIDE's Tournament Report File (TRF-16) as the pairing programs read it, and their output format.

Read: the `001` player lines (starting rank, name, rating, points and one 10-character
block per round: opponent's starting rank, colour w/b/-, result) and `XXR` (total rounds;
bbpPairings and JaVaFo need it, as the last round pairs topscorers differently) and `XXC`
(`black1` when the top seed has black in round one). Results: 1 0 = (played), W D L (played,
unrated), + - (forfeit win/loss), U (pairing-allocated bye), F H Z (full-, half-, zero-point
bye) and blank (not paired).

Write: the same lines for a tournament of ours, so an arbiter can check our pairings with
bbpPairings or JaVaFo, and theirs with `tourney pair`.

Output of a pairing, as those programs print it: the number of pairs, then one `WHITE BLACK`
line per pair by starting rank, a bye as `N 0`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tourney.tournament.formats.pairing import PlayedGame

RESULTS_AT = 91  # 0-based column of the first round's block
BLOCK = 10
PLAYED = {"1": 1.0, "0": 0.0, "=": 0.5, "W": 1.0, "D": 0.5, "L": 0.0}
UNPLAYED = {"+": 1.0, "-": 0.0, "U": 1.0, "F": 1.0, "H": 0.5, "Z": 0.0, " ": 0.0}
MAX_PLAYERS = 9999  # TRF starting ranks have four digits
MAX_ROUNDS = 99


class TrfError(ValueError):
    """A TRF file that cannot be read: the message is one sentence naming the problem."""


@dataclass
class TrfPlayer:
    """One `001` line."""

    number: int
    name: str = ""
    rating: int = 0
    results: list[tuple[int, str, str]] = field(default_factory=list)  # (opponent or 0, colour, result code)


@dataclass
class Tournament:
    """What a pairing program needs from a TRF."""

    players: list[TrfPlayer]
    total_rounds: int | None = None
    first_white: bool = True

    def history(self) -> tuple[list[list[PlayedGame]], list[list[float]]]:
        """The rounds as our games (played games with white in seat 0; a pairing-allocated bye or forfeit win as
        a one-seat game), and each round's points that are no game and no such bye (F, H), per player."""
        n = len(self.players)
        rounds = max((len(p.results) for p in self.players), default=0)
        games: list[list[PlayedGame]] = [[] for _ in range(rounds)]
        extra = [[0.0] * n for _ in range(rounds)]
        for p in self.players:
            for r, (opponent, colour, code) in enumerate(p.results):
                if code in PLAYED:
                    if colour == "w":  # each game once, from white's line
                        theirs = self.players[opponent - 1].results[r]
                        if theirs[0] != p.number or theirs[2] not in PLAYED:
                            raise TrfError(f"round {r + 1}: players {p.number} and {opponent} do not agree on their "
                                           f"game; fix the result blocks of both lines.")
                        games[r].append(PlayedGame((p.number - 1, opponent - 1), (PLAYED[code], PLAYED[theirs[2]])))
                elif code in ("U", "+"):
                    games[r].append(PlayedGame((p.number - 1,), (1.0,)))
                else:
                    extra[r][p.number - 1] = UNPLAYED[code]
        return games, extra


def read_trf(text: str) -> Tournament:
    """Parse a TRF; any problem raises TrfError with one sentence saying what and where."""
    players: dict[int, TrfPlayer] = {}
    total: int | None = None
    first_white = True
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("001"):
            p = _player(line, lineno)
            if p.number in players:
                raise TrfError(f"line {lineno}: starting rank {p.number} appears twice; give each player its own.")
            players[p.number] = p
        elif line.startswith("XXR"):
            try:
                total = int(line[3:].split()[0])
            except (ValueError, IndexError):
                raise TrfError(f"line {lineno}: XXR needs the total number of rounds, e.g. 'XXR 9'.") from None
            if not 1 <= total <= MAX_ROUNDS:
                raise TrfError(f"line {lineno}: XXR {total} is not a number of rounds between 1 and {MAX_ROUNDS}.")
        elif line.startswith("XXC"):
            first_white = "black1" not in line[3:].split()
    if len(players) < 2:
        raise TrfError("the file has fewer than two player lines (starting with 001); is it a TRF?")
    if sorted(players) != list(range(1, len(players) + 1)):
        raise TrfError(f"starting ranks must run 1..{len(players)} without gaps; renumber the 001 lines.")
    ordered = [players[i] for i in range(1, len(players) + 1)]
    done = {len(p.results) for p in ordered}
    if len(done) > 1:
        raise TrfError(f"players have results for different numbers of rounds ({min(done)} to {max(done)}); "
                       f"give every player a block for every round played (blank if not paired).")
    for p in ordered:
        for r, (opponent, _, _) in enumerate(p.results):
            if opponent > len(ordered):
                raise TrfError(f"player {p.number}, round {r + 1}: opponent {opponent} is not a starting rank.")
    if total is not None and total <= done.pop():
        raise TrfError(f"XXR {total} says the tournament is over: every player has {total} results already.")
    return Tournament(ordered, total, first_white)


def _player(line: str, lineno: int) -> TrfPlayer:
    try:
        number = int(line[4:8])
    except ValueError:
        raise TrfError(f"line {lineno}: columns 5-8 must hold the starting rank.") from None
    if not 1 <= number <= MAX_PLAYERS:
        raise TrfError(f"line {lineno}: starting rank {number} is outside 1..{MAX_PLAYERS}.")
    rating_text = line[48:52].strip()
    results = []
    rest = line[RESULTS_AT:]
    for r in range(0, len(rest.rstrip()), BLOCK):
        block = rest[r:r + BLOCK - 2].ljust(BLOCK - 2)
        opp_text, colour, code = block[0:4].strip(), block[5], block[7]
        if code not in PLAYED and code not in UNPLAYED:
            raise TrfError(f"line {lineno}, round {r // BLOCK + 1}: result '{code}' is not a TRF result code "
                           f"(1 0 = W D L + - U F H Z).")
        if code in PLAYED and (not opp_text.isdigit() or colour not in "wb" or int(opp_text) == number):
            raise TrfError(f"line {lineno}, round {r // BLOCK + 1}: a played game needs an opponent's starting rank "
                           f"and colour w or b.")
        results.append((int(opp_text) if opp_text.isdigit() else 0, colour, code))
    return TrfPlayer(number, line[14:47].strip(), int(rating_text) if rating_text.isdigit() else 0, results)


def write_trf(names: Sequence[str], rounds: Sequence[Sequence[PlayedGame]], total_rounds: int, name: str = "tourney"
              ) -> str:
    """A TRF of our tournament: entrant i is starting rank i+1; a pairing of several games is one game, won, drawn
    or lost on the points over them, with the colour of its first game; a bye is `U`."""
    n = len(names)
    if n > MAX_PLAYERS:
        raise TrfError(f"TRF starting ranks have four digits: {n} players do not fit.")
    blocks: list[list[str]] = [[] for _ in range(n)]
    points = [0.0] * n
    for games in rounds:
        totals: dict[tuple[int, int], list[float]] = {}
        white: dict[tuple[int, int], int] = {}
        seen: set[int] = set()
        for g in games:
            if len(g.seats) == 1:
                blocks[g.seats[0]].append("0000 - U")
                points[g.seats[0]] += 1.0
                seen.add(g.seats[0])
                continue
            key = (min(g.seats), max(g.seats))
            white.setdefault(key, g.seats[0])
            t = totals.setdefault(key, [0.0, 0.0])
            for seat, who in enumerate(g.seats):
                t[0 if who == key[0] else 1] += g.points[seat]
        for (a, b), (pa, pb) in totals.items():
            for me, other, mine, theirs in ((a, b, pa, pb), (b, a, pb, pa)):
                code = "1" if mine > theirs else "=" if mine == theirs else "0"
                points[me] += 1.0 if code == "1" else 0.5 if code == "=" else 0.0
                blocks[me].append(f"{other + 1:4d} {'w' if white[(a, b)] == me else 'b'} {code}")
                seen.add(me)
        for i in range(n):
            if i not in seen:
                blocks[i].append("0000 - Z")
    lines = [f"012 {name}", f"XXR {total_rounds}"]
    for i in range(n):
        head = [" "] * (RESULTS_AT - 2)
        for column, text in ((1, "001"), (5, f"{i + 1:4d}"), (15, names[i][:33]), (81, f"{points[i]:4.1f}"),
                             (86, f"{i + 1:4d}")):
            head[column - 1:column - 1 + len(text)] = text
        lines.append("".join(head) + "".join(f"  {b}" for b in blocks[i]))
    return "\n".join(lines) + "\n"


def pair_dutch(t: Tournament) -> tuple[list[tuple[int, int]], int | None]:
    """The next round of a TRF tournament by the FIDE Dutch rules: (white, black) pairs and the bye (0-based)."""
    from tourney.tournament.formats.dutch import entrants_from_rounds, pair_entrants

    games, extra = t.history()
    people = entrants_from_rounds(len(t.players), games, t.total_rounds, extra)
    return pair_entrants(people, len(games), t.first_white)


def format_pairing(pairs: Sequence[tuple[int, int]], bye: int | None) -> str:
    """The bbpPairings/JaVaFo output: the number of pairs, then `WHITE BLACK` per line (starting ranks), `N 0` a bye."""
    lines = [str(len(pairs) + (bye is not None))]
    lines += [f"{w + 1} {b + 1}" for w, b in pairs]
    if bye is not None:
        lines.append(f"{bye + 1} 0")
    return "\n".join(lines) + "\n"
