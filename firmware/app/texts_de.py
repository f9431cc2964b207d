# German UI texts of `app`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each text fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py).

TEXTS = """\
recovered WIEDERHERGESTELLT
recovered_note Stromausfall
recovered_wdt Nach Neustart
resume_hint Pause: weiter
not_recovered Kein Spielstand
battery_low AKKU SCHWACH
battery_empty AKKU LEER
config_bad Standardwerte
selftest SELBSTTEST
press Drücken:
key Taste:
done FERTIG
missing fehlt
skip Pause halten
wake_power Start: Strom an
wake_pause Geweckt: Pause
wake_other Geweckt: fremd!
wake_watchdog Start: Watchdog
wake_reset Start: Reset
recovered_sleep Nach Ruhemodus
game_saved Spiel gesichert
charge_hint Laden, dann\\nPause drücken
opponent GEGNER
preset_next Dann: %s
log_full Protokoll voll
not_saving Keine Sicherung
mark_log_full LOG!
mark_not_saving SAVE
referee_called Schiri gerufen
"""
