# The challenge terminal back at the step a power cut interrupted: reads what
# terminal/persist.py wrote into the game state record.  Loaded at start-up only
# (when a challenge, a verdict or a finished game's scores were saved, or the engine
# comes back challenging).

import struct

from terminal.persist import (ACCEPTABLE, BY_REFEREE, GAME_OVER, HEAD, HEAD_1, LOST_TURN,
                              MAX_TILES, MAX_WORDS, SHOWN, VERSION, WAIT_REASONS, WITHDRAWN,
                              list_crc)
from terminal.states import CONFIRM, COUNT, ENTRY, NEUTRAL, READY, REFEREE_WAIT, VERDICT

SCORES_MAGIC = b"SC"    # terminal.scores.MAGIC: the part is a finished game's score entry

# the steps that come back as they were (with the engine still challenging)
CHALLENGE_STEPS = (COUNT, ENTRY, CONFIRM, READY, REFEREE_WAIT)


class Saved:
    """The terminal's part as read back: the head's fields by name, and where the
    words' tiles start in the data (tiles_at; word i has lengths[i] of them)."""

    def __init__(self, v, tiles_at):
        (_, self.state, self.challenger, self.count, self.current, reason, self.flags,
         self.penalty, self.runs, self.count_without_list, self.list_crc,
         self.lengths) = v[:12]
        self.wait_reason = WAIT_REASONS[reason]
        self.seq = v[12] if len(v) > 12 else 0      # version 1 has none
        self.tiles_at = tiles_at


def decode(data):
    """The Saved part in `data`, or None if data is empty or no sound terminal part."""
    if not data:
        return None
    head = HEAD if data[0] == VERSION else HEAD_1 if data[0] == 1 else None
    if head is None or len(data) < struct.calcsize(head):
        return None
    v = struct.unpack_from(head, data)
    if v[3] > MAX_WORDS or v[4] >= MAX_WORDS or v[5] >= len(WAIT_REASONS):
        return None
    tiles_at = struct.calcsize(head)
    total = 0
    for n in v[11]:
        if n > MAX_TILES:
            return None
        total += n
    if tiles_at + total != len(data):
        return None
    return Saved(v, tiles_at)


def restore(flow, data, t):
    """Put the flow back where `data` (possibly empty or damaged) left it, as far as
    the engine agrees: a challenge the engine still has comes back at its step (or
    at the word count, when the words cannot be read back), a verdict the engine
    has applied comes back on screen; anything else is the neutral screen."""
    engine = flow.engine
    if data[:2] == SCORES_MAGIC and not engine.challenging:
        from terminal.scores import restore as scores_back

        return scores_back(flow, data, t)   # a finished game's scores (terminal.scores)
    saved = decode(data) if data else None
    state = saved.state if saved is not None else NEUTRAL
    if engine.challenging:
        flow.challenger = engine.challenge_by()
        seq = saved.seq if saved is not None else 0
        if _replayed(flow, seq, t):
            return flow.state
        if seq:
            flow.log_seq = seq      # the record this challenge's verdict will have
        else:
            flow.reserve_log_seq()
        if state not in CHALLENGE_STEPS:
            state = COUNT           # a challenge without its step: the count again
        flow.load_entry()
        count, words_ok = _words(flow, saved, data)
        if state != COUNT and not count:
            state = COUNT
        elif state in (ENTRY, CONFIRM, READY) and not words_ok:
            if flow.lexicon is None:
                # typed words but the list is gone now: the referee decides
                flow.count_without_list = count
                flow.wait_reason = "bad_list" if flow.problem == "damaged" else "no_list"
                state = REFEREE_WAIT
            else:
                state = COUNT       # another list: the words must be typed again
        elif state == REFEREE_WAIT:
            flow.wait_reason = saved.wait_reason or "referee_decides"
            # what the verdict counts
            flow.count_without_list = saved.count_without_list or count
        if state == COUNT and flow.entry is not None:
            flow.entry.wipe()
        flow.page = 0
        flow.go(t, state)
        return state
    if state == VERDICT and saved.flags & SHOWN:
        from clock.engine import Outcome

        flags = saved.flags
        flow.challenger = saved.challenger
        flow.verdict = bool(flags & ACCEPTABLE)
        flow.verdict_by = "referee" if flags & BY_REFEREE else "list"
        flow.outcome = Outcome(bool(flags & WITHDRAWN),
                               saved.challenger if saved.penalty else -1, saved.penalty,
                               bool(flags & LOST_TURN), saved.runs, bool(flags & GAME_OVER))
        flow.go(t, VERDICT)
        flow.guard_t = t
        return VERDICT
    return NEUTRAL


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
    flow.load_entry()
    flow.log_seq = seq
    flow.replay(t, record)
    flow.engine.pause(t)
    return True


def _words(flow, saved, data):
    """(declared count, whether the saved words were put back into the entry)."""
    if saved is None:
        return 0, False
    count = saved.count
    entry = flow.entry
    if not count or entry is None or saved.list_crc != list_crc(flow):
        return count, False
    ntiles = len(flow.keymap.tiles)
    data_at = saved.tiles_at
    entry.begin(count)
    lengths = saved.lengths
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
    entry.current = saved.current if saved.current < count else count - 1
    return count, True
