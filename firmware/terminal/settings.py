# The settings the terminal reads and the referee menu edits, with their checks.
# The runtime may pass its own configuration object instead of DictSettings: it
# needs get(key, default) and set(key, value) -> (ok, message), and set() must
# reject a bad value without applying it.

from i18n import LANGUAGES

DEFAULTS = {
    "lang": "de",
    "verdict_ms": 10000,     # how long a verdict stays on screen
    "multitap_ms": 1000,     # pause that commits a letter on the same key
    "referee_pin": "0000",
}

VERDICT_CHOICES_MS = (5000, 10000, 15000, 20000, 30000, 60000)


def check(key, value):
    """(True, "") or (False, message) for one terminal setting."""
    if key == "lang":
        if value not in LANGUAGES:
            return False, "lang: one of " + " ".join(LANGUAGES)
    elif key == "verdict_ms":
        if not isinstance(value, int) or not 1000 <= value <= 120000:
            return False, "verdict_ms: 1000-120000"
    elif key == "multitap_ms":
        if not isinstance(value, int) or not 300 <= value <= 3000:
            return False, "multitap_ms: 300-3000"
    elif key == "referee_pin":
        if not isinstance(value, str) or not 4 <= len(value) <= 8 or not value.isdigit():
            return False, "referee_pin: 4-8 digits"
    return True, ""


class DictSettings:
    def __init__(self, values=None):
        self.values = dict(DEFAULTS)
        if values:
            for key in values:
                ok, message = self.set(key, values[key])
                if not ok:
                    raise ValueError(message)

    def get(self, key, default=None):
        return self.values.get(key, default)

    def set(self, key, value):
        ok, message = check(key, value)
        if ok:
            self.values[key] = value
        return ok, message
