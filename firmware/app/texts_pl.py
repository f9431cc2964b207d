# Polish UI texts of `app`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = """\
recovered ODTWORZONO
recovered_note Po zaniku zasil.
recovered_wdt Po restarcie
resume_hint Pauza: dalej
not_recovered Gra utracona
battery_low SŁABA BATERIA
battery_empty BATERIA PUSTA
config_bad Błąd konfig.
selftest AUTOTEST
press Naciśnij:
key Klawisz:
done GOTOWE
missing brak
skip Trzymaj pauzę
recovered_sleep Po uśpieniu
game_saved Gra zapisana
charge_hint Naładuj, potem\\nnaciśnij pauzę
"""
