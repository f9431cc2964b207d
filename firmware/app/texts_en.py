# English UI texts of `app`: key -> text. Generated once from the shared table;
# edit here.  Only the configured language (and English, for a key a
# translation lacks) is loaded: see i18n.py.  Every language has the same
# keys (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = {
    "recovered": "RECOVERED",
    "recovered_note": "After power loss",
    "recovered_wdt": "After a restart",
    "resume_hint": "Pause: resume",
    "not_recovered": "Game not saved",
    "battery_low": "BATTERY LOW",
    "battery_empty": "BATTERY EMPTY",
    "config_bad": "Config: defaults",
    "selftest": "SELF-TEST",
    "press": "Press:",
    "key": "Key:",
    "done": "DONE",
    "missing": "missing",
    "skip": "Hold pause: skip",
    "recovered_sleep": "After sleep",
    "game_saved": "Game saved",
    "charge_hint": "Charge, then\npress pause",
}
