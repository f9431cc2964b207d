# Polish UI texts of `clock`: key -> text. Generated once from the shared table;
# edit here.  Only the configured language (and English, for a key a
# translation lacks) is loaded: see i18n.py.  Every language has the same
# keys (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = {
    "overtime": "DOGRYWKA",
    "pause": "PAUZA",
    "challenge": "SPRAWDZENIE",
    "hold": "WSTRZYMANIE",
    "forfeit": "WALKOWER",
    "game_over": "KONIEC GRY",
    "late": "SPÓŹNIENIE",
    "window": "SPRAWDZIĆ?",
    "reset_confirm": "RESET? POTWIERDŹ",
    "accepted": "PRZYJĘTY",
    "withdrawn": "COFNIĘTY",
    "penalty": "KARA",
}
