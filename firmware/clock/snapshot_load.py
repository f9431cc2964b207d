# Reading a snapshot (clock/snapshot.py) back into an engine: at start-up
# (clock.engine.Engine.restore), and for the referee's undo (clock/corrections.py).

import struct
from binascii import crc32

from timebase import ticks_add
from clock import gamelog as gl
from clock.presets import CAP_CHOICES, CHALLENGE_KINDS, PER_CHOICES, validate_preset
from clock.snapshot import (VERSION, BODY, BODY_3, CRC, NAME_MAX, STATE, PAUSED, CHALLENGING,
                            WIN_OPEN, WIN_TIMED, GAME_STARTED, TURN_OPEN, ACCEPTED)


# the body of each version that loads (an older one lacks the fields at the end)
_BODIES = {VERSION: BODY, 3: BODY_3}


def _sound_slot(undo):
    # an undo slot: a kind byte and a snapshot without slot, of a version that loads
    if len(undo) < 2 or undo[1] not in _BODIES:
        return False
    return len(undo) == 1 + struct.calcsize(_BODIES[undo[1]]) + 4


def _checked(blob):
    """(the unpacked body, the undo slot) of a sound blob, else ValueError.  The body
    of an older version gets the newer fields' values for "not known" (turns: 0)."""
    if not isinstance(blob, (bytes, bytearray)) or len(blob) < 5:
        raise ValueError("snapshot: wrong size")
    data = bytes(blob[:-4])
    if struct.unpack(CRC, blob[-4:])[0] != crc32(data) & 0xFFFFFFFF:
        raise ValueError("snapshot: checksum mismatch")
    body = _BODIES.get(data[0])
    if body is None:
        raise ValueError("snapshot: unknown version %d" % data[0])
    n = struct.calcsize(body)
    if len(data) < n:
        raise ValueError("snapshot: wrong size")
    undo = data[n:]
    if undo and not _sound_slot(undo):
        raise ValueError("snapshot: wrong size")
    v = struct.unpack(body, data[:n])
    if body is BODY_3:
        v += (0,)
    return v, undo


def decode_preset(blob):
    """The preset of the game in blob (a dict as clock.presets gives); ValueError if
    the blob or the preset in it is not sound."""
    return _preset(_checked(blob)[0])


def _preset(v):
    (initial, ot_points, per, cap, cap_kind, window, kind, kind_points, late, move, n,
     name) = v[1:STATE - 1]
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
        "move_ms": move,
    }
    ok, message = validate_preset(preset)
    if not ok:
        raise ValueError("snapshot: preset: " + message)
    return preset


def decode_into(engine, blob, now):
    """Load a snapshot into an engine made with the snapshot's preset (see
    decode_preset); ValueError, the engine untouched, if the blob is not trustworthy."""
    v, undo = _checked(blob)
    e = engine
    if _preset(v) != e.preset:
        raise ValueError("snapshot: taken with a different preset")
    s = STATE
    (phase, flags, run, paused_run, chal_run, on_turn, play_side, challenger, hold_side,
     forfeit_side, forfeit_reason, notes, cued) = v[s:s + 13]
    if (phase > 3 or run > 3 or paused_run > 3 or chal_run > 3 or forfeit_reason > 2
            or not -1 <= forfeit_side <= 2):
        raise ValueError("snapshot: field out of range")
    if undo and undo[0] > 3:
        raise ValueError("snapshot: undo slot")
    log_next = v[s - 1]
    if e.log.next_seq() != log_next:
        e.log = gl.GameLog(e.log.capacity, log_next)
    e.log.turns = v[s + 33]        # the challenge log names the turn (0: not known)
    (e.phase, e.on_turn, e.hold_side, e.forfeit_side, e.forfeit_reason) = (
        phase, on_turn, hold_side, forfeit_side, forfeit_reason)
    state = e.state
    (state.run, state.paused_run, state.chal_run, state.play_side, state.challenger,
     state.notes) = (run, paused_run, chal_run, play_side, challenger, notes)
    s += 13
    state.used = [v[s], v[s + 1]]
    state.credit = [v[s + 2], v[s + 3]]
    state.chal_pen = [v[s + 4], v[s + 5]]
    state.late = [v[s + 6], v[s + 7]]
    state.start_used = [v[s + 8], v[s + 9]]
    state.excused = [v[s + 10], v[s + 11]]
    state.turn_start = [v[s + 12], v[s + 13]]
    state.ot_units = [v[s + 14], v[s + 15]]
    win_left, game_ms, state.chal_at, e.moves = v[s + 16:s + 20]
    state.ot_cued = [bool(cued & 1), bool(cued & 2)]
    e.paused = bool(flags & PAUSED)
    e.challenging = bool(flags & CHALLENGING)
    state.win_open = bool(flags & WIN_OPEN)
    state.win_timed = bool(flags & WIN_TIMED)
    state.game_started = bool(flags & GAME_STARTED)
    state.turn_open = bool(flags & TURN_OPEN)
    e.accepted = bool(flags & ACCEPTED)
    state.undo = undo
    state.stopped_at = [game_ms, game_ms]
    state.game_ref = now
    state.game_base = game_ms
    state.last = now
    state.since = [now, now]
    state.win_left = win_left
    state.win_deadline = ticks_add(now, win_left)
    # Whatever was moving is restored stopped: the players resume it.
    e.pause_loaded(now)
