# German UI texts of `clock`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each text fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py).

TEXTS = """\
overtime ZEITÜBERSCHREITUNG
pause PAUSE
challenge ANFECHTUNG
hold VORBEHALT
forfeit SPIELVERLUST
game_over SPIELENDE
late VERSPÄTET
lent UHR VERLIEHEN
window ANFECHTPERIODE
reset_confirm RESET? BESTÄTIGEN
accepted AKZEPTIERT
withdrawn ZURÜCKGENOMMEN
penalty STRAFE
move ZUG %d
time_up ZEIT UM
"""
