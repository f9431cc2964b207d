# The engine's whole state as a small blob for power-loss recovery: a fixed
# struct layout with a version byte, the preset's fingerprint (the preset
# itself is stored apart, in the configuration) and a CRC-32, so that a
# torn or foreign blob is refused instead of restoring a wrong game.

from micropython import const
import struct
from binascii import crc32

from timebase import ticks_add, ticks_diff
from clock.presets import fingerprint_bytes

VERSION = 1
MAX_SIZE = 256

# version, preset crc, phase, flags, run, paused_run, chal_run,
# on_turn, play_side, challenger, hold_side, forfeit_side, forfeit_reason, notes, ot_cued,
# used[2], credit[2], chal_pen[2], late[2], start_used[2], excused[2], turn_start[2],
# ot_units[2], win_left, game_ms, chal_at
_BODY = "<BIBBBBBbbbbbBBB" + "i" * 14 + "HH" + "iii"
_CRC = const("<I")
SIZE = struct.calcsize(_BODY) + struct.calcsize(_CRC)

_PAUSED = const(1)
_CHALLENGING = const(2)
_WIN_OPEN = const(4)
_WIN_TIMED = const(8)
_GAME_STARTED = const(16)
_TURN_OPEN = const(32)


def preset_crc(preset):
    return crc32(fingerprint_bytes(preset)) & 0xFFFFFFFF


def encode(engine, t):
    e = engine
    used = [e._used_at(0, t), e._used_at(1, t)]
    late = [e._late[0], e._late[1]]
    if e.phase == 0:  # before the game all used time is lateness (what a stop would record)
        late = used
    if e._win_open and e._win_timed:
        win_left = e._win_left if e.paused else ticks_diff(e._win_deadline, t)
        if win_left < 0:
            win_left = 0
    else:
        win_left = 0
    flags = ((_PAUSED if e.paused else 0) | (_CHALLENGING if e.challenging else 0)
             | (_WIN_OPEN if e._win_open else 0) | (_WIN_TIMED if e._win_timed else 0)
             | (_GAME_STARTED if e._game_started else 0) | (_TURN_OPEN if e._turn_open else 0))
    body = struct.pack(
        _BODY, VERSION, preset_crc(e.preset), e.phase, flags, e._run, e._paused_run,
        e._chal_run, e.on_turn, e._play_side, e._challenger, e.hold_side, e.forfeit_side,
        e.forfeit_reason, e._notes, (1 if e._ot_cued[0] else 0) | (2 if e._ot_cued[1] else 0),
        used[0], used[1], e._credit[0], e._credit[1], e._chal_pen[0], e._chal_pen[1],
        late[0], late[1], e._start_used[0], e._start_used[1],
        e._excused[0], e._excused[1], e._turn_start[0], e._turn_start[1],
        e._ot_units[0], e._ot_units[1], win_left, e._gms(t), e._chal_at)
    return body + struct.pack(_CRC, crc32(body) & 0xFFFFFFFF)


def decode_into(engine, blob, now):
    """Load a snapshot into a fresh engine; ValueError if the blob is not trustworthy."""
    if not isinstance(blob, (bytes, bytearray)) or len(blob) != SIZE:
        raise ValueError("snapshot: wrong size")
    body = bytes(blob[:-4])
    if struct.unpack(_CRC, blob[-4:])[0] != crc32(body) & 0xFFFFFFFF:
        raise ValueError("snapshot: checksum mismatch")
    v = struct.unpack(_BODY, body)
    if v[0] != VERSION:
        raise ValueError("snapshot: unknown version %d" % v[0])
    e = engine
    if v[1] != preset_crc(e.preset):
        raise ValueError("snapshot: taken with a different preset")
    (e.phase, flags, e._run, e._paused_run, e._chal_run, e.on_turn, e._play_side,
     e._challenger, e.hold_side, e.forfeit_side, e.forfeit_reason, e._notes, cued) = v[2:15]
    if e.phase > 3 or e._run > 3 or e._paused_run > 3 or e._chal_run > 3 or e.forfeit_reason > 2:
        raise ValueError("snapshot: field out of range")
    e._used = [v[15], v[16]]
    e._credit = [v[17], v[18]]
    e._chal_pen = [v[19], v[20]]
    e._late = [v[21], v[22]]
    e._start_used = [v[23], v[24]]
    e._excused = [v[25], v[26]]
    e._turn_start = [v[27], v[28]]
    e._ot_units = [v[29], v[30]]
    win_left, game_ms, e._chal_at = v[31], v[32], v[33]
    e._ot_cued = [bool(cued & 1), bool(cued & 2)]
    e.paused = bool(flags & _PAUSED)
    e.challenging = bool(flags & _CHALLENGING)
    e._win_open = bool(flags & _WIN_OPEN)
    e._win_timed = bool(flags & _WIN_TIMED)
    e._game_started = bool(flags & _GAME_STARTED)
    e._turn_open = bool(flags & _TURN_OPEN)
    e._stopped_at = [game_ms, game_ms]
    e._game_ref = now
    e._game_base = game_ms
    e._last = now
    e._since = [now, now]
    e._win_left = win_left
    e._win_deadline = ticks_add(now, win_left)
    # Whatever was moving is restored stopped: the players resume it.
    if e._can_pause():
        e._paused_run = e._run
        e._run = 0
        e.paused = True
    e._refresh(now)
