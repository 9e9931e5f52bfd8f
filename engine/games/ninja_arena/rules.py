"""The rules as small functions, in the order of play (§3, §4, §5, §7, §10).

Every function works on an ArenaState `st` (flat per-seat lists). The tick driver
(`resolve_tick`) and the real-time driver (realtime.py) compose the same transitions:
validate, mistake, roll, activate, the Uzumaki pauses and the end check.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from tourney.engine.core import Action
from tourney.engine.core.chance import i64
from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.actions import HIT, ROLL_SUBSETS, ROLLS, WAIT, Activate, Hit, Roll, Wait
from tourney.engine.games.ninja_arena.matching import (
    DICE_OF_BITS,
    FACE_MASK,
    canonical,
    chosen_fit,
    die_masks,
    fill_bits,
    fits,
    room_of,
)

if TYPE_CHECKING:
    from tourney.engine.games.ninja_arena.state import ArenaState

ATTACK, PENALTY, SHADOW, SELF, FAN_RETURN = "attack", "penalty", "shadow", "self", "fan_return"
# The action classes and WAIT under Final names for the per-tick code: the compiled build reads a
# Final name from a C static, an imported one from the module's dict on every use.
_ROLL: Final = Roll
_ACTIVATE: Final = Activate
_HIT: Final = Hit
_WAIT_OR_HIT: Final = (Wait, Hit)
_WAIT: Final = WAIT
CLAIM_POWER, CLAIM_RECOVERY = 1, 2


# --- who is where ---------------------------------------------------------------------------


def conscious(st: ArenaState, p: int) -> bool:
    """FRONT side and not eliminated."""
    return not st.eliminated[p] and not st.ko[p]


# For each table size and seat: the other seats in order, starting from its left. Built once:
# opponents() runs several times per seat per tick.
_AROUND: Final = {n: tuple(tuple((p + k) % n for k in range(1, n)) for p in range(n)) for n in range(2, 7)}


def opponents(st: ArenaState, p: int) -> list[int]:
    """Conscious opponents of p, in seat order starting from p's left."""
    eliminated, ko = st.eliminated, st.ko
    return [q for q in _AROUND[st.n][p] if not eliminated[q] and not ko[q]]


def left_of(st: ArenaState, p: int) -> int:
    """Nearest conscious opponent clockwise (-1 if none)."""
    n = st.n
    for k in range(1, n):
        q = (p + k) % n
        if not st.eliminated[q] and not st.ko[q]:
            return q
    return -1


def right_of(st: ArenaState, p: int) -> int:
    """Nearest conscious opponent counter-clockwise (-1 if none)."""
    n = st.n
    for k in range(1, n):
        q = (p - k) % n
        if not st.eliminated[q] and not st.ko[q]:
            return q
    return -1


def masks(st: ArenaState, p: int) -> tuple[int, ...]:
    """Fill masks of p's five dice (Blade Dance included)."""
    b = 5 * p
    if st.power[p] and st.top[p] == D.TEMARI:  # Blade Dance: each die's mask depends on the others
        return _cached_masks(tuple(st.dice[b : b + 5]), True)
    d = st.dice
    return (FACE_MASK[d[b]], FACE_MASK[d[b + 1]], FACE_MASK[d[b + 2]], FACE_MASK[d[b + 3]], FACE_MASK[d[b + 4]])


# Bots and search ask for a seat's masks several times a tick (claims, techniques, goals) and
# there are only 7**5 faces x 2: remembering them is a fifth of a tactician play-out's time.
_cached_masks: Final = lru_cache(maxsize=1 << 15)(die_masks)


def akamaru(st: ArenaState, p: int, owner: int) -> bool:
    """Kiba's Power: his own T1/T2 may leave one requirement slot empty."""
    return owner == D.KIBA and st.power[p] and st.top[p] == D.KIBA


def claim_kind(st: ArenaState, p: int) -> int:
    """What a HIT by p would be now: CLAIM_POWER, CLAIM_RECOVERY or 0 (a bare hit)."""
    if st.eliminated[p]:
        return 0
    ch = D.CHARACTERS[st.top[p]]
    blade = st.power[p] and st.top[p] == D.TEMARI  # Blade Dance: many-symbol masks, searched
    if not st.ko[p]:
        # The Power takes all five dice: with five symbols, that is the canonical five.
        if blade or len(ch.power) != 5:
            return CLAIM_POWER if fits(masks(st, p), ch.power) else 0
        return CLAIM_POWER if fill_bits(st.dice, 5 * p, _POWER_ROOMS[st.top[p]], 5) else 0
    if st.duel:
        return 0
    if blade:
        return 0 if canonical(masks(st, p), ch.recovery, len(ch.recovery)) is None else CLAIM_RECOVERY
    return CLAIM_RECOVERY if fill_bits(st.dice, 5 * p, _RECOVERY_ROOMS[st.top[p]], len(ch.recovery)) else 0


# Each character's Power and recovery requirements as matching.room_of packs them, by character.
_POWER_ROOMS: Final = tuple(room_of(c.power) for c in D.CHARACTERS)
_RECOVERY_ROOMS: Final = tuple(room_of(c.recovery) for c in D.CHARACTERS)


# --- damage (§3.3) and wounds (§3.4, §3.5) -------------------------------------------------


