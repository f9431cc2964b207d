# Norwegian (Bokmål) UI texts of `clock`: key -> text. Generated once from the shared table;
# edit here.  Only the configured language (and English, for a key a
# translation lacks) is loaded: see i18n.py.  Every language has the same
# keys (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = {
    "overtime": "OVERTID",
    "pause": "PAUSE",
    "challenge": "UTFORDRING",
    "hold": "VENT",
    "forfeit": "TAPT",
    "game_over": "SLUTT",
    "late": "FORSINKET",
    "window": "UTFORDRE?",
    "reset_confirm": "NULLSTILL? BEKREFT",
    "accepted": "GODTATT",
    "withdrawn": "TRUKKET",
    "penalty": "STRAFF",
}
