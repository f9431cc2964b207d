# Norwegian (Bokmål) UI texts of `app`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each text fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py).

TEXTS = """\
recovered GJENOPPRETTET
recovered_note Etter strømbrudd
recovered_wdt Etter omstart
resume_hint Pause: fortsett
not_recovered Ingen lagring
battery_low LAVT BATTERI
battery_empty TOMT BATTERI
config_bad Feil i oppsett
selftest SELVTEST
press Trykk:
key Tast:
done FERDIG
missing mangler
skip Hold pause: hopp
wake_power Start: strøm på
wake_pause Vekket: pause
wake_other Vekket: annet!
wake_watchdog Start: vakthund
wake_reset Start: omstart
recovered_sleep Etter dvale
game_saved Parti lagret
charge_hint Lad opp, trykk\\nså pause
opponent MOTSPILLER
preset_next Neste: %s
log_full Logg full
not_saving Lagrer ikke
mark_log_full LOG!
mark_not_saving SAVE
referee_called Dommer tilkalt
"""