def deliver(st: ArenaState, src: int, dst: int, amount: int, kind: str) -> bool:
    """Give `amount` tokens to dst; False if nothing arrived (KO'd, or cancelled by Byakugan)."""
    if amount <= 0 or dst < 0 or st.eliminated[dst] or st.ko[dst]:
        return False
    if kind == ATTACK and st.byakugan[dst] > 0 and st.power[dst] and st.top[dst] == D.HINATA:
        st.byakugan[dst] -= 1
        st.events.append(("byakugan", dst, src))
        return False
    if st.power[dst] and st.top[dst] == D.GAARA and st.shield[dst] == 0:
        st.shield[dst] += amount
        st.events.append(("shield", dst, amount))
    else:
        st.pool[dst] += amount
        st.events.append(("tokens", dst, amount, kind))
    if kind == ATTACK and st.fan[dst] > 0 and src >= 0 and src != dst:
        st.fan[dst] -= 1
        deliver(st, dst, src, 1, FAN_RETURN)
    return True


def threshold(st: ArenaState, p: int) -> int:
    """Tokens needed to leave the current space (Chakra Control makes it 10)."""
    if st.top[p] == D.SAKURA and st.power[p]:
        return D.SAKURA_THRESHOLD
    return D.CHARACTERS[st.top[p]].track[st.cube[p]]


def tally(st: ArenaState, p: int, defer: bool) -> None:
    """Damage Tally: move the cube by thresholds, then discard the whole pool."""
    before = st.cube[p]
    while st.cube[p] < D.K_SPACES and st.pool[p] >= threshold(st, p):
        st.pool[p] -= threshold(st, p)
        st.cube[p] += 1
        if st.cube[p] == D.K_SPACES:
            knock_out(st, p, defer)
            break
    st.pool[p] = 0
    st.events.append(("tally", p, before, st.cube[p]))


def mistake(st: ArenaState, p: int, was_ko: bool) -> None:
    """A Mistake: one wound (no tally), or elimination for a KO'd player (A8)."""
    st.events.append(("mistake", p))
    if was_ko:
        eliminate(st, p, defer=False)
        return
    st.cube[p] += 1
    if st.cube[p] >= D.K_SPACES:
        knock_out(st, p, defer=False)


def knock_out(st: ArenaState, p: int, defer: bool) -> None:
    """KO (or, after a recovery or in a Duel, elimination). `defer` leaves LOSE_POWER to the pause."""
    if st.recovered[p] or st.duel:
        eliminate(st, p, defer)
        return
    st.ko[p] = True
    st.pool[p] = 0
    st.fan[p] = 0
    st.byakugan[p] = 0
    st.out_time[p] = st.t
    st.events.append(("ko", p))
    if st.power[p] and not defer:
        lose_power(st, p)


def eliminate(st: ArenaState, p: int, defer: bool) -> None:
    """Out of the game for good."""
    if st.eliminated[p]:
        return
    if st.power[p] and not defer:
        lose_power(st, p)
    if not st.ko[p]:
        st.out_time[p] = st.t
    st.eliminated[p] = True
    st.live = tuple(q for q in st.live if q != p)
    st.events.append(("eliminated", p))


def recover(st: ArenaState, p: int) -> None:
    """Back to FRONT on the last space before KO; the next KO eliminates."""
    st.ko[p] = False
    st.cube[p] = D.K_SPACES - 1
    st.recovered[p] = True
    st.pool[p] = 0
    st.events.append(("recovered", p))


def lose_power(st: ArenaState, p: int) -> None:
    """Flip p's tile to inactive and run its 'when you lose your Power' effect."""
    st.power[p] = False
    st.events.append(("power_lost", p))
    ch = st.top[p]
    if ch == D.ROCK_LEE:
        gate, st.gate[p] = st.gate[p], 0
        deliver(st, p, p, gate, SELF)
    elif ch == D.TENTEN:
        amounts = sides(st, p, 4)
        _deliver_batch(st, p, amounts, -1, 0)
    elif ch == D.HINATA:
        st.byakugan[p] = 0
    elif ch == D.GAARA:
        shield, st.shield[p] = st.shield[p], 0
        deliver(st, p, p, shield, SELF)


def gain_power(st: ArenaState, p: int) -> None:
    """Activate (or refresh) p's Power tile."""
    was = st.power[p]
    st.power[p] = True
    st.events.append(("power", p))
    ch = st.top[p]
    if ch == D.ROCK_LEE:
        st.gate[p] = D.GATE_TOKENS
    elif ch == D.HINATA:
        st.byakugan[p] = D.BYAKUGAN_CHARGES
    elif ch == D.GAARA and not was:
        st.shield[p] = 0


# --- validation (§5.1, §5.3) ---------------------------------------------------------------


def valid(st: ArenaState, p: int, a: Action) -> bool:
    """Is `a` a legal submission for p against the current state? (Anything else is a Mistake.)"""
    if isinstance(a, _ROLL):  # the commonest by far: 31 of a legal list's ~35 actions
        return _valid_roll(st, p, a)
    if isinstance(a, _WAIT_OR_HIT):  # a tuple: `Wait | Hit` would build a union object per call
        return True
    if isinstance(a, _ACTIVATE):
        return _valid_activate(st, p, a)
    return False


# The very tuples the legal rolls hold: a lookup then meets its own key and skips comparing tuples.
_SUBSETS: Final = frozenset(ROLL_SUBSETS)


