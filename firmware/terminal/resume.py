# The challenge terminal's part of the game state record (store/state.py), so
# that a power cut at any moment of a challenge comes back to where it was: the
# step (word count, typing, the opponent's confirmation, the check, the
# referee's decision, the verdict on screen), the challenger and the words typed
# so far, as tile numbers of the list in use (with the list's identity, so that
# numbers of another list are never read as words).  A letter still cycling on
# its key is saved as typed.
#
# Loaded only while a challenge or the referee holds the terminal
# (flow.MODE_MODULES), and at start-up when a challenge was saved.

import struct
from binascii import crc32

from terminal import flow as F

VERSION = 1
# version, state, challenger, count, current word, wait reason, flags,
# penalty points, runs, count declared without a list, crc of the list's id,
# then the 8 word lengths and the tiles of the words one after the other
_HEAD = "<BBbBBBBHbBI8s"
HEAD_SIZE = struct.calcsize(_HEAD)
WAIT_REASONS = ("", "referee_decides", "no_list", "bad_list")
MAX_WORDS = 8
MAX_TILES = 16

_VERDICT = 1
_ACCEPTABLE = 2
_BY_REFEREE = 4
_LOST_TURN = 8
_WITHDRAWN = 16
_GAME_OVER = 32

# the steps that come back as they were (with the engine still challenging)
CHALLENGE_STEPS = (F.COUNT, F.ENTRY, F.CONFIRM, F.READY, F.REFEREE_WAIT)


def _list_crc(flow):
    return crc32(flow.list_id().encode()) & 0xFFFFFFFF


def encode(flow, state):
    """The bytes for step `state` (what the flow comes back to, see
    ChallengeFlow.saved_state)."""
    entry = flow.entry
    count = current = 0
    lengths = bytearray(MAX_WORDS)
    tiles = bytearray()
    if entry is not None and entry.count:
        count = entry.count
        current = entry.current
        pending = entry.pending_tile()
        for i in range(count):
            n = entry.lengths[i]
            tiles.extend(memoryview(entry.words[i])[:n])
            if i == current and pending >= 0 and n < MAX_TILES:
                tiles.append(pending)
                n += 1
            lengths[i] = n
    flags = 0
    penalty = 0
    runs = -1
    if state == F.VERDICT and flow.verdict is not None:
        flags = _VERDICT | (_ACCEPTABLE if flow.verdict else 0)
        if flow.verdict_by == "referee":
            flags |= _BY_REFEREE
        outcome = flow.outcome
        if outcome is not None:
            penalty = outcome.penalty_points
            runs = outcome.runs
            flags |= ((_LOST_TURN if outcome.lost_turn else 0)
                      | (_WITHDRAWN if outcome.withdrawn else 0)
                      | (_GAME_OVER if outcome.game_over else 0))
    reason = WAIT_REASONS.index(flow.wait_reason) if flow.wait_reason in WAIT_REASONS else 0
    return struct.pack(_HEAD, VERSION, state, flow.challenger, count, current, reason, flags,
                       penalty, runs, flow.count_without_list, _list_crc(flow),
                       bytes(lengths)) + tiles


def _decode(data):
    if len(data) < HEAD_SIZE:
        return None
    v = struct.unpack_from(_HEAD, data)
    if v[0] != VERSION or v[3] > MAX_WORDS or v[4] >= MAX_WORDS or v[5] >= len(WAIT_REASONS):
        return None
    lengths = v[11]
    total = 0
    for n in lengths:
        if n > MAX_TILES:
            return None
        total += n
    if HEAD_SIZE + total != len(data):
        return None
    return v


def restore(flow, data, t):
    """Put the flow back where `data` (possibly empty or damaged) left it, as far as
    the engine agrees: a challenge the engine still has comes back at its step (or
    at the word count, when the words cannot be read back), a verdict the engine
    has applied comes back on screen; anything else is the neutral screen."""
    engine = flow.engine
    v = _decode(data) if data else None
    state = v[1] if v is not None else F.NEUTRAL
    if engine.challenging:
        flow.challenger = engine.challenge_by()
        if state not in CHALLENGE_STEPS:
            state = F.COUNT         # a challenge without its step: the count again
        flow._load_entry()
        count, words_ok = _words(flow, v, data)
        if state != F.COUNT and not count:
            state = F.COUNT
        elif state in (F.ENTRY, F.CONFIRM, F.READY) and not words_ok:
            if flow.lexicon is None:
                # typed words but the list is gone now: the referee decides
                flow.count_without_list = count
                flow.wait_reason = "bad_list" if flow.problem == "damaged" else "no_list"
                state = F.REFEREE_WAIT
            else:
                state = F.COUNT     # another list: the words must be typed again
        elif state == F.REFEREE_WAIT:
            flow.wait_reason = WAIT_REASONS[v[5]] or "referee_decides"
            flow.count_without_list = v[9] or count     # what the verdict counts
        if state == F.COUNT and flow.entry is not None:
            flow.entry.wipe()
        flow.page = 0
        flow._go(t, state)
        return state
    if state == F.VERDICT and v[6] & _VERDICT:
        from clock.engine import Outcome

        flags = v[6]
        flow.challenger = v[2]
        flow.verdict = bool(flags & _ACCEPTABLE)
        flow.verdict_by = "referee" if flags & _BY_REFEREE else "list"
        flow.outcome = Outcome(bool(flags & _WITHDRAWN), v[2] if v[7] else -1, v[7],
                               bool(flags & _LOST_TURN), v[8], bool(flags & _GAME_OVER))
        flow._go(t, F.VERDICT)
        flow.guard_t = t
        return F.VERDICT
    return F.NEUTRAL


def _words(flow, v, data):
    """(declared count, whether the saved words were put back into the entry)."""
    if v is None:
        return 0, False
    count = v[3]
    entry = flow.entry
    if not count or entry is None or v[10] != _list_crc(flow):
        return count, False
    ntiles = len(flow.keymap.tiles)
    data_at = HEAD_SIZE
    entry.begin(count)
    lengths = v[11]
    for i in range(count):
        n = lengths[i]
        word = entry.words[i]
        for j in range(n):
            tile = data[data_at + j]
            if tile >= ntiles:
                entry.wipe()
                return count, False
            word[j] = tile
        entry.lengths[i] = n
        data_at += n
    entry.current = v[4] if v[4] < count else count - 1
    return count, True
