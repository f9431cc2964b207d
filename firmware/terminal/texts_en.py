# English UI texts of `terminal`, one a line: its key, a space, the text ("\n" in a
# text breaks the line on the display).  One string rather than a table: on the
# chip it stays in flash, and neither the short texts nor the keys no loaded code
# names take a qstr (docs/runtime.md, Memory); i18n.py makes the table of the
# language in use from it.  Only the configured language (and English, for a key
# a translation lacks) is loaded.  Every language has the same keys
# (tests/firmware/test_i18n.py).
# Each line fits the panel at the size it is drawn (tests/firmware/test_texts_fit.py);
# "\n" separates lines; %d / %s are filled in.

TEXTS = """\
ready Ready
list List %s
no_list No word list
bad_list Bad word list
call_referee Call the\\nreferee
key_challenge A Challenge
key_referee D Referee
not_now Not now
challenge CHALLENGE
how_many Words? 1-8
word_n Word %d/%d
entry_keys *<  B>  #next
opponent Opponent checks
confirm_keys C=correct *=edit
confirmed Confirmed.
check_key # = check
acceptable ACCEPTABLE
not_acceptable NOT ACCEPTABLE
withdrawn Play withdrawn
penalty %d penalty pts
lost_turn Turn lost
no_penalty No penalty
clock_runs Clock: %s
side_0 left
side_1 right
game_over Game over
referee_decides Referee\\ndecides
any_key Key: continue
cancel_ask Cancel the\\nchallenge?
yes_no #=yes  D=no
pin PIN:
pin_wrong Wrong PIN
locked Locked %d s
menu_title Referee
menu_check 1 Check words
menu_settings 2 Settings
menu_time 3 Adjust time
menu_reset 4 Reset clock
menu_exit D Exit
valid valid
invalid invalid
too_long beyond the list
set_lang 1 Lang. %s
set_verdict 2 Verdict %d s
set_pin 3 Change PIN
set_preset 4 %s
new_pin New PIN:
saved Saved
rejected Rejected
adj_side Side 1=L 2=R
adj_secs New time mm:ss
adj_keys *=minus  #=OK
reset_ask Reset the clock?
done Done
ref_accept 1 acceptable
ref_reject 2 not acceptable
last_move Last move
key_hold B Hold
hold_on Hold declared
key_accept C Accept
hold_noted Hold
accepted_note Play accepted
finish_ask Game over?\\n(last move)
accept_ask Accept the play\\n= game over?
ok_back #=OK  D=back
result_title END
result_head   Time    Pen.
short_0 L
short_1 R
forfeit_by Forfeit: %s
note_5_2d 5.2d: no OT pen.
yes_back #=yes  *=no
menu_challenge 5 Challenge
menu_resume 5 Resume %s
chal_reenter 1 Words again
chal_cancel 2 Cancel it
ref_reenter 3 Words again
ref_cancel 4 Cancel chall.
menu_back D Back
next_game From next game
side_2 both
withdraw_press Tiles back; then\\n%s presses
menu_game 6 Game
g_lend 1 Lend to %s
g_turn 2 Turn to %s
g_end 3 End game
undo_end 4 Undo end
undo_accept 4 Undo accept
undo_forfeit 4 Undo forfeit
g_continue 5 Continue
g_late 6 Late clock
end_with 1 With 5.2d
end_without 2 Without 5.2d
set_move 5 Move %d:%02d
moves_n Moves: %d
key_help A Key layout
help_title Key layout
start_hint Opponent presses
pin_default PIN still 0000!
pen_overtime Overtime
pen_challenge Challenges
score_of Score %s:
score_hint (no penalties)
score_keys *<  #=OK
key_scores A Enter scores
col_sheet Sheet
col_time Time
col_chal Chal.
col_final Final
"""