def _dice_ok(dice: tuple[int, ...]) -> bool:
    if dice in _SUBSETS:
        return True
    return (
        isinstance(dice, tuple)
        and len(dice) > 0
        and all(isinstance(d, int) and 0 <= d < 5 for d in dice)
        and len(set(dice)) == len(dice)
    )


def _valid_roll(st: ArenaState, p: int, a: Roll) -> bool:
    if not _dice_ok(a.dice) or st.t <= st.stitched[p]:
        return False
    if a.stream_target == -1:
        return True
    return st.top[p] == D.SHIKAMARU and a.stream_target in opponents(st, p)


def technique_amount(st: ArenaState, p: int, a: Activate) -> tuple[D.Technique, int, int] | None:
    """(technique, damage, owner) if a's technique is available and its dice fill it, else None."""
    if not _dice_ok(a.dice):
        return None
    m = masks(st, p)
    for key, tech, owner, _ in techniques(st, p):
        if key != a.technique:
            continue
        aka = akamaru(st, p, owner)
        for req, n in tech.variants:
            k = len(a.dice)
            if (k == len(req) or (aka and k == len(req) - 1)) and chosen_fit(m, a.dice, req):
                return tech, n, owner
        return None
    return None


def _valid_activate(st: ArenaState, p: int, a: Activate) -> bool:
    if not conscious(st, p):
        return False
    found = technique_amount(st, p, a)
    if found is None:
        return False
    tech, _, owner = found
    opps = opponents(st, p)
    shape = tech.shape
    if a.from_shield and not (owner == D.GAARA and tech.key == "T2" and 0 <= a.from_shield <= 2):
        return False
    recipients: set[int]
    if shape == D.ONE:
        if a.target not in opps or a.allocation:
            return False
        recipients = {a.target}
    elif shape in (D.NEIGHBOUR, D.FOURS):
        ends = {left_of(st, p), right_of(st, p)}
        if a.target not in ends or a.target < 0 or a.allocation:
            return False
        recipients = {a.target} if shape == D.NEIGHBOUR else ends
    elif shape == D.SPLIT:
        if a.target != -1 or not _valid_split(a.allocation, opps, tech.variants[0][1], tech.split_min):
            return False
        recipients = {s for s, k in a.allocation if k > 0}
    else:  # SIDES, ALL
        if a.target != -1 or a.allocation:
            return False
        recipients = {left_of(st, p), right_of(st, p)} if shape == D.SIDES else set(opps)
    return a.bonus_target == -1 or a.bonus_target in recipients


def _valid_split(alloc: tuple[tuple[int, int], ...], opps: list[int], n: int, minimum: int) -> bool:
    if not isinstance(alloc, tuple):
        return False
    seats = [s for s, _ in alloc]
    if len(set(seats)) != len(seats) or any(s not in opps for s in seats):
        return False
    if any(not isinstance(k, int) or k < max(minimum, 0) for _, k in alloc):
        return False
    if sum(k for _, k in alloc) != n:
        return False
    return not (minimum >= 1 and len(opps) <= n and set(seats) != set(opps))


# --- step D: the actions -------------------------------------------------------------------


def do_roll(st: ArenaState, p: int, a: Roll) -> None:
    """Reroll the listed dice (ascending index, from the seat's own stream), then Stream His Chakra."""
    base = 5 * p
    stream = st.dice_streams[p]
    spiral = False
    chance = st.chance
    dice = st.dice
    which = a.dice  # validated: distinct dice, and ascending unless a bot listed them otherwise
    for k in range(1, len(which)):
        if which[k - 1] > which[k]:
            which = tuple(sorted(which))
            break
    rolled = chance.rolls(stream, 6, len(which))  # one draw per die, in that order, in one call
    for k in range(len(which)):
        i = which[k]
        face = DIE_FACES[i][rolled[k] - 1]
        dice[base + i] = face
        spiral = spiral or face == D.W
    st.events.append(("roll", p, faces_tuple(dice, base)))
    if spiral and st.power[p] and st.top[p] == D.SHIKAMARU and conscious(st, p):
        tgt = a.stream_target if a.stream_target >= 0 else left_of(st, p)
        if tgt >= 0 and conscious(st, tgt):
            st.events.append(("stream", p, tgt))
            deliver(st, p, tgt, D.STREAM_TOKENS, ATTACK)


# Each die's faces by the number rolled (a Final copy: the compiled rules index it directly).
DIE_FACES: Final[tuple[tuple[int, ...], ...]] = D.DIE_FACES
# Five dice's faces as a tuple, by the faces packed three bits each: at most 7**5 of them, each made
# once, so a roll's event builds no tuple of its own.
_FACES_TUPLE: Final[list[tuple[int, ...] | None]] = [None] * (1 << 15)


def faces_tuple(dice: list[int], base: int) -> tuple[int, ...]:
    """dice[base:base + 5] as a tuple, one shared object per five faces."""
    got = _FACES_TUPLE[faces_key(dice, base)]
    if got is None:
        got = _FACES_TUPLE[faces_key(dice, base)] = (dice[base], dice[base + 1], dice[base + 2], dice[base + 3],
                                                     dice[base + 4])
    return got


def faces_key(dice: list[int], base: int) -> i64:
    """The faces of dice[base:base + 5] packed three bits each (below 2**15), in machine integers."""
    at: i64 = base
    key: i64 = 0
    for i in range(5):
        face: i64 = dice[at + i]
        key = key * 8 + face
    return key


