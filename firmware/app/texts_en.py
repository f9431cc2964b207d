# English UI texts of `app`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each text fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py).

TEXTS = """\
recovered RECOVERED
recovered_note After power loss
recovered_wdt After a restart
resume_hint Pause: resume
not_recovered No saved game
battery_low BATTERY LOW
battery_empty BATTERY EMPTY
config_bad Config: defaults
selftest SELF-TEST
press Press:
key Key:
done DONE
missing missing
skip Hold pause: skip
wake_power Start: power on
wake_pause Woken: pause
wake_other Woken: other!
wake_watchdog Start: watchdog
wake_reset Start: reset
recovered_sleep After sleep
game_saved Game saved
charge_hint Charge, then\\npress pause
opponent OPPONENT
preset_next Next: %s
log_full Log full
not_saving Not saving
mark_log_full LOG!
mark_not_saving SAVE
referee_called Referee called
"""
