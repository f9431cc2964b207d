# Federation presets as plain data.  Every field is editable; an edit is
# validated as a whole and either applied completely or not at all.
# Values and sources: docs/clock-engine.md.

from micropython import const

_MINUTE = const(60000)
_MAX_MS = const(99 * _MINUTE + 59000)  # the display shows at most 99:59
# Duplicate: one countdown per move of 1-3 minutes (RULES.md, FISF duplicate)
_MOVE_MIN = const(60000)
_MOVE_MAX = const(180000)

PRESET_NAMES = ("tso30", "tso25", "nsf", "naspa_nwl", "naspa_csw", "wespa", "custom",
                "duplicate")
DEFAULT_PRESET = "tso30"

from clock.snapshot import CAP_CHOICES, CHALLENGE_KINDS, PER_CHOICES  # noqa: F401 (re-exported)

# Every field of a preset and what it accepts.
INT_FIELDS = {
    "initial_ms": (1000, _MAX_MS),
    "overtime_penalty_points": (0, 1000),
    "overtime_cap_ms": (0, _MAX_MS),
    "challenge_window_ms": (0, 10 * _MINUTE),
    "challenge_penalty_points": (0, 1000),
    "late_forfeit_ms": (0, _MAX_MS),
    "move_ms": (0, _MOVE_MAX),
}
CHOICE_FIELDS = {
    "overtime_penalty_per": PER_CHOICES,
    "overtime_cap_consequence": CAP_CHOICES,
    "challenge_penalty_kind": CHALLENGE_KINDS,
}
FIELDS = ("name", "initial_ms", "overtime_penalty_points", "overtime_penalty_per",
          "overtime_cap_ms", "overtime_cap_consequence", "challenge_window_ms",
          "challenge_penalty_kind", "challenge_penalty_points", "late_forfeit_ms", "move_ms")

# The built-in presets, one row of 8 bytes each in the order of PRESET_NAMES: initial
# minutes, overtime penalty per (index into PER_CHOICES), overtime cap minutes,
# challenge window seconds, challenge penalty kind (index into CHALLENGE_KINDS), its
# points, late forfeit minutes, and the time per move in 10 s for a duplicate game (0:
# a game on two clocks).  The two-clock presets have 10 points per overtime unit and a
# cap that forfeits; a duplicate game has no overtime.  Bytes rather than a table of
# dicts: on the chip they stay in flash; get_preset() builds the one dict the clock
# uses (docs/runtime.md, Memory).
_ROWS = const(
    # TSO 1.1b, 2.4b ii, 3.1.2-3.1.4, 5.2b-c
    b"\x1e\x00\x05\x14\x00\x0a\x0f\x00"      # tso30
    b"\x19\x00\x05\x14\x00\x0a\x0f\x00"      # tso25
    # Norway: the play can be challenged until the opponent draws; 10 per play
    b"\x1e\x00\x05\x00\x01\x0a\x00\x00"      # nsf
    # NASPA: hold until drawn; "10 per minute or part"; the cap is secondary
    b"\x19\x00\x0a\x00\x02\x00\x00\x00"      # naspa_nwl
    b"\x19\x00\x0a\x00\x00\x05\x00\x00"      # naspa_csw
    # WESPA/ABSP: the digest says "10 per minute"; cap secondary
    b"\x19\x01\x0a\x00\x00\x05\x00\x00"      # wespa
    b"\x1e\x00\x05\x14\x00\x0a\x0f\x00"      # custom
    # FISF duplicate and the mail game's rounds: 3 minutes a move, no challenges
    b"\x03\x00\x00\x00\x03\x00\x00\x12"      # duplicate
)


def __getattr__(name):
    # PRESETS, every built-in preset by name, is built when asked for (tests, tools):
    # the clock itself only ever needs one, from get_preset().
    if name == "PRESETS":
        return {n: get_preset(n) for n in PRESET_NAMES}
    raise AttributeError(name)


def get_preset(name):
    """A fresh copy of a built-in preset (KeyError for an unknown name)."""
    if name not in PRESET_NAMES:
        raise KeyError(name)
    row = _ROWS
    i = 8 * PRESET_NAMES.index(name)
    move = row[i + 7] * 10000
    return {
        "name": name,
        "initial_ms": row[i] * _MINUTE,
        "overtime_penalty_points": 0 if move else 10,
        "overtime_penalty_per": PER_CHOICES[row[i + 1]],
        "overtime_cap_ms": row[i + 2] * _MINUTE,
        "overtime_cap_consequence": CAP_CHOICES[1 if move else 0],
        "challenge_window_ms": row[i + 3] * 1000,
        "challenge_penalty_kind": CHALLENGE_KINDS[row[i + 4]],
        "challenge_penalty_points": row[i + 5],
        "late_forfeit_ms": row[i + 6] * _MINUTE,
        "move_ms": move,
    }


def _check_field(key, value):
    if key == "name":
        if not isinstance(value, str) or not 1 <= len(value) <= 16:
            return key + ": must be text of 1-16 characters"
    elif key in INT_FIELDS:
        low, high = INT_FIELDS[key]
        if isinstance(value, bool) or not isinstance(value, int):
            return key + ": must be a whole number of ms/points"
        if not low <= value <= high:
            return "%s: must be %d-%d" % (key, low, high)
        if key == "move_ms" and 0 < value < _MOVE_MIN:
            return "move_ms: must be 0 (two clocks) or %d-%d" % (_MOVE_MIN, _MOVE_MAX)
    elif key in CHOICE_FIELDS:
        if value not in CHOICE_FIELDS[key]:
            return key + ": must be one of " + ", ".join(CHOICE_FIELDS[key])
    else:
        return key + ": unknown field"
    return ""


def validate_preset(preset):
    """(True, "") for a complete, valid preset, else (False, a message naming the field)."""
    if not isinstance(preset, dict):
        return False, "preset: must be a dict"
    for key in FIELDS:
        if key not in preset:
            return False, key + ": missing"
    for key in preset:
        message = _check_field(key, preset[key])
        if message:
            return False, message
    return True, ""


def edit_preset(preset, changes):
    """A new preset with `changes` applied; ValueError (nothing applied) if invalid."""
    edited = dict(preset)
    for key in changes:
        edited[key] = changes[key]
    ok, message = validate_preset(edited)
    if not ok:
        raise ValueError(message)
    return edited


def fingerprint_bytes(preset):
    """The preset's values in a fixed binary layout (for the snapshot's check)."""
    import struct

    return struct.pack(
        "<IHBIBIBHII",
        preset["initial_ms"],
        preset["overtime_penalty_points"],
        PER_CHOICES.index(preset["overtime_penalty_per"]),
        preset["overtime_cap_ms"],
        CAP_CHOICES.index(preset["overtime_cap_consequence"]),
        preset["challenge_window_ms"],
        CHALLENGE_KINDS.index(preset["challenge_penalty_kind"]),
        preset["challenge_penalty_points"],
        preset["late_forfeit_ms"],
        preset["move_ms"],
    ) + preset["name"].encode()