def sides(st: ArenaState, p: int, n: int) -> dict[int, int]:
    """n to each side; both halves to one player when the neighbours coincide (A9)."""
    out: dict[int, int] = {}
    for q in (left_of(st, p), right_of(st, p)):
        if q >= 0:
            out[q] = out.get(q, 0) + n
    return out


def planned_amounts(st: ArenaState, p: int, a: Activate, tech: D.Technique, n: int, owner: int) -> dict[int, int]:
    """What the technique gives each recipient now, before the attack bonus and defences."""
    shape = tech.shape
    amounts: dict[int, int] = {}
    if shape in (D.ONE, D.NEIGHBOUR):
        if conscious(st, a.target):
            if owner == D.NARUTO and tech.key == "T2":
                n = 5 if st.pool[a.target] == 0 else 2  # Rasengan (A34)
            elif owner == D.KIBA and tech.key == "T2":
                n = 2 + 2 * st.cube[p]  # Tunneling Fang (A33)
            amounts[a.target] = n
    elif shape == D.SIDES:
        amounts = sides(st, p, n)
    elif shape == D.SPLIT:
        for s, k in a.allocation:
            if k > 0 and conscious(st, s):
                amounts[s] = k
    elif shape == D.ALL:
        for q in opponents(st, p):
            amounts[q] = n + (2 if owner == D.TENTEN and st.power[q] else 0)
    elif shape == D.FOURS:
        lft, rgt = left_of(st, p), right_of(st, p)
        if lft >= 0 and lft == rgt:
            amounts[lft] = 3
        else:
            main = a.target if conscious(st, a.target) else -1
            other = rgt if a.target == lft else lft
            if main >= 0:
                amounts[main] = 2
            if other >= 0 and other != main:
                amounts[other] = 1
    return amounts


def do_activate(st: ArenaState, p: int, a: Activate) -> None:
    """Place the dice on the technique, resolve its effect (§10), then blank the dice."""
    found = technique_amount(st, p, a)
    if found is None:  # cannot happen for a validated action: dice only change by p's own action
        return
    tech, n, owner = found
    st.events.append(("activate", p, a.technique, tech.name))
    amounts = planned_amounts(st, p, a, tech, n, owner)
    # Sand Prison: work out what leaves Gaara's tile and pool before anything arrives.
    from_shield = from_pool = 0
    if owner == D.GAARA and tech.key == "T2" and amounts:
        from_shield = min(a.from_shield, st.shield[p])
        from_pool = min(2 - from_shield, st.pool[p])
    bonus = bonus_now(st, p) if amounts else 0
    got = _deliver_batch(st, p, amounts, a.bonus_target, bonus)
    if got.get(a.target, False) and owner == D.GAARA and tech.key == "T2":
        st.shield[p] -= from_shield
        st.pool[p] = max(0, st.pool[p] - from_pool)
    if owner == D.SHIKAMARU:
        if tech.key == "T1" and not st.shadow_on:
            st.shadow_on = True
            st.events.append(("shadow_token", p))
        elif tech.key == "T2" and got.get(a.target, False):
            st.stitched[a.target] = st.t + st.stitch_span
            st.events.append(("stitched", a.target, st.stitched[a.target]))
    elif owner == D.SAKURA and tech.key == "T1":
        st.pool[p] = max(0, st.pool[p] - 2)
    elif owner == D.HINATA and tech.key == "T1":
        st.pool[p] = max(0, st.pool[p] - 1)
    elif owner == D.SASUKE and tech.key == "T2":
        deliver(st, p, p, 1, SELF)
    elif owner == D.TEMARI and tech.key == "T1":
        st.fan[p] = D.FAN_TOKENS
    base = 5 * p
    for i in a.dice:
        st.dice[base + i] = D.BLANK


def bonus_now(st: ArenaState, p: int) -> int:
    """The attack bonus p's active Power adds to a technique now (none from an empty pool or Gate, A12)."""
    ch = st.top[p]
    if not st.power[p] or ch not in D.ATTACK_BONUS:
        return 0
    if ch == D.NARUTO and st.pool[p] <= 0 or ch == D.ROCK_LEE and st.gate[p] <= 0:
        return 0
    return D.ATTACK_BONUS[ch]


def _deliver_batch(st: ArenaState, src: int, amounts: dict[int, int], bonus_target: int, bonus: int) -> dict[int, bool]:
    """One ATTACK: add the bonus to one recipient, then deliver once per recipient (seat order from the left)."""
    n = st.n
    order = sorted(amounts, key=lambda q: (q - src) % n)
    bt = -1
    if bonus and order:
        bt = bonus_target if bonus_target in amounts else order[0]
        amounts[bt] += bonus
    got: dict[int, bool] = {}
    for q in order:
        got[q] = deliver(st, src, q, amounts[q], ATTACK)
        if q == bt and got[q]:
            if st.top[src] == D.NARUTO:
                st.pool[src] = max(0, st.pool[src] - 1)  # Gamabunta's token comes from Naruto's pool
            elif st.top[src] == D.ROCK_LEE:
                st.gate[src] -= 1
    return got


# --- the Uzumaki (§4) ----------------------------------------------------------------------


def shadow_owner(st: ArenaState) -> int:
    """The seat playing Shikamaru (TOP or BOTTOM), or -1."""
    for p in range(st.n):
        if st.top[p] == D.SHIKAMARU or st.bottom[p] == D.SHIKAMARU:
            return p
    return -1


