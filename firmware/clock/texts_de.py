# German UI texts of `clock`: key -> text. Generated once from the shared table;
# edit here.  Only the configured language (and English, for a key a
# translation lacks) is loaded: see i18n.py.  Every language has the same
# keys (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = {
    "overtime": "ÜBERZEIT",
    "pause": "PAUSE",
    "challenge": "EINSPRUCH",
    "hold": "VORBEHALT",
    "forfeit": "VERLUST",
    "game_over": "SPIELENDE",
    "late": "VERSPÄTET",
    "window": "ANFECHTEN",
    "reset_confirm": "RESET? BESTÄTIGEN",
    "accepted": "AKZEPTIERT",
    "withdrawn": "ZURÜCKGENOMMEN",
    "penalty": "STRAFE",
}
