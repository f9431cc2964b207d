# German UI texts of `terminal`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each line fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py);
# "\n" separates lines; %d / %s are filled in.

TEXTS = """\
ready Bereit
list Liste %s
no_list Wortliste fehlt
bad_list Wortliste defekt
call_referee Schiedsrichter\\nrufen
key_challenge A Anfechtung
key_referee D Schiedsrichter
not_now Jetzt nicht
challenge ANFECHTUNG
how_many Wörter? 1-8
word_n Wort %d/%d
entry_keys *<  B>  #weiter
opponent Gegner prüft:
confirm_keys C=ja *=ändern
confirmed Bestätigt.
check_key # = prüfen
acceptable ZULÄSSIG
not_acceptable UNZULÄSSIG
withdrawn Zug zurück, 0 P.
penalty %d Strafpunkte
lost_turn Zugverlust
no_penalty Keine Strafe
clock_runs Uhr: %s
side_0 links
side_1 rechts
game_over Spielende
referee_decides Schiedsrichter\\nentscheidet
any_key Taste: weiter
cancel_ask Anfechtung\\nabbrechen?
yes_no #=ja  D=nein
pin PIN:
pin_wrong PIN falsch
locked Gesperrt %d s
menu_title Schiedsrichter
menu_check 1 Wörter prüfen
menu_settings 2 Einstellungen
menu_time 3 Zeit ändern
menu_reset 4 Uhr zurücks.
menu_exit D Ende
valid gültig
invalid ungültig
too_long zu lang: Liste
set_lang 1 Sprache %s
set_verdict 2 Urteil %d s
set_pin 3 PIN ändern
set_preset 4 %s
new_pin Neue PIN:
saved Gespeichert
rejected Abgelehnt
adj_side Seite 1=L 2=R
adj_secs Neue Zeit mm:ss
adj_keys *=minus  #=OK
reset_ask Uhr auf Anfang?
done Erledigt
ref_accept 1 zulässig
ref_reject 2 unzulässig
last_move Letzter Zug
key_hold B Vorbehalt
hold_on Vorbehalt gilt
key_accept C Akzeptieren
hold_noted Vorbehalt
accepted_note Zug akzeptiert
finish_ask Spielende?\\n(letzter Zug)
accept_ask Zug akzeptieren\\n= Spielende?
ok_back #=OK  D=zurück
result_title ENDE
result_head   Zeit    Strafe
short_0 L
short_1 R
forfeit_by Verloren: %s
note_5_2d 5.2d ohne Strafe
yes_back #=ja  *=nein
menu_challenge 5 Anfechtung
menu_resume 5 Weiter %s
chal_reenter 1 Wörter neu
chal_cancel 2 Abbrechen
ref_reenter 3 Wörter neu
ref_cancel 4 Anf. abbrechen
menu_back D Zurück
next_game Ab nächst. Spiel
side_2 beide
withdraw_press Steine zurück;\\n%s drückt
menu_game 6 Spiel
g_lend 1 Uhr an %s
g_turn 2 Zug an %s
g_end 3 Spiel beenden
undo_end 4 Ende zurück
undo_accept 4 Annahme zurück
undo_forfeit 4 Verlust zurück
g_continue 5 Weiterspielen
g_late 6 Verspätung
end_with 1 Mit 5.2d
end_without 2 Ohne 5.2d
set_move 5 Zug %d:%02d
moves_n Züge: %d
key_help A Tastenbelegung
help_title Tastenbelegung
start_hint Gegner drückt
pin_default PIN noch 0000!
pen_overtime Zeitstrafe
pen_challenge Anfechtung
score_of Punkte %s:
score_hint (ohne Strafen)
score_keys *<  #=OK
key_scores A Punkteingabe
col_sheet Bogen
col_time Zeit
col_chal Anf.
col_final Summe
"""