def _shadow(st: ArenaState, first: int) -> None:
    if st.shadow_on:
        if first != shadow_owner(st):
            deliver(st, -1, first, D.SHADOW_TOKENS, SHADOW)
        st.shadow_on = False
        st.events.append(("shadow_returns", first))


def _last_hitter(st: ArenaState, order: list[int]) -> None:
    if len(order) < 2:
        return
    last = order[-1]
    st.events.append(("last_hitter", last))
    if conscious(st, last):
        deliver(st, -1, last, D.LAST_HITTER_TOKENS, PENALTY)
    else:
        eliminate(st, last, defer=False)


def _reset(st: ArenaState) -> None:
    for i in range(len(st.dice)):
        st.dice[i] = D.BLANK
    for p in range(st.n):
        st.stitched[p] = 0


def power_pause(st: ArenaState, order: list[int]) -> None:
    """§4.2: Shadow token, last hitter, Damage Tally, Power flip, reset (+ Duel SWITCH/KEEP)."""
    trigger = order[0]
    st.events.append(("pause", "power", trigger, tuple(order)))
    _shadow(st, trigger)
    _last_hitter(st, order)
    if end_check(st):
        return
    for p in range(st.n):
        if p != trigger and conscious(st, p):
            tally(st, p, defer=True)
    if end_check(st):
        return
    for k in range(1, st.n):
        q = (trigger + k) % st.n
        if st.power[q]:
            lose_power(st, q)
    gain_power(st, trigger)
    _reset(st)
    if st.duel and not st.over:
        st.pending_switch = 1 - trigger


def recovery_pause(st: ArenaState, order: list[int]) -> None:
    """§4.3: Shadow token (nobody takes it), last hitter, RECOVER, reset."""
    claimant = order[0]
    st.events.append(("pause", "recovery", claimant, tuple(order)))
    _shadow(st, claimant)
    _last_hitter(st, order)
    if end_check(st):
        return
    recover(st, claimant)
    _reset(st)


def mistaken_hits(st: ArenaState, hitters: list[int], was_ko: int) -> None:
    """Hits with no claim that tick: a wound each (`was_ko`: the bit set of seats KO'd when the tick
    began); the first hitter sets off the Shadow token."""
    for p in hitters:
        mistake(st, p, bool(was_ko >> p & 1))
    if st.shadow_on and hitters:
        first = hitters[0]
        if first != shadow_owner(st):
            deliver(st, -1, first, D.SHADOW_TOKENS, SHADOW)
        st.shadow_on = False
        st.events.append(("shadow_returns", first))


def switch_boards(st: ArenaState, p: int) -> None:
    """Duel SWITCH: swap TOP and BOTTOM (each keeps its cube); the new TOP's tile is inactive."""
    st.top[p], st.bottom[p] = st.bottom[p], st.top[p]
    st.cube[p], st.cube_b[p] = st.cube_b[p], st.cube[p]
    st.power[p] = False
    st.gate[p] = st.byakugan[p] = st.shield[p] = 0
    st.events.append(("switch", p))


# --- end (§7) ------------------------------------------------------------------------------


def end_check(st: ArenaState) -> bool:
    """End the game once at most one player is conscious."""
    if st.over:
        return True
    eliminated, ko = st.eliminated, st.ko
    awake = 0
    for p in range(st.n):
        if not eliminated[p] and not ko[p]:
            awake += 1
    if awake > 1:
        return False
    alive = [p for p in range(st.n) if conscious(st, p)]
    st.over = True
    st.reason = "elimination"
    for p in range(st.n):
        if p not in alive:
            st.power[p] = False  # a Power flip deferred to pause step 3 that never came
    st.events.append(("game_over", tuple(alive)))
    return True


def cap_end(st: ArenaState) -> None:
    """Tick / wall-clock cap: a final Damage Tally for every conscious player, then rank (§5.6)."""
    for p in range(st.n):
        if conscious(st, p):
            tally(st, p, defer=True)
    st.over = True
    st.reason = "cap"
    st.events.append(("game_over_cap",))


def remaining_steps(st: ArenaState, p: int) -> int:
    """Wound steps left (both boards in a Duel); 0 once out."""
    if not conscious(st, p):
        return 0
    left = D.K_SPACES - st.cube[p]
    if st.duel:
        left += D.K_SPACES - st.cube_b[p]
    return left


def ranking(st: ArenaState) -> tuple[tuple[int, ...], ...]:
    """§7.1/7.2: conscious first (by steps left at the cap), then the rest by out_time, latest first."""
    tiers: list[tuple[int, ...]] = []
    alive = [p for p in range(st.n) if conscious(st, p)]
    for key in sorted({remaining_steps(st, p) for p in alive}, reverse=True):
        tiers.append(tuple(p for p in alive if remaining_steps(st, p) == key))
    out = [p for p in range(st.n) if not conscious(st, p)]
    for key in sorted({st.out_time[p] for p in out}, reverse=True):
        tiers.append(tuple(p for p in out if st.out_time[p] == key))
    return tuple(tiers)


# --- one tick (§5.2) -----------------------------------------------------------------------


