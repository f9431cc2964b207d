# Polish UI texts of `terminal`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each line fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py);
# "\n" separates lines; %d / %s are filled in.

TEXTS = """\
ready Gotowy
list Lista %s
no_list Brak listy słów
bad_list Lista uszkodzona
call_referee Wezwij\\nsędziego
key_challenge A Sprawdzenie
key_referee D Sędzia
not_now Nie teraz
challenge SPRAWDZENIE
how_many Ile słów? 1-8
word_n Słowo %d/%d
entry_keys *<  B>  #dalej
opponent Przeciwnik:
confirm_keys C=tak *=popraw
confirmed Potwierdzone.
check_key # = sprawdź
acceptable DOPUSZCZALNE
not_acceptable NIEDOPUSZCZALNE
withdrawn Ruch cofnięty
penalty %d pkt. kary
lost_turn Utrata kolejki
no_penalty Bez kary
clock_runs Zegar: %s
side_0 lewy
side_1 prawy
game_over Koniec gry
referee_decides Decyzja\\nsędziego
any_key Klawisz: dalej
cancel_ask Anulować\\nsprawdzenie?
yes_no #=tak  D=nie
pin PIN:
pin_wrong Zły PIN
locked Blokada %d s
menu_title Sędzia
menu_check 1 Sprawdź słowa
menu_settings 2 Ustawienia
menu_time 3 Korekta czasu
menu_reset 4 Reset zegara
menu_exit D Wyjście
valid dopuszczalne
invalid niedopuszczalne
too_long poza listą
set_lang 1 Język %s
set_verdict 2 Werdykt %d s
set_pin 3 Zmień PIN
set_preset 4 %s
new_pin Nowy PIN:
saved Zapisano
rejected Odrzucono
adj_side Strona 1=L 2=P
adj_secs Nowy czas mm:ss
adj_keys *=minus  #=OK
reset_ask Zresetować?
done Gotowe
ref_accept 1 dopuszczalne
ref_reject 2 niedopuszcz.
last_move Ostatni ruch
key_hold B Wstrzymanie
hold_on Wstrzymano
key_accept C Akceptuj
hold_noted Wstrzymano
accepted_note Ruch przyjęty
finish_ask Koniec gry?\\n(ostatni ruch)
accept_ask Przyjąć ruch\\n= koniec gry?
ok_back #=OK  D=wróć
result_title KONIEC
result_head   Czas      Kara
short_0 L
short_1 P
forfeit_by Przegrał: %s
note_5_2d 5.2d: bez kary
yes_back #=tak  *=nie
menu_challenge 5 Sprawdzenie
menu_resume 5 Wznów %s
chal_reenter 1 Słowa od nowa
chal_cancel 2 Anuluj
ref_reenter 3 Słowa od nowa
ref_cancel 4 Anuluj spraw.
menu_back D Wstecz
next_game Od następnej gry
side_2 obaj
withdraw_press Zdejmij płytki;\\n%s naciska
menu_game 6 Gra
g_lend 1 Zegar: %s
g_turn 2 Ruch: %s
g_end 3 Zakończ grę
undo_end 4 Cofnij koniec
undo_accept 4 Cofnij przyj.
undo_forfeit 4 Cofnij walk.
g_continue 5 Kontynuuj
g_late 6 Spóźnienie
end_with 1 Z 5.2d
end_without 2 Bez 5.2d
set_move 5 Ruch %d:%02d
moves_n Ruchy: %d
key_help A Układ klawiszy
help_title Układ klawiszy
start_hint Rywal naciska
pin_default PIN nadal 0000!
pen_overtime Kara czasu
pen_challenge Sprawdzenia
score_of Wynik: %s
score_hint (bez kar)
score_keys *<  #=OK
key_scores A Wpisz wyniki
col_sheet Arkusz
col_time Czas
col_chal Spr.
col_final Wynik
"""
