# Norwegian (Bokmål) UI texts of `app`: key -> text. Generated once from the shared table;
# edit here.  Only the configured language (and English, for a key a
# translation lacks) is loaded: see i18n.py.  Every language has the same
# keys (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = {
    "recovered": "GJENOPPRETTET",
    "recovered_note": "Etter strømbrudd",
    "recovered_wdt": "Etter omstart",
    "resume_hint": "Pause: fortsett",
    "not_recovered": "Parti tapt",
    "battery_low": "LAVT BATTERI",
    "battery_empty": "TOMT BATTERI",
    "config_bad": "Feil i oppsett",
    "selftest": "SELVTEST",
    "press": "Trykk:",
    "key": "Tast:",
    "done": "FERDIG",
    "missing": "mangler",
    "skip": "Hold pause: hopp",
    "recovered_sleep": "Etter dvale",
    "game_saved": "Parti lagret",
    "charge_hint": "Lad opp, trykk\nså pause",
}