def resolve_tick(st: ArenaState, actions: Mapping[int, Action]) -> None:
    """Resolve tick st.t with one submission per live seat (missing = WAIT), then advance t."""
    st.events = []
    n = st.n
    eliminated, ko = st.eliminated, st.ko
    live = st.live
    # Seats as bits rather than sets and lists: a tick of rolls then builds no container of its own
    # beyond the events (each one is garbage the collector counts, and it runs every ~700 of them).
    was_ko = 0
    for p in live:
        if ko[p]:
            was_ko |= 1 << p
    # A. validate and classify: each live seat's action (a Mistake becomes WAIT) and its HIT claim
    bad = hits = 0
    chosen: dict[int, Action] = actions if isinstance(actions, dict) else dict(actions)  # dict.get is direct
    for p in live:
        a = chosen.get(p, _WAIT)
        if not valid(st, p, a):
            bad |= 1 << p
        elif type(a) is not _ROLL and isinstance(a, _HIT):  # a roll (most actions) skips the subclass walk
            hits |= 1 << p
    # HIT claims are read before anything moves (rolls change the dice): -1 no HIT, else the claim.
    claims: list[int] = []
    if hits:
        claims = [claim_kind(st, p) if hits >> p & 1 else -1 for p in range(n)]
    # B. the priority order of this tick
    pi = st.chance.shuffled("tiebreak", live)
    # C. Mistakes
    if bad:
        for p in pi:
            if bad >> p & 1:
                mistake(st, p, bool(was_ko >> p & 1))
        if end_check(st):
            st.t += 1
            return
    # D. rolls and techniques (a Mistake or a HIT does nothing here)
    skip = bad | hits
    for p in pi:
        if skip >> p & 1:
            continue
        a = chosen.get(p, _WAIT)
        if isinstance(a, _ROLL):
            do_roll(st, p, a)
        elif isinstance(a, _ACTIVATE):
            do_activate(st, p, a)
    # E. the Uzumaki
    if hits:
        hitters = [p for p in pi if claims[p] >= 0]
        trigger = next((p for p in hitters if claims[p]), -1)
        if trigger < 0:
            mistaken_hits(st, hitters, was_ko)
        else:
            rest = [p for p in range(n) if not eliminated[p] and claims[p] < 0]
            rho = st.chance.shuffled("tiebreak", rest) if rest else []
            order = [trigger] + [p for p in hitters if p != trigger] + rho
            if claims[trigger] == CLAIM_POWER:
                power_pause(st, order)
            else:
                recovery_pause(st, order)
    # F. end check, cap
    if not end_check(st) and st.t >= st.tick_cap:
        cap_end(st)
    st.t += 1


# --- legal actions (§5.1, kept small) ------------------------------------------------------

_WAIT_HIT: Final[tuple[Action, ...]] = (WAIT, HIT)
_WAIT_HIT_ROLLS: Final[tuple[Action, ...]] = (WAIT, HIT, *ROLLS)


def _offered(top: int, bottom: int) -> tuple[tuple[str, D.Technique, int, int], ...]:
    """(action key, technique, owner character, a small code naming the key and the technique)
    of a seat playing top (and, in a Duel, bottom)."""
    out = [(t.key, t, top, 4 * (3 * top + i) + i) for i, t in enumerate(D.CHARACTERS[top].techniques)]
    if bottom >= 0:
        out.append(("B1", D.CHARACTERS[bottom].techniques[0], bottom, 4 * 3 * bottom + 3))
    return tuple(out)


# What each board (and Duel pair of boards) offers, by [top][bottom + 1]: legal_actions, validation
# and the bots ask for it several times a tick.
_OFFERED: Final = [[_offered(top, bottom) for bottom in range(-1, len(D.CHARACTERS))]
                   for top in range(len(D.CHARACTERS))]
# Beside each offer, each variant's requirement as (room_of, length) for matching.fill_bits.
_ROOMS: Final = [[tuple(tuple((room_of(req), len(req)) for req, _ in tech.variants) for _, tech, _, _ in offer)
                  for offer in row] for row in _OFFERED]

# Each seat's conscious opponents from its left, by [table size][seat][bit set of those seats].
_OPPONENTS: Final = [
    [[tuple(q for q in around if mask >> q & 1) for mask in range(1 << n)] for around in _AROUND[n]]
    if n in _AROUND else [] for n in range(max(_AROUND) + 1)
]  # a list by table size: compiled, indexing it is cheaper than a dict lookup


def techniques(st: ArenaState, p: int) -> tuple[tuple[str, D.Technique, int, int], ...]:
    """(action key, technique, owner character, code) available to p: TOP's T1/T2/T3, Duel B1."""
    return _OFFERED[st.top[p]][st.bottom[p] + 1]


