# UI texts of the clock; look up with i18n.tr(TEXTS, key, lang).
# Short enough for a 16-character line.

TEXTS = {
    "overtime": {"de": "ÜBERZEIT", "en": "OVERTIME", "pl": "DOGRYWKA", "nb": "OVERTID"},
    "pause": {"de": "PAUSE", "en": "PAUSED", "pl": "PAUZA", "nb": "PAUSE"},
    "challenge": {"de": "EINSPRUCH", "en": "CHALLENGE", "pl": "SPRAWDZENIE", "nb": "UTFORDRING"},
    "hold": {"de": "VORBEHALT", "en": "HOLD", "pl": "WSTRZYMANIE", "nb": "VENT"},
    "forfeit": {"de": "VERLUST", "en": "FORFEIT", "pl": "WALKOWER", "nb": "TAPT"},
    "game_over": {"de": "SPIELENDE", "en": "GAME OVER", "pl": "KONIEC GRY", "nb": "SLUTT"},
    "late": {"de": "VERSPÄTET", "en": "LATE", "pl": "SPÓŹNIENIE", "nb": "FORSINKET"},
    "window": {"de": "ANFECHTEN", "en": "CHALLENGE?", "pl": "SPRAWDZIĆ?", "nb": "UTFORDRE?"},
    "reset_confirm": {"de": "RESET? BESTÄTIGEN", "en": "RESET? CONFIRM",
                      "pl": "RESET? POTWIERDŹ", "nb": "NULLSTILL? BEKREFT"},
    "accepted": {"de": "AKZEPTIERT", "en": "ACCEPTED", "pl": "PRZYJĘTY", "nb": "GODTATT"},
    "withdrawn": {"de": "ZURÜCKGENOMMEN", "en": "WITHDRAWN", "pl": "COFNIĘTY", "nb": "TRUKKET"},
    "penalty": {"de": "STRAFE", "en": "PENALTY", "pl": "KARA", "nb": "STRAFF"},
}
