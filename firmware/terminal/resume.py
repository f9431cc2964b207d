# The challenge terminal back at the step a power cut interrupted: reads what
# terminal/persist.py wrote into the game state record.  Loaded at start-up only
# (when a challenge or a verdict was saved, or the engine comes back challenging).

import struct

from terminal import flow as F
from terminal.persist import (MAX_TILES, MAX_WORDS, VERSION, WAIT_REASONS, _ACCEPTABLE,
                              _BY_REFEREE, _GAME_OVER, _HEAD, _HEAD_1, _LOST_TURN, _VERDICT,
                              _WITHDRAWN, _list_crc)

# the steps that come back as they were (with the engine still challenging)
CHALLENGE_STEPS = (F.COUNT, F.ENTRY, F.CONFIRM, F.READY, F.REFEREE_WAIT)


def _decode(data):
    """The head's values, the record's seq as v[12] (0 in version 1) and the head's
    size as v[13]; None if data is not a sound terminal part."""
    if not data:
        return None
    head = _HEAD if data[0] == VERSION else _HEAD_1 if data[0] == 1 else None
    if head is None or len(data) < struct.calcsize(head):
        return None
    v = struct.unpack_from(head, data)
    if head is _HEAD_1:
        v += (0,)
    v += (struct.calcsize(head),)
    if v[3] > MAX_WORDS or v[4] >= MAX_WORDS or v[5] >= len(WAIT_REASONS):
        return None
    lengths = v[11]
    total = 0
    for n in lengths:
        if n > MAX_TILES:
            return None
        total += n
    if v[13] + total != len(data):
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
        seq = v[12] if v is not None else 0
        if _replayed(flow, seq, t):
            return flow.state
        if seq:
            flow.log_seq = seq      # the record this challenge's verdict will have
        else:
            flow.reserve_log_seq()
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


def _replayed(flow, seq, t):
    # The challenge log has this challenge's record, the state not its verdict: a cut
    # came between the two.  The verdict comes back from the record, applied as it was
    # (not written again), and what it set moving comes back stopped, like any state.
    log = flow.log
    if not seq or log is None or not log.has(seq):
        return False
    record = log.find(seq)
    if record is None:
        return False
    flow._load_entry()
    flow.log_seq = seq
    flow.replay(t, record)
    flow.engine.pause(t)
    return True


def _words(flow, v, data):
    """(declared count, whether the saved words were put back into the entry)."""
    if v is None:
        return 0, False
    count = v[3]
    entry = flow.entry
    if not count or entry is None or v[10] != _list_crc(flow):
        return count, False
    ntiles = len(flow.keymap.tiles)
    data_at = v[13]
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
