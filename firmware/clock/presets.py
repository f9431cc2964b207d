# Federation presets as plain data.  Every field is editable; an edit is
# validated as a whole and either applied completely or not at all.
# Values and sources: docs/clock-engine.md.

MINUTE = 60000
_MAX_MS = 99 * MINUTE + 59000  # the display shows at most 99:59

PRESET_NAMES = ("tso30", "tso25", "nsf", "naspa_nwl", "naspa_csw", "wespa", "custom")
DEFAULT_PRESET = "tso30"

PER_CHOICES = ("started", "full")
CAP_CHOICES = ("forfeit", "none")
CHALLENGE_KINDS = ("per_word", "per_play", "lose_turn", "none")

# Every field of a preset and what it accepts.
INT_FIELDS = {
    "initial_ms": (1000, _MAX_MS),
    "overtime_penalty_points": (0, 1000),
    "overtime_cap_ms": (0, _MAX_MS),
    "challenge_window_ms": (0, 10 * MINUTE),
    "challenge_penalty_points": (0, 1000),
    "late_forfeit_ms": (0, _MAX_MS),
}
CHOICE_FIELDS = {
    "overtime_penalty_per": PER_CHOICES,
    "overtime_cap_consequence": CAP_CHOICES,
    "challenge_penalty_kind": CHALLENGE_KINDS,
}
FIELDS = ("name", "initial_ms", "overtime_penalty_points", "overtime_penalty_per",
          "overtime_cap_ms", "overtime_cap_consequence", "challenge_window_ms",
          "challenge_penalty_kind", "challenge_penalty_points", "late_forfeit_ms")

def _preset(name, initial_min, per, cap_min, window_ms, kind, kind_points, late_min):
    return {
        "name": name,
        "initial_ms": initial_min * MINUTE,
        "overtime_penalty_points": 10,
        "overtime_penalty_per": per,
        "overtime_cap_ms": cap_min * MINUTE,
        "overtime_cap_consequence": "forfeit",
        "challenge_window_ms": window_ms,
        "challenge_penalty_kind": kind,
        "challenge_penalty_points": kind_points,
        "late_forfeit_ms": late_min * MINUTE,
    }


PRESETS = {
    # TSO 1.1b, 2.4b ii, 3.1.2-3.1.4, 5.2b-c
    "tso30": _preset("tso30", 30, "started", 5, 20000, "per_word", 10, 15),
    "tso25": _preset("tso25", 25, "started", 5, 20000, "per_word", 10, 15),
    # Norway: the play can be challenged until the opponent draws; 10 per play
    "nsf": _preset("nsf", 30, "started", 5, 0, "per_play", 10, 0),
    # NASPA: hold until drawn; "10 per minute or part"; the cap is secondary
    "naspa_nwl": _preset("naspa_nwl", 25, "started", 10, 0, "lose_turn", 0, 0),
    "naspa_csw": _preset("naspa_csw", 25, "started", 10, 0, "per_word", 5, 0),
    # WESPA/ABSP: the digest says "10 per minute"; cap secondary
    "wespa": _preset("wespa", 25, "full", 10, 0, "per_word", 5, 0),
    "custom": _preset("custom", 30, "started", 5, 20000, "per_word", 10, 15),
}


def get_preset(name):
    """A fresh copy of a built-in preset (KeyError for an unknown name)."""
    return dict(PRESETS[name])


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
        "<IHBIBIBHI",
        preset["initial_ms"],
        preset["overtime_penalty_points"],
        PER_CHOICES.index(preset["overtime_penalty_per"]),
        preset["overtime_cap_ms"],
        CAP_CHOICES.index(preset["overtime_cap_consequence"]),
        preset["challenge_window_ms"],
        CHALLENGE_KINDS.index(preset["challenge_penalty_kind"]),
        preset["challenge_penalty_points"],
        preset["late_forfeit_ms"],
    ) + preset["name"].encode()
