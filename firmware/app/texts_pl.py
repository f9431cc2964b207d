# Polish UI texts of `app`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each text fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py).

TEXTS = """\
recovered ODTWORZONO
recovered_note Po braku prądu
recovered_wdt Po restarcie
resume_hint Pauza: dalej
not_recovered Brak zapisu gry
battery_low SŁABA BATERIA
battery_empty BATERIA PUSTA
config_bad Ustawienia: błąd
selftest AUTOTEST
press Naciśnij:
key Klawisz:
done GOTOWE
missing brak
skip Trzymaj pauzę
wake_power Start: zasilanie
wake_pause Pobudka: pauza
wake_other Pobudka: inna!
wake_watchdog Start: watchdog
wake_reset Start: reset
recovered_sleep Po uśpieniu
game_saved Gra zapisana
charge_hint Naładuj, potem\\nnaciśnij pauzę
opponent PRZECIWNIK
preset_next Potem: %s
log_full Dziennik pełny
not_saving Nie zapisuje
mark_log_full LOG!
mark_not_saving SAVE
referee_called Sędzia wezwany
"""
