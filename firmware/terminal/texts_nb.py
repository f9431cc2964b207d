# Norwegian (Bokmål) UI texts of `terminal`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each line fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py);
# "\n" separates lines; %d / %s are filled in.

TEXTS = """\
ready Klar
list Liste %s
no_list Ordliste mangler
bad_list Ordliste skadet
call_referee Tilkall\\ndommeren
key_challenge A Utfordring
key_referee D Dommer
not_now Ikke nå
challenge UTFORDRING
how_many Antall ord? 1-8
word_n Ord %d/%d
entry_keys *<  B>  #neste
opponent Motspiller:
confirm_keys C=riktig *=endre
confirmed Bekreftet.
check_key # = sjekk
acceptable GODKJENT
not_acceptable IKKE GODKJENT
withdrawn Trekk tilbake
penalty %d strafpoeng
lost_turn Mister turen
no_penalty Ingen straff
clock_runs Klokke: %s
side_0 venstre
side_1 høyre
game_over Slutt
referee_decides Dommeren\\navgjør
any_key Tast: videre
cancel_ask Avbryte\\nutfordringen?
yes_no #=ja  D=nei
pin PIN:
pin_wrong Feil PIN
locked Låst %d s
menu_title Dommer
menu_check 1 Sjekk ord
menu_settings 2 Innstillinger
menu_time 3 Juster tid
menu_reset 4 Nullstill
menu_exit D Avslutt
valid gyldig
invalid ugyldig
too_long utenfor listen
set_lang 1 Språk %s
set_verdict 2 Dom %d s
set_pin 3 Endre PIN
set_preset 4 %s
new_pin Ny PIN:
saved Lagret
rejected Avvist
adj_side Side 1=V 2=H
adj_secs Ny tid mm:ss
adj_keys *=minus  #=OK
reset_ask Nullstille?
done Ferdig
ref_accept 1 godkjent
ref_reject 2 ikke godkjent
last_move Siste trekk
key_hold B Hold
hold_on Hold meldt
key_accept C Godta
hold_noted Hold meldt
accepted_note Trekk godtatt
finish_ask Spillet slutt?\\n(siste trekk)
accept_ask Godta trekket\\n= spillet slutt?
ok_back #=OK  D=tilbake
result_title SLUTT
result_head   Tid     Straff
short_0 V
short_1 H
forfeit_by Taper: %s
note_5_2d 5.2d uten straff
yes_back #=ja  *=nei
menu_challenge 5 Utfordring
menu_resume 5 Start %s
chal_reenter 1 Ord på nytt
chal_cancel 2 Avbryt
ref_reenter 3 Ord på nytt
ref_cancel 4 Avbryt utf.
menu_back D Tilbake
next_game Fra neste parti
side_2 begge
withdraw_press Brikker tilbake;\\n%s trykker
menu_game 6 Parti
g_lend 1 Lån: %s
g_turn 2 Tur: %s
g_end 3 Avslutt parti
undo_end 4 Angre slutt
undo_accept 4 Angre godtatt
undo_forfeit 4 Angre tap
g_continue 5 Fortsett
g_late 6 Forsinket
end_with 1 Med 5.2d
end_without 2 Uten 5.2d
set_move 5 Trekk %d:%02d
moves_n Trekk: %d
key_help A Tastoppsett
help_title Tastoppsett
start_hint Motpart trykker
pin_default PIN ennå 0000!
pen_overtime Overtid
pen_challenge Utfordring
score_of Poeng %s:
score_hint (uten straff)
score_keys *<  #=OK
key_scores A Skriv poeng
col_sheet Ark
col_time Tid
col_chal Utf.
col_final Sum
"""