def legal_actions(st: ArenaState, p: int) -> tuple[Action, ...]:
    """WAIT, HIT, the ROLL subsets, then each satisfiable technique with one canonical dice
    choice per distinct effect and each valid target / allocation.

    The ROLL part and each technique's activations are shared tuples, the latter cached on a small
    int (the technique, its variant, the dice, the opponents, the bonus and the Sand Shield): only
    the canonical dice are worked out per call, in one pass over the five dice."""
    # Each of the seat's fields read once into a local: compiled, every `st.x[p]` is a list read
    # with its checks, and this runs once per seat per tick.
    n = st.n
    eliminated, ko = st.eliminated, st.ko
    seen = 0
    for q in range(n):
        if q != p and not eliminated[q] and not ko[q]:
            seen |= 1 << q
    opps = _OPPONENTS[n][p][seen]
    top, power, down = st.top[p], st.power[p], ko[p]
    if st.t <= st.stitched[p]:
        head, kind = _WAIT_HIT, 0
    elif power and top == D.SHIKAMARU and not down:
        head, kind = _stream_rolls(opps), 1  # which stream rolls: the opponents, in every ask below
    else:
        head, kind = _WAIT_HIT_ROLLS, 2
    if down or not opps:
        return head
    blade = power and top == D.TEMARI
    m = masks(st, p) if blade else ()
    has_bonus = power and bonus_now(st, p) > 0  # no Power, no bonus: skip the table lookup
    kiba = power and top == D.KIBA  # `akamaru` for each of Kiba's own techniques
    shield = st.shield[p]
    if shield > 2:
        shield = 2
    column = st.bottom[p] + 1
    offer = _OFFERED[top][column]
    rooms = _ROOMS[top][column]
    dice, base = st.dice, 5 * p
    # The low digits of every ask (see below): the opponents, the seat, the table size and the bonus.
    tail = ((seen * 8 + p) * 8 + n) * 8 + has_bonus * 3
    first = -1
    more: list[int] | None = None
    for k in range(len(offer)):
        key, tech, owner, code = offer[k]
        aka = kiba and owner == D.KIBA
        shields = shield if owner == D.GAARA and key == "T2" else 0
        variants = rooms[k]
        for v in range(len(variants)):
            room, size = variants[v]
            bits = _variant_bits(dice, base, m, blade, aka, tech.variants[v][0], room, size)
            if not bits:
                continue
            # Everything the activations depend on, in one int (`_activations` reads it back):
            # (((((code * 4 + v) * 32 + bits) * 64 + seen) * 8 + p) * 8 + n) * 8 + has_bonus * 3 + shields.
            ask = ((code * 4 + v) * 32 + bits) * 32768 + tail + shields
            if first < 0:
                first = ask  # the common case, one technique: no list
            elif more is None:
                more = [first, ask]
            else:
                more.append(ask)
    if first < 0:
        return head
    return _joined(head, kind, first, more)


def _variant_bits(dice: list[int], base: int, m: tuple[int, ...], blade: bool, aka: bool, req: tuple[int, ...],
                  room: int, size: int) -> int:
    """The canonical dice (a bit set) of the seat's dice at `base` for one variant of a technique, whose
    requirement is `req` (`room`, `size` as `_ROOMS` packs it): with one slot left empty first under
    Akamaru (`aka`), searched on the masks `m` under Blade Dance; 0 when no dice satisfy it."""
    if blade:
        found = canonical(m, req, size - 1) if aka else None
        if found is None:
            found = canonical(m, req, size)
        return 0 if found is None else _DICE_BITS[found]
    bits = fill_bits(dice, base, room, size - 1) if aka else 0
    return bits if bits else fill_bits(dice, base, room, size)


def satisfiable(st: ArenaState, p: int) -> list[str]:
    """The keys (sorted) of the techniques p's legal list activates now, worked out from the dice
    without building the list: the techniques with dice that satisfy a variant, while p is conscious,
    has a conscious opponent and is not waiting on a Duel decision (exactly when `legal_actions` lists
    a technique: each satisfiable one has at least one activation)."""
    if st.over or st.pending_switch >= 0 or st.eliminated[p] or st.ko[p]:
        return []
    n = st.n
    eliminated, ko = st.eliminated, st.ko
    for q in range(n):
        if q != p and not eliminated[q] and not ko[q]:
            break
    else:
        return []
    top, power = st.top[p], st.power[p]
    blade = power and top == D.TEMARI
    m = masks(st, p) if blade else ()
    kiba = power and top == D.KIBA
    column = st.bottom[p] + 1
    offer = _OFFERED[top][column]
    rooms = _ROOMS[top][column]
    dice, base = st.dice, 5 * p
    found = 0
    for k in range(len(offer)):
        req_of = offer[k][1].variants
        aka = kiba and offer[k][2] == D.KIBA
        variants = rooms[k]
        for v in range(len(variants)):
            room, size = variants[v]
            if _variant_bits(dice, base, m, blade, aka, req_of[v][0], room, size):
                found |= 1 << k
                break
    return list(_KEYS_SATISFIED[top][column][found])


# The sorted keys of each set of an offer's techniques (a bit per place in the offer), by [top][bottom + 1].
_KEYS_SATISFIED: Final = [[tuple(tuple(sorted(offer[k][0] for k in range(len(offer)) if found >> k & 1))
                                 for found in range(1 << len(offer))) for offer in row] for row in _OFFERED]


# Whole legal lists with activations, by their head and their activations' keys: one lookup
# instead of copying ~35 shared actions into a new tuple on every call. One key (the common case)
# packs into an int with its head's kind; several make a tuple.
_JOINED: Final[dict[int, tuple[Action, ...]]] = {}
_JOINED_MANY: Final[dict[tuple[int, ...], tuple[Action, ...]]] = {}


