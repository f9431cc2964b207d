# German UI texts of `app`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = """\
recovered WIEDERHERGEST.
recovered_note Nach Stromausfall
recovered_wdt Nach Neustart
resume_hint Pause: weiter
not_recovered Spiel verloren
battery_low AKKU SCHWACH
battery_empty AKKU LEER
config_bad Konfig. fehlerh.
selftest SELBSTTEST
press Drücken:
key Taste:
done FERTIG
missing fehlt
skip Pause halten: weiter
recovered_sleep Nach Ruhemodus
game_saved Spiel gesichert
charge_hint Laden, dann\\nPause drücken
"""
