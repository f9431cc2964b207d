# The checks of each of store/config.py's settings (store.config.problem, which knows
# the settings' table, refuses an unknown key first): a message naming the key for a
# value that is not acceptable.  Apart from the Config so that a running clock does not
# hold them (and their messages) between changes: a setting is checked when config.json
# is read and when a change comes; app.device drops this module again (lazy.DROPPED).

from i18n import LANGUAGES


def check(key, value, config):
    """"" if value is acceptable for the setting key (one of store.config.DEFAULTS; given
    the rest of config), else a message."""
    if key == "preset":
        from clock.presets import PRESET_NAMES

        if value not in PRESET_NAMES:
            return "preset: must be one of " + ", ".join(PRESET_NAMES)
        return _preset(value, config.get("preset_edits", {}))
    if key == "preset_edits":
        if not isinstance(value, dict):
            return "preset_edits: must be an object"
        return _preset(config.get("preset"), value)
    if key == "lang":
        if value not in LANGUAGES:
            return "lang: must be one of " + ", ".join(LANGUAGES)
        return ""
    if key == "sound_mute":
        return "" if isinstance(value, bool) else "sound_mute: must be true or false"
    if key.startswith("sound_"):     # a cue's sound (store.config.SOUND_KEYS)
        if value is None or isinstance(value, bool):
            return ""
        return key + ": must be true, false or null (as the preset)"
    if key == "table":
        # a number or a short name; what the organiser writes on the table
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 9999:
            return ""
        ok = isinstance(value, str) and len(value) <= 12
        if ok:
            for ch in value:
                if not ("0" <= ch <= "9" or "A" <= ch <= "Z" or "a" <= ch <= "z" or ch in "-_"):
                    ok = False
        return "" if ok else "table: a number or up to 12 letters, digits, - and _"
    if key in _HALL_KEYS:
        return _hall(key, value)
    if key == "referee_pin":
        if not isinstance(value, str) or not 4 <= len(value) <= 8:
            return "referee_pin: must be 4-8 digits"
        for ch in value:
            if ch not in "0123456789":
                return "referee_pin: must be 4-8 digits"
        return ""
    low, high = {"verdict_ms": (2000, 60000), "multitap_ms": (300, 3000),
                 "contrast": (0, 255)}[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return "%s: must be a whole number %d-%d" % (key, low, high)
    return ""


def _preset(name, edits):
    from clock.presets import PRESET_NAMES, edit_preset, get_preset

    if name not in PRESET_NAMES:
        return ""      # reported by the preset check itself
    if not isinstance(edits, dict):
        return "preset_edits: must be an object"   # given with the preset, in any order
    try:
        edit_preset(get_preset(name), edits)
    except ValueError as e:
        return "preset_edits: " + str(e)
    return ""


_HALL_KEYS = ("wifi_ssid", "wifi_password", "hall", "event", "hall_key")


def _hall(key, value):
    """The hall's settings: text, "" for not set (docs/hall.md, The clock's side)."""
    if not isinstance(value, str):
        return key + ": must be text"
    if value == "":
        return ""
    try:
        import hall.outbox  # noqa: F401  (the publisher: not in an image without the hall)
    except ImportError:
        return key + ": this clock's firmware has no hall (the lean image leaves it out)"
    if key == "wifi_ssid":
        return "" if len(value.encode()) <= 32 else "wifi_ssid: at most 32 bytes"
    if key == "wifi_password":
        if 8 <= len(value) <= 63:
            for ch in value:
                if ord(ch) < 32 or ord(ch) > 126:
                    return "wifi_password: printable ASCII only"
            return ""
        return "wifi_password: 8 to 63 characters (WPA2)"
    if key == "hall":
        from hall.broker import parse

        try:
            parse(value)
        except ValueError as e:
            return "hall: " + str(e)
        return ""
    from hall.message import check_key, check_name

    if key == "event":
        return check_name(value, "event") or ""
    if value == "(set)":
        return "hall_key: give the key itself, not what config get shows"
    reason = check_key(value)
    return "hall_" + reason if reason else ""
