# Reading a snapshot (clock/snapshot.py) back: at start-up only, so apart from the
# writing half that every save needs.

import struct
from binascii import crc32

from timebase import ticks_add
from clock import gamelog as gl
from clock.presets import CAP_CHOICES, CHALLENGE_KINDS, PER_CHOICES, validate_preset
from clock.snapshot import (SIZE, VERSION, BODY, CRC, NAME_MAX, STATE, PAUSED, CHALLENGING,
                            WIN_OPEN, WIN_TIMED, GAME_STARTED, TURN_OPEN)


def _checked(blob):
    """The unpacked body of a sound blob, else ValueError."""
    if not isinstance(blob, (bytes, bytearray)) or len(blob) != SIZE:
        raise ValueError("snapshot: wrong size")
    body = bytes(blob[:-4])
    if struct.unpack(CRC, blob[-4:])[0] != crc32(body) & 0xFFFFFFFF:
        raise ValueError("snapshot: checksum mismatch")
    v = struct.unpack(BODY, body)
    if v[0] != VERSION:
        raise ValueError("snapshot: unknown version %d" % v[0])
    return v


def decode_preset(blob):
    """The preset of the game in blob (a dict as clock.presets gives); ValueError if
    the blob or the preset in it is not sound."""
    v = _checked(blob)
    (initial, ot_points, per, cap, cap_kind, window, kind, kind_points, late, n,
     name) = v[1:12]
    if per >= len(PER_CHOICES) or cap_kind >= len(CAP_CHOICES) or kind >= len(CHALLENGE_KINDS) \
            or not 1 <= n <= NAME_MAX:
        raise ValueError("snapshot: preset out of range")
    try:
        name = str(name[:n], "utf-8")
    except UnicodeError:
        raise ValueError("snapshot: preset name")
    preset = {
        "name": name,
        "initial_ms": initial,
        "overtime_penalty_points": ot_points,
        "overtime_penalty_per": PER_CHOICES[per],
        "overtime_cap_ms": cap,
        "overtime_cap_consequence": CAP_CHOICES[cap_kind],
        "challenge_window_ms": window,
        "challenge_penalty_kind": CHALLENGE_KINDS[kind],
        "challenge_penalty_points": kind_points,
        "late_forfeit_ms": late,
    }
    ok, message = validate_preset(preset)
    if not ok:
        raise ValueError("snapshot: preset: " + message)
    return preset


def decode_into(engine, blob, now):
    """Load a snapshot into a fresh engine (made with the snapshot's preset, see
    decode_preset); ValueError if the blob is not trustworthy."""
    v = _checked(blob)
    e = engine
    if decode_preset(blob) != e.preset:
        raise ValueError("snapshot: taken with a different preset")
    log_next = v[STATE - 1]
    v = v[STATE - 2:]          # from here on the layout of version 1 (index 2 = phase)
    (e.phase, flags, e._run, e._paused_run, e._chal_run, e.on_turn, e._play_side,
     e._challenger, e.hold_side, e.forfeit_side, e.forfeit_reason, e._notes, cued) = v[2:15]
    if e.phase > 3 or e._run > 3 or e._paused_run > 3 or e._chal_run > 3 or e.forfeit_reason > 2:
        raise ValueError("snapshot: field out of range")
    if e.log.next_seq() != log_next:
        e.log = gl.GameLog(e.log.capacity, log_next)
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
    e.paused = bool(flags & PAUSED)
    e.challenging = bool(flags & CHALLENGING)
    e._win_open = bool(flags & WIN_OPEN)
    e._win_timed = bool(flags & WIN_TIMED)
    e._game_started = bool(flags & GAME_STARTED)
    e._turn_open = bool(flags & TURN_OPEN)
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
