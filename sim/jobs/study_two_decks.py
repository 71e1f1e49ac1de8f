"""Two-deck twin of the one-deck study kernel in sim/jobs/study.py.

The two-deck study (两副牌): per studied card, each copy holder plays the arms
x (expose one copy), n (none) and x2 (both copies) on the same deal — the kernel
:func:`study_range2` and its Parquet columns.  sim/jobs/study.py documents the columns
and re-exports these names; :func:`sim.jobs.study.play_study` calls them for
``Rules(decks=2)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from sim.core.bits import ZERO, bit, keep_alive, unmanaged
from sim.core.kernel_cache import note_if_cold
from sim.core.rng import STREAM_EXPOSE, deal_key, sub_stream
from sim.engine.deal_two_decks import shuffle_deal2
from sim.engine.forced import force_seat
from sim.engine.request import DealOutputs2, KernelTable, error_slots, kernel_table
from sim.engine.two_decks import MAX_PLAYS as MAX_PLAYS2
from sim.engine.two_decks import MAX_TRICKS as MAX_TRICKS2
from sim.engine.two_decks import Scratch2, play_one2
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE
from sim.game.observation_two_decks import Q_SIZE
from sim.jobs.config import STUDY_CARDS
from strategies.dispatch import choose_exposure2

if TYPE_CHECKING:  # pragma: no cover

    pass

#: The two arms, in row order: x = the holder exposes the card, n = it does not.
ARMS2 = ("x", "n", "x2")
#: exposable cards in flag order
_EXPOSABLE = np.array(EXPOSABLE, dtype=np.int64)


@njit(cache=True, nogil=True)
def study_range2(seed, start, n, cards, holder_policy, table, given, hands_in, out, holder_out):
    """Two decks: play deals ``start … start+n−1``, per studied card and copy holder in the
    arms x (expose one copy), n (none) and x2 (both copies; docs/engine2.md).

    ``cards``: int64 flag indices (0 pig … 3 ♥A).  Per deal ``d`` and card ``k`` there
    are two holder slots ``s``: one seat dealt both copies (slot 0; slot 1 empty,
    ``holder_out = -1``) or the two seats dealt one copy each, lower seat first.  Row
    ``((d·K + k)·2 + s)·3 + arm`` of the (6·K·n, 4) outputs holds that slot's arm 0 (x),
    1 (n) or 2 (x2); ``holder_out[(d·K + k)·2 + s]`` is its seat.  A holder of one copy
    has no arm x2 of its own: its x2 row is a copy of its x row (exposing "both"
    exposes the one copy held).  The holder's exposure policy is replaced by ``fixed``
    flags (:func:`sim.engine.forced.force_seat`) — the studied card's copies of the arm,
    plus with ``holder_policy`` the holder's configured choice for its other cards;
    every other seat (the other copy's holder included) exposes by its policy.
    ``table``: the seats (:class:`~sim.engine.request.KernelTable`); ``out``: the
    output arrays (:class:`~sim.engine.request.DealOutputs2`; plays are not recorded).
    ``given``: play the hands ``hands_in`` (n, 4, 2) ``(has_one, has_two)`` instead of
    dealing.
    """
    pids, pparams = table.pids, table.pparams
    k_cards = cards.shape[0]
    st = np.zeros(40, dtype=np.uint64)  # per-seat state: h1 h2 x1 x2 t1 t2 rngs d1 d2
    obs_owner = np.zeros(Q_SIZE, dtype=np.uint64)
    deck_owner = np.zeros(104, dtype=np.int64)
    exp_owner = np.zeros(4, dtype=np.int64)
    rules_owner = table.rules.copy()
    sp_owner = table.sparams.copy()
    pp_owner = pparams.copy()
    sids_owner = table.sids.copy()
    pid_owner = pids.copy()
    v = unmanaged(st)
    d1 = v[28:32]
    d2 = v[32:36]
    deck = unmanaged(deck_owner)
    scratch = Scratch2(v[0:4], v[4:8], v[8:12], v[12:16], v[16:20], v[20:24], v[24:28],
                       unmanaged(obs_owner), deck, unmanaged(exp_owner))
    pp = unmanaged(pp_owner)
    pid_arm = unmanaged(pid_owner)
    arm_table = KernelTable(unmanaged(rules_owner), unmanaged(sids_owner), unmanaged(sp_owner),
                            pid_arm, pp, table.plays)
    hands_out = unmanaged(out.hands)
    hands2_out = unmanaged(out.hands2)
    exposed_out = unmanaged(out.exposed)
    leader_out = unmanaged(out.leader)
    collected_out = unmanaged(out.collected)
    collected2_out = unmanaged(out.collected2)
    raw_out = unmanaged(out.raw)
    out = DealOutputs2(hands_out, hands2_out, exposed_out, leader_out, collected_out,
                       collected2_out, raw_out, unmanaged(out.plays), unmanaged(out.plays2),
                       unmanaged(out.winners), unmanaged(out.errors))
    exposable = _EXPOSABLE  # flag order
    useed = np.uint64(seed)
    for d in range(n):
        i = start + d
        key = deal_key(useed, np.uint64(i))
        if given:
            for p in range(4):
                d1[p] = hands_in[d, p, 0]
                d2[p] = hands_in[d, p, 1]
        else:
            shuffle_deal2(key, deck, d1, d2)
        for k in range(k_cards):
            b = cards[k]
            flag = ef.flag(b)
            both = flag | ef.second_flag(b)
            cb = bit(exposable[b])
            slot = 0
            for p in range(4):
                if (d1[p] & cb) and slot < 2:
                    holder_out[(d * k_cards + k) * 2 + slot] = p
                    slot += 1
                    if d2[p] & cb:
                        break
            if slot < 2:
                holder_out[(d * k_cards + k) * 2 + 1] = -1
            for s in range(slot):
                h = holder_out[(d * k_cards + k) * 2 + s]
                two = (d2[h] & cb) != ZERO
                base = 0
                if holder_policy:
                    rng = sub_stream(key, np.uint64(STREAM_EXPOSE + h))
                    base, rng = choose_exposure2(pids[h], pparams, d1[h], d2[h], h, np.int64(0),
                                                 rng)
                    base &= ~both
                row0 = ((d * k_cards + k) * 2 + s) * 3
                for arm in range(3):
                    row = row0 + arm
                    if arm == 2 and not two:  # one copy held: "both" is the one copy
                        for p in range(4):
                            hands_out[row, p] = hands_out[row0, p]
                            hands2_out[row, p] = hands2_out[row0, p]
                            exposed_out[row, p] = exposed_out[row0, p]
                            collected_out[row, p] = collected_out[row0, p]
                            collected2_out[row, p] = collected2_out[row0, p]
                            raw_out[row, p] = raw_out[row0, p]
                        leader_out[row] = leader_out[row0]
                        continue
                    f = base | (flag if arm == 0 else (both if arm == 2 else 0))
                    force_seat(pid_arm, pp, h, f)  # sim/engine/forced.py
                    for p in range(4):
                        hands_out[row, p] = d1[p]
                        hands2_out[row, p] = d2[p]
                    play_one2(useed, i, True, 0, row, arm_table, scratch, out, False, True,
                              False)
                pid_arm[h] = pids[h]
                pp[h, 0] = pparams[h, 0]
    # the owners of the unmanaged views must live until here
    keep_alive(st, obs_owner, deck_owner, exp_owner, rules_owner, sp_owner, pp_owner,
               sids_owner, pid_owner)


def play_study2(rules, p, e, idx, seed, start, n, hands, holder_others):
    """Two decks: :func:`play_study` after its checks (``p``/``e``: four Choices)."""
    k = len(idx)
    slots = 2 * k * n
    rows = 3 * slots
    out = DealOutputs2(  # plays are not recorded; kernel errors cannot occur (no check_legal)
        hands=np.zeros((rows, 4), np.uint64), hands2=np.zeros((rows, 4), np.uint64),
        exposed=np.zeros((rows, 4), np.uint8), leader=np.zeros(rows, np.int8),
        collected=np.zeros((rows, 4), np.uint64), collected2=np.zeros((rows, 4), np.uint64),
        raw=np.zeros((rows, 4), np.int32), plays=np.zeros((0, MAX_PLAYS2), np.int8),
        plays2=np.zeros((0, MAX_PLAYS2), np.int8), winners=np.zeros((0, MAX_TRICKS2), np.int8),
        errors=error_slots(rows, max(rows, 1)))
    holder = np.full(slots, -1, np.int8)
    given = hands is not None
    hands_in = (np.ascontiguousarray(np.asarray(hands, dtype=np.uint64).reshape(n, 4, 2))
                if given else np.zeros((0, 4, 2), np.uint64))
    call = (np.uint64(int(seed) & ((1 << 64) - 1)), start, n, np.array(idx, np.int64),
            holder_others == "policy", kernel_table(rules, p, e), given, hands_in, out, holder)
    note_if_cold(study_range2, args=call, decks=2)
    study_range2(*call)
    return study_columns2(rules, idx, start, n, holder, out)


def exposed_total2(flags: np.ndarray) -> np.ndarray:
    """The copies exposed by all seats together, per row, in the 8-bit two-deck encoding.

    ``flags``: (m, 4) uint8 per-seat flags (bit ``b`` one copy of exposable card ``b``,
    bit ``b + 4`` the second copy too; docs/engine2.md step 3).  Returns (m,) uint8: bit
    ``b`` when at least one copy of card ``b`` is exposed, bit ``b + 4`` when both are
    (the ``announced`` encoding of sequential exposure).
    """
    f = np.asarray(flags, dtype=np.uint8).astype(np.int64)
    out = np.zeros(f.shape[0], np.int64)
    for b in range(4):
        cnt = ef.copies(f, b).sum(axis=1)
        out |= np.where(cnt >= 1, ef.flag(b), 0) | np.where(cnt >= 2, ef.second_flag(b), 0)
    return out.astype(np.uint8)


def study_columns2(rules, idx, start, n, holder, out):
    """The columns of a two-deck study (sim/jobs/study.py, table "Two decks") from the
    kernel's outputs ``out`` (:class:`~sim.engine.request.DealOutputs2`)."""
    from sim.game.scoring import points, team_points, yuanbao, zero_sum

    hands_out, hands2_out, exposed, leader = out.hands, out.hands2, out.exposed, out.leader
    collected, collected2, raw = out.collected, out.collected2, out.raw

    k = len(idx)
    keep = holder >= 0  # (2·k·n,) slots in deal, card, seat order
    m = int(keep.sum())
    sl = np.flatnonzero(keep)
    h = holder[sl].astype(np.int64)
    rows = np.arange(m)

    def arm3(a):  # (slots·3, 4) → (m, 3, 4) for the kept slots
        return a.reshape(-1, 3, a.shape[1])[sl]

    hands3, hands23 = arm3(hands_out), arm3(hands2_out)
    raw3, exp3 = arm3(raw), arm3(exposed)
    col3, col23 = arm3(collected), arm3(collected2)
    hand = np.ascontiguousarray(hands3[rows, 0, h])
    hand2 = np.ascontiguousarray(hands23[rows, 0, h])
    card_idx = np.tile(np.repeat(np.array(idx, np.int64), 2), n)[sl]
    cbits = np.array(EXPOSABLE, np.uint64)[card_idx]
    names = np.array(STUDY_CARDS)
    cols: dict[str, np.ndarray] = {
        "deal": np.repeat(np.arange(start, start + n, dtype=np.int64), 2 * k)[sl],
        "card": names[card_idx],
        "holder": holder[sl].copy(),
        "copies": (1 + ((hand2 >> cbits) & np.uint64(1))).astype(np.int8),
        "first_leader": leader.reshape(-1, 3)[sl, 0].copy(),
        "hand": hand,
        "hand2": hand2,
    }
    for a, arm in enumerate(ARMS2):
        cols[f"exposed_{arm}"] = exposed_total2(exp3[:, a, :])
    for a, arm in enumerate(ARMS2):
        cols[f"collected_{arm}"] = np.ascontiguousarray(col3[rows, a, h])
        cols[f"collected2_{arm}"] = np.ascontiguousarray(col23[rows, a, h])
    for a, arm in enumerate(ARMS2):
        for s in range(4):
            cols[f"raw_{arm}_{s}"] = np.ascontiguousarray(raw3[:, a, s])
    rx, rn, r2 = raw3[:, 0, :], raw3[:, 1, :], raw3[:, 2, :]
    for pre, ra in (("d", rx), ("d2", r2)):
        def delta(f, dtype, ra=ra):
            return (f(ra)[rows, h] - f(rn)[rows, h]).astype(dtype)

        cols[f"{pre}_raw"] = (ra[rows, h].astype(np.int64) - rn[rows, h]).astype(np.int32)
        cols[f"{pre}_zero_sum"] = delta(zero_sum, np.float64)
        cols[f"{pre}_points"] = delta(lambda r: points(r, rules).astype(np.int64), np.int32)
        if rules.has_teams:
            cols[f"{pre}_team_points"] = delta(
                lambda r: team_points(r, rules).astype(np.int64), np.int32)
        cols[f"{pre}_yuanbao"] = delta(lambda r: yuanbao(r, rules), np.float64)
    return cols
