# Norwegian (Bokmål) UI texts of `clock`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Short enough for a 16-character line.

TEXTS = """\
overtime OVERTID
pause PAUSE
challenge UTFORDRING
hold HOLD
forfeit TAPT
game_over SLUTT
late FORSINKET
lent KLOKKE UTLÅNT
window UTFORDRE?
reset_confirm NULLSTILL? BEKREFT
accepted GODTATT
withdrawn TRUKKET
penalty STRAFF
move TREKK %d
time_up TIDEN UTE
"""