def _joined(head: tuple[Action, ...], kind: int, first: int, more: list[int] | None) -> tuple[Action, ...]:
    """head (of `kind`) followed by the activations of ask `first` alone or, when several techniques
    are satisfiable, of each ask in `more`; remembered (and forgotten past a bound)."""
    if more is None:
        key = first * 4 + kind
        got = _JOINED.get(key)
        if got is None:
            if len(_JOINED) >= 200_000:
                _JOINED.clear()
            got = _JOINED[key] = head + _activations(first)
        return got
    many = (kind, *more)
    got = _JOINED_MANY.get(many)
    if got is None:
        if len(_JOINED_MANY) >= 200_000:
            _JOINED_MANY.clear()
        out = list(head)
        for ask in more:
            out.extend(_activations(ask))
        got = _JOINED_MANY[many] = tuple(out)
    return got


# The activations of one technique, variant and dice choice for one seat's opponents: a few
# thousand keys in a long run of random play, each met again and again.
_ACTIVATIONS: Final[dict[int, tuple[Activate, ...]]] = {}
# Each technique by the code `_offered` gives it.
_TECHNIQUE_OF_CODE: Final = {code: (key, tech) for row in _OFFERED for offer in row for key, tech, _, code in offer}


def _activations(ask: int) -> tuple[Activate, ...]:
    """The activations named by an ask of `legal_actions` (technique code, variant, dice bits, conscious
    opponents, seat, table size, bonus and Sand Shield), worked out the first time and remembered. Only a
    legal list not met before asks: a list met before is one `_joined` lookup."""
    got = _ACTIVATIONS.get(ask)
    if got is None:
        if len(_ACTIVATIONS) >= 100_000:  # a bound on memory
            _ACTIVATIONS.clear()
        last, rest = ask % 8, ask // 8
        n, rest = rest % 8, rest // 8
        p, rest = rest % 8, rest // 8
        seen, rest = rest % 64, rest // 64
        bits, rest = rest % 32, rest // 32
        key, tech = _TECHNIQUE_OF_CODE[rest // 4]
        opps = _OPPONENTS[n][p][seen]
        got = _ACTIVATIONS[ask] = _technique_actions(key, tech, tech.variants[rest % 4][1], DICE_OF_BITS[bits],
                                                     opps, opps[0], opps[-1], last >= 3, last % 3)
    return got
_DICE_BITS: Final = {dice: sum(1 << i for i in dice) for dice in ROLL_SUBSETS}


_STREAM_HEADS: Final[dict[tuple[int, ...], tuple[Action, ...]]] = {}


def _stream_rolls(opps: tuple[int, ...]) -> tuple[Action, ...]:
    """WAIT, HIT, the ROLLs, then the rolls with the black die aimed by Stream His Chakra at each
    opponent but the default (left) one."""
    got = _STREAM_HEADS.get(opps)
    if got is None:
        out: list[Action] = list(_WAIT_HIT_ROLLS)
        lft = opps[0] if opps else -1
        for r in ROLLS:
            if 0 in r.dice:
                out.extend(Roll(r.dice, q) for q in opps if q != lft)
        got = _STREAM_HEADS[opps] = tuple(out)
    return got


def _technique_actions(
    key: str, tech: D.Technique, n: int, dice: tuple[int, ...], opps: tuple[int, ...],
    lft: int, rgt: int, has_bonus: bool, shields: int,
) -> tuple[Activate, ...]:
    """One technique's legal activations: each valid target / allocation (and bonus recipient)."""
    out: list[Activate] = []
    shape = tech.shape
    if shape == D.ONE:
        for q in opps:
            for fs in range(shields + 1):
                out.append(Activate(key, dice, target=q, from_shield=fs))
    elif shape == D.NEIGHBOUR:
        for q in (lft,) if lft == rgt else (lft, rgt):
            out.append(Activate(key, dice, target=q))
    elif shape == D.FOURS:
        for q in (lft,) if lft == rgt else (lft, rgt):
            if has_bonus and lft != rgt:
                out.extend(Activate(key, dice, target=q, bonus_target=b) for b in (lft, rgt))
            else:
                out.append(Activate(key, dice, target=q))
    elif shape in (D.SIDES, D.ALL):
        rec = ((lft,) if lft == rgt else (lft, rgt)) if shape == D.SIDES else opps
        if has_bonus and len(rec) > 1:
            out.extend(Activate(key, dice, bonus_target=b) for b in rec)
        else:
            out.append(Activate(key, dice))
    else:  # SPLIT: every allocation, the bonus to its default recipient
        for alloc in splits(n, tuple(sorted(opps)), tech.split_min):
            out.append(Activate(key, dice, allocation=alloc))
    return tuple(out)


_SPLITS: Final[dict[tuple[int, tuple[int, ...], int], list[tuple[tuple[int, int], ...]]]] = {}


def splits(n: int, seats: tuple[int, ...], minimum: int) -> list[tuple[tuple[int, int], ...]]:
    """Every allocation of n tokens over seats (ascending), zero shares left out; with a
    minimum >= 1 every seat gets at least it (when there are more seats than tokens, exactly
    n of them get one each)."""
    key = (n, seats, minimum)
    got = _SPLITS.get(key)
    if got is not None:
        return got
    out: list[tuple[tuple[int, int], ...]] = []

    def rec(i: int, left: int, acc: tuple[tuple[int, int], ...]) -> None:
        if i == len(seats):
            if left == 0:
                out.append(acc)
            return
        lo = minimum if minimum >= 1 and len(seats) <= n else 0
        for k in range(lo, left + 1):
            rec(i + 1, left - k, acc + (((seats[i], k),) if k else ()))

    rec(0, n, ())
    _SPLITS[key] = out
    return out
