# English UI texts of `clock`: key -> text. Generated once from the shared table;
# edit here.  Only the configured language (and English, for a key a
# translation lacks) is loaded: see i18n.py.  Every language has the same
# keys (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = {
    "overtime": "OVERTIME",
    "pause": "PAUSED",
    "challenge": "CHALLENGE",
    "hold": "HOLD",
    "forfeit": "FORFEIT",
    "game_over": "GAME OVER",
    "late": "LATE",
    "window": "CHALLENGE?",
    "reset_confirm": "RESET? CONFIRM",
    "accepted": "ACCEPTED",
    "withdrawn": "WITHDRAWN",
    "penalty": "PENALTY",
}
