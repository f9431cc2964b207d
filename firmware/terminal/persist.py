# The challenge terminal's part of the game state record (store/state.py), so
# that a power cut at any moment of a challenge comes back to where it was: the
# step (word count, typing, the opponent's confirmation, the check, the
# referee's decision, the verdict on screen), the challenger and the words typed
# so far, as tile numbers of the list in use (with the list's identity, so that
# numbers of another list are never read as words).  A letter still cycling on
# its key is saved as typed.
#
# encode() writes it at every save during a challenge (ChallengeFlow.saved_bytes);
# terminal/resume.py reads it back at start-up and puts the flow back at its step.

import struct
from binascii import crc32

from terminal.states import VERDICT

VERSION = 2
# version, state, challenger, count, current word, wait reason, flags,
# penalty points, runs, count declared without a list, crc of the list's id,
# the 8 word lengths, (version 2) the seq of the challenge's record in the
# challenge log (terminal/log.py; 0: none), then the tiles of the words one after
# the other.  Version 1, without the seq, still loads.
HEAD_1 = "<BBbBBBBHbBI8s"
HEAD = HEAD_1 + "I"
HEAD_SIZE = struct.calcsize(HEAD)
WAIT_REASONS = ("", "referee_decides", "no_list", "bad_list")
MAX_WORDS = 8
MAX_TILES = 16

# the flags of a verdict on screen
SHOWN = 1               # a verdict is shown (its flags and outcome follow)
ACCEPTABLE = 2
BY_REFEREE = 4
LOST_TURN = 8
WITHDRAWN = 16
GAME_OVER = 32


def list_crc(flow):
    """The identity of the list in use, as saved with the words' tile numbers."""
    return crc32(flow.list_id().encode()) & 0xFFFFFFFF


def encode(flow, state):
    """The bytes for step `state` (what the flow comes back to, see
    ChallengeFlow.saved_bytes)."""
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
    if state == VERDICT and flow.verdict is not None:
        flags = SHOWN | (ACCEPTABLE if flow.verdict else 0)
        if flow.verdict_by == "referee":
            flags |= BY_REFEREE
        outcome = flow.outcome
        if outcome is not None:
            penalty = outcome.penalty_points
            runs = outcome.runs
            flags |= ((LOST_TURN if outcome.lost_turn else 0)
                      | (WITHDRAWN if outcome.withdrawn else 0)
                      | (GAME_OVER if outcome.game_over else 0))
    reason = WAIT_REASONS.index(flow.wait_reason) if flow.wait_reason in WAIT_REASONS else 0
    return struct.pack(HEAD, VERSION, state, flow.challenger, count, current, reason, flags,
                       penalty, runs, flow.count_without_list, list_crc(flow),
                       bytes(lengths), flow.log_seq) + tiles
