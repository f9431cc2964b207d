# The device configuration in config.json: preset, preset edits, UI language,
# sounds, referee PIN, terminal timings, the table number, the hall's network (Wi-Fi,
# broker, event and the event's key: docs/hall.md, The clock's side).
#
# Every change is validated before anything is applied: a bad value is
# rejected with a message naming the key, and the stored and in-memory
# configuration stay as they were.  Saving writes a temp file and renames it
# over config.json, so a power cut never leaves half a file.  A config.json
# that cannot be read (or holds bad values) is not used half: the device starts
# from the defaults for the bad keys and load() reports why.

import json

from store.files import exists, write_atomic

PATH = "config.json"
SOUND_KEYS = ("sound_challenge_end", "sound_overtime", "sound_overtime_minute", "sound_forfeit",
              "sound_move_warning", "sound_move_end")
# Tournament rooms expect silence: every preset except `custom` starts quiet; a duplicate
# room expects the move's warning (30 s left) and its end to sound.
LOUD_PRESETS = ("custom", "duplicate")

DEFAULTS = {
    "preset": "tso30",
    "preset_edits": {},
    "lang": "de",
    "sound_mute": False,
    "sound_challenge_end": None,     # None: as the preset's rooms expect
    "sound_overtime": None,
    "sound_overtime_minute": None,
    "sound_forfeit": None,
    "sound_move_warning": None,
    "sound_move_end": None,
    "referee_pin": "0000",
    "verdict_ms": 10000,
    "multitap_ms": 1000,
    "contrast": 128,                 # panel current: hardware/power_budget.csv (>= 12 h on 2,500 mAh)
    "table": "",                     # the table the clock stands on: logs, exports, file names
    # the hall (docs/hall.md): all four set, or the clock publishes nothing
    "wifi_ssid": "",
    "wifi_password": "",             # SECRET: never shown back (masked())
    "hall": "",                      # the broker, mqtt://HOST:PORT
    "event": "",                     # the topic's event level
    "hall_key": "",                  # SECRET: the event's key (set over USB only)
}
# Settings the link never shows back: their place says whether they are set
SECRET_KEYS = ("wifi_password", "hall_key")
SECRET_SHOWN = "(set)"



def problem(key, value, values):
    """"" if value is acceptable for the setting `key` (given the other `values`), else
    a message naming the key."""
    if key not in DEFAULTS:
        return key + ": unknown setting"
    # The checks of each setting, with their messages, are set-up code: a running clock
    # does not hold them between changes (app.device drops them, lazy.DROPPED).
    from store.config_check import check

    return check(key, value, values)


class Config:
    """Dict-like settings: get(key, default) and set(key, value) -> (ok, message)."""

    def __init__(self, path=PATH):
        self.path = path
        self.values = dict(DEFAULTS)
        self.values["preset_edits"] = {}
        self.serial = 0          # bumped by every applied change

    def load(self):
        """Read the file; return a list of messages about what was not used."""
        problems = []
        if not exists(self.path):
            return problems
        try:
            with open(self.path) as f:
                data = json.load(f)
        except Exception as e:
            return ["config.json unreadable (%s): defaults used" % e]
        if not isinstance(data, dict):
            return ["config.json is not an object: defaults used"]
        # Preset first: the edits are checked against it.
        candidate = dict(self.values)
        for key in ["preset", "preset_edits"] + sorted(k for k in data if k not in
                                                        ("preset", "preset_edits")):
            if key not in data:
                continue
            message = problem(key, data[key], candidate)
            if message:
                problems.append(message + " (default used)")
                continue
            candidate[key] = data[key]
        self.values = candidate
        self.serial += 1
        return problems

    def masked(self):
        """The settings as the link shows them: a secret as "" (not set) or "(set)"."""
        out = dict(self.values)
        for key in SECRET_KEYS:
            if out.get(key):
                out[key] = SECRET_SHOWN
        return out

    def get(self, key, default=None):
        return self.values.get(key, default)

    def set(self, key, value):
        return self.update({key: value})

    def update(self, changes):
        """Apply all changes or none; saved to the file before returning (True, "")."""
        if not isinstance(changes, dict):
            return False, "settings must be an object"
        candidate = dict(self.values)
        for key in changes:
            candidate[key] = changes[key]
        for key in changes:
            message = problem(key, changes[key], candidate)
            if message:
                return False, message
        # A changed preset must still accept the stored edits (and vice versa).
        if "preset" in changes or "preset_edits" in changes:
            message = problem("preset_edits", candidate["preset_edits"], candidate)
            if message:
                return False, message
        if candidate == self.values:
            return True, ""         # nothing changes: no flash write
        try:
            write_atomic(self.path, json.dumps(self._stored(candidate)))
        except OSError as e:
            return False, "config.json not written: %s" % e
        self.values = candidate
        self.serial += 1
        return True, ""

    def _stored(self, values):
        out = {}
        for key in values:
            if values[key] != DEFAULTS.get(key, object()):
                out[key] = values[key]
        return out

    def save(self):
        write_atomic(self.path, json.dumps(self._stored(self.values)))

    # What the rest of the firmware derives from the settings

    def preset(self, changes=None):
        """The preset for a new game; with changes: what it would be after
        update(changes) (ValueError if they do not make a valid preset)."""
        from clock.presets import edit_preset, get_preset

        values = self.values
        if changes:
            values = dict(values)
            for key in changes:
                values[key] = changes[key]
        try:
            base = get_preset(values["preset"])
        except (KeyError, TypeError):
            raise ValueError("preset: unknown")
        if not isinstance(values["preset_edits"], dict):
            raise ValueError("preset_edits: must be an object")
        return edit_preset(base, values["preset_edits"])

    def sounds(self):
        """(enabled cue -> bool, mute) with the preset's default filled in."""
        loud = self.values["preset"] in LOUD_PRESETS
        enabled = {}
        for key in SOUND_KEYS:
            value = self.values[key]
            enabled[key[6:]] = loud if value is None else value
        return enabled, self.values["sound_mute"]
