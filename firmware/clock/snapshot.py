# The engine's whole state (its status and its clock.state.ClockState) as a small blob
# for power-loss recovery: a fixed struct layout with a version byte, the game's preset
# in full (a preset chosen for the next game while this one runs must not change it,
# nor stop it from being restored), the seq of the game log's next record (the
# numbering goes on after a restart), then the referee's undo slot (empty, or a kind
# byte and a snapshot of the state before the last end, accept or forfeit) and a
# CRC-32 over all of it (version 4 adds the turns finished, which the challenge log
# names; a version 3 blob, without them, still loads), so that a torn or foreign blob
# is refused instead of restoring a wrong game.  Reading a blob back is
# clock/snapshot_load.py.

from micropython import const
import struct
from binascii import crc32

from timebase import ticks_diff

VERSION = 4

# The values of a preset's choice fields, in the order their indices are stored (here,
# and in the rows of clock/presets.py).  Here rather than in clock.presets: a running
# clock needs only these, not the presets' table and checks, which are loaded to set up
# a game and dropped again (app.device, lazy.DROPPED).
PER_CHOICES = ("started", "full")
CAP_CHOICES = ("forfeit", "none")
CHALLENGE_KINDS = ("per_word", "per_play", "lose_turn", "none")

# version, the preset (its values as clock.presets.fingerprint_bytes lays them out,
# then the name: length and 48 bytes), the game log's next seq, phase, flags, run,
# paused_run, chal_run, on_turn, play_side, challenger, hold_side, forfeit_side,
# forfeit_reason, notes, ot_cued,
# used[2], credit[2], chal_pen[2], late[2], start_used[2], excused[2], turn_start[2],
# ot_units[2], win_left, game_ms, chal_at, moves, then (version 4) the turns finished
PRESET = "IHBIBIBHII"
NAME_MAX = 48      # bytes: 16 characters of UTF-8
BODY_3 = "<B" + PRESET + "B48sI" + "BBBBBbbbbbBBB" + "i" * 14 + "HH" + "iii" + "H"
BODY = BODY_3 + "H"
CRC = "<I"
BODY_SIZE = struct.calcsize(BODY)
SIZE = BODY_SIZE + struct.calcsize(CRC)     # without an undo slot
MAX_SIZE = 2 * SIZE + 1                     # with one
STATE = 14          # index of `phase` in the unpacked body

PAUSED = const(1)
CHALLENGING = const(2)
WIN_OPEN = const(4)
WIN_TIMED = const(8)
GAME_STARTED = const(16)
TURN_OPEN = const(32)
ACCEPTED = const(64)


def encode(engine, t, undo=True, buf=None, at=0):
    """The blob of the engine's state at tick t; undo False: without the undo slot
    (what the slot itself holds).  With buf: written into buf from index `at` (room for
    the blob there), and its length returned; this allocates nothing of the blob's
    size: the device saves the state at every press and key, when the heap may be in
    pieces."""
    if buf is None:
        buf = bytearray(MAX_SIZE)
        return bytes(memoryview(buf)[:encode(engine, t, undo, buf)])
    e = engine
    s = engine.state
    used = [s.used_at(0, t), s.used_at(1, t)]
    late = [s.late[0], s.late[1]]
    if e.phase == 0:  # before the game all used time is lateness (what a stop would record)
        late = used
    if s.win_open and s.win_timed:
        win_left = s.win_left if e.paused else ticks_diff(s.win_deadline, t)
        if win_left < 0:
            win_left = 0
    else:
        win_left = 0
    flags = ((PAUSED if e.paused else 0) | (CHALLENGING if e.challenging else 0)
             | (WIN_OPEN if s.win_open else 0) | (WIN_TIMED if s.win_timed else 0)
             | (GAME_STARTED if s.game_started else 0) | (TURN_OPEN if s.turn_open else 0)
             | (ACCEPTED if e.accepted else 0))
    p = e.preset
    name = p["name"].encode()
    struct.pack_into(
        BODY, buf, at, VERSION, p["initial_ms"], p["overtime_penalty_points"],
        PER_CHOICES.index(p["overtime_penalty_per"]), p["overtime_cap_ms"],
        CAP_CHOICES.index(p["overtime_cap_consequence"]), p["challenge_window_ms"],
        CHALLENGE_KINDS.index(p["challenge_penalty_kind"]), p["challenge_penalty_points"],
        p["late_forfeit_ms"], p["move_ms"], len(name), name, e.log.next_seq(),
        e.phase, flags, s.run, s.paused_run,
        s.chal_run, e.on_turn, s.play_side, s.challenger, e.hold_side, e.forfeit_side,
        e.forfeit_reason, s.notes, (1 if s.ot_cued[0] else 0) | (2 if s.ot_cued[1] else 0),
        used[0], used[1], s.credit[0], s.credit[1], s.chal_pen[0], s.chal_pen[1],
        late[0], late[1], s.start_used[0], s.start_used[1],
        s.excused[0], s.excused[1], s.turn_start[0], s.turn_start[1],
        s.ot_units[0], s.ot_units[1], win_left, s.game_ms(t), s.chal_at, e.moves,
        e.log.turns if e.log.turns < 0xFFFF else 0xFFFF)
    n = BODY_SIZE
    slot = s.undo
    if undo and slot:
        buf[at + n:at + n + len(slot)] = slot
        n += len(slot)
    struct.pack_into(CRC, buf, at + n, crc32(memoryview(buf)[at:at + n]) & 0xFFFFFFFF)
    return n + 4
