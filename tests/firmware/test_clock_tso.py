# Scenario tests that follow the TSO (SDeV Turnierspielordnung) clause by
# clause; each test is named after the clause it checks.

from clock_helpers import MIN, SEC, Table, game
from clock.engine import (CUE_FORFEIT, CUE_GAME_OVER, CUE_OVERTIME, CUE_OVERTIME_MINUTE,
                          CUE_WINDOW_CLOSED, PHASE_ENDING, PHASE_OVER, PHASE_PLAY, PHASE_SETUP)


def test_tso_1_1b_each_player_has_30_minutes():
    table = Table()
    assert table.text(0) == " 30:00" and table.text(1) == " 30:00"
    assert Table("tso25").text(1) == " 25:00"


def test_tso_1_4_1a_reset_needs_a_request_and_its_confirmation():
    table = game()
    table.wait(3 * MIN)
    assert not table.engine.confirm_reset(0)
    token = table.engine.request_reset()
    assert not table.engine.confirm_reset(token + 1)  # a wrong token also cancels the request
    assert not table.engine.confirm_reset(token)
    token = table.engine.request_reset()
    table.press(0)  # any event in between cancels the request
    assert not table.engine.confirm_reset(token)
    assert table.engine.phase == PHASE_PLAY
    token = table.engine.request_reset()
    assert table.engine.confirm_reset(token)
    assert table.engine.phase == PHASE_SETUP
    assert table.text(0) == " 30:00" and not table.show(1).running


def test_tso_1_4_2a_i_count_down_in_minutes_and_seconds():
    table = game()
    assert table.text(0) == " 30:00"
    table.wait(1)
    assert table.text(0) == " 30:00"  # seconds round up: 0:00 only at exactly zero
    table.wait(999)
    assert table.text(0) == " 29:59"
    table.wait(29 * MIN + 58 * SEC)
    assert table.text(0) == " 00:01" and table.left(0) == 1000
    assert table.text(1) == " 30:00"


def test_tso_2_3_opponent_press_starts_the_starting_player():
    table = Table()
    assert not table.show(0).running and not table.show(1).running
    table.wait(10 * SEC)  # before the game nothing is charged
    assert table.press(1)
    assert table.engine.phase == PHASE_PLAY and table.engine.on_turn == 0
    d = table.show(0)
    assert d.running and d.on_turn and not d.window_open  # no play to challenge yet
    table.wait(5 * SEC)
    assert table.left(0) == 30 * MIN - 5 * SEC and table.left(1) == 30 * MIN


def test_tso_2_3_press_by_the_side_not_running_does_nothing():
    table = game()
    table.wait(4 * SEC)
    assert not table.press(1)
    table.wait(1 * SEC)
    assert table.engine.on_turn == 0 and table.used(0) == 5 * SEC and table.used(1) == 0


def test_tso_2_4b_referee_runs_the_late_players_clock_until_arrival():
    table = Table()
    assert table.engine.late_start(table.now(), 1)
    d = table.show(1)
    assert d.running and d.late
    table.wait(7 * MIN)
    assert table.engine.arrive(table.now(), 1)
    assert not table.show(1).running
    table.wait(2 * MIN)  # drawing for the start: no clock runs
    assert table.left(1) == 23 * MIN and table.left(0) == 30 * MIN
    table.press(0)  # the late player begins with the shortened time (2.4b i)
    table.wait(1 * SEC)
    assert table.left(1) == 23 * MIN - 1 * SEC
    assert table.engine.result()["sides"][1]["late_ms"] == 7 * MIN


def test_tso_2_4b_i_the_starting_press_stops_a_late_clock():
    table = Table()
    table.engine.late_start(table.now(), 0)
    table.wait(3 * MIN)
    table.press(0)  # the late player arrived and the game starts: 1's clock runs
    table.wait(10 * SEC)
    assert table.used(0) == 3 * MIN and table.used(1) == 10 * SEC


def test_tso_2_4b_ii_more_than_15_minutes_late_scores_for_the_opponent():
    table = Table()
    table.engine.late_start(table.now(), 0)
    assert not table.wait(15 * MIN) & CUE_FORFEIT
    cues = table.wait(1)
    assert cues & CUE_FORFEIT and cues & CUE_GAME_OVER
    assert table.engine.forfeit_side == 0 and table.engine.result()["forfeit_reason"] == "late"
    assert table.show(0).forfeit and not table.show(1).forfeit and table.show(1).game_over
    assert not table.press(1)  # the game is not started any more


def test_tso_2_4c_both_late_both_lose_their_time():
    table = Table()
    table.engine.late_start(table.now(), 0)
    table.wait(2 * MIN)
    table.engine.late_start(table.now(), 1)
    table.wait(3 * MIN)
    assert table.show(0).late and table.show(1).late
    table.engine.arrive(table.now(), 0)
    table.wait(1 * MIN)
    table.engine.arrive(table.now(), 1)
    assert table.left(0) == 25 * MIN and table.left(1) == 26 * MIN


def test_tso_3_1_1c_press_ends_the_turn_and_starts_the_opponent():
    table = game()
    table.wait(40 * SEC)
    assert table.press(0)
    assert table.engine.on_turn == 1 and table.show(1).running and not table.show(0).running
    table.wait(25 * SEC)
    assert table.used(0) == 40 * SEC and table.used(1) == 25 * SEC


def test_tso_3_1_1_opponent_restarts_the_players_clock_to_note_the_score():
    table = game()
    table.wait(40 * SEC)
    table.press(0)  # pressed without noting the score
    table.wait(2 * SEC)
    table.press(1)  # the opponent restarts the player's clock
    table.wait(8 * SEC)  # the player notes the score on their own time
    table.press(0)
    assert table.used(0) == 48 * SEC and table.used(1) == 2 * SEC
    assert table.show(1).window_s == 20  # the window counts from the last press


def test_tso_3_1_2_challenge_window_of_20s_is_shown_to_both_then_accepted():
    table = game()
    table.wait(30 * SEC)
    table.press(0)
    assert table.show(0).window_s == 20 and table.show(1).window_s == 20
    assert table.show(0).window_open and table.show(1).window_open
    assert not table.wait(20 * SEC - 1) & CUE_WINDOW_CLOSED
    assert table.show(1).window_s == 1
    assert table.engine.challenger_side() == 1
    assert table.wait(1) & CUE_WINDOW_CLOSED
    assert table.show(0).window_s == 0 and not table.show(1).window_open
    assert table.engine.challenger_side() == -1
    assert not table.engine.start_challenge(table.now(), 1)  # accepted: too late


def test_tso_3_1_2_writing_the_score_accepts_the_play_at_once():
    table = game()
    table.press(0)
    table.wait(5 * SEC)
    assert not table.engine.accept(table.now(), 0)  # only the opponent accepts
    assert table.engine.accept(table.now(), 1)
    assert not table.show(0).window_open
    assert not table.engine.start_challenge(table.now(), 1)


def test_tso_3_1_3_hold_is_shown_and_ends_with_the_20s():
    table = game()
    table.press(0)
    table.wait(3 * SEC)
    assert not table.engine.hold(table.now(), 0)  # the player cannot hold their own play
    assert table.engine.hold(table.now(), 1)
    assert table.show(0).hold and table.show(1).hold
    assert table.show(1).running  # hold does not stop the holder's clock
    table.wait(17 * SEC)  # 3.1.3b: no challenge within 20 s: accepted
    assert not table.show(1).hold and not table.show(1).window_open


def test_tso_3_1_4b_challenge_stops_the_clock():
    table = game()
    table.wait(50 * SEC)
    table.press(0)
    table.wait(5 * SEC)
    assert not table.engine.start_challenge(table.now(), 0)
    assert table.engine.start_challenge(table.now(), 1)
    assert table.show(0).challenging and table.show(1).challenging
    assert not table.show(0).running and not table.show(1).running
    table.wait(3 * MIN)  # checking the words costs nobody time
    assert table.used(0) == 50 * SEC and table.used(1) == 5 * SEC
    assert not table.press(1) and not table.engine.pause(table.now())


def test_tso_3_1_4_one_invalid_word_withdraws_the_play_and_the_challengers_clock_runs():
    table = game()
    table.wait(50 * SEC)
    table.press(0)
    table.wait(4 * SEC)
    table.engine.start_challenge(table.now(), 1)
    table.wait(1 * MIN)
    outcome = table.engine.challenge_verdict(table.now(), False, 3)
    assert outcome.withdrawn and outcome.penalty_points == 0 and outcome.penalty_side == -1
    assert outcome.runs == 1 and not outcome.lost_turn and not outcome.game_over
    assert table.engine.on_turn == 1 and table.show(1).running
    table.wait(2 * SEC)
    assert table.used(1) == 6 * SEC and table.used(0) == 50 * SEC
    assert table.show(1).penalty_points == 0


def test_tso_3_1_4_valid_words_cost_the_challenger_10_points_each():
    table = game()
    table.press(0)
    table.wait(2 * SEC)
    table.engine.start_challenge(table.now(), 1)
    outcome = table.engine.challenge_verdict(table.now(), True, 3)
    assert not outcome.withdrawn and outcome.penalty_side == 1 and outcome.penalty_points == 30
    assert outcome.runs == 1  # the challenger goes on with their turn
    d = table.show(1)
    assert d.challenge_penalty == 30 and d.penalty_points == 30 and d.running
    assert table.show(0).penalty_points == 0


def test_tso_3_1_4_verdict_without_a_challenge_does_nothing():
    table = game()
    assert table.engine.challenge_verdict(table.now(), True, 1) is None


def test_tso_3_1_4_referee_can_cancel_a_challenge():
    table = game()
    table.press(0)
    table.wait(2 * SEC)
    table.engine.start_challenge(table.now(), 1)
    table.wait(30 * SEC)
    assert table.engine.cancel_challenge(table.now())
    assert table.show(1).running and not table.show(1).challenging
    table.wait(1 * SEC)
    assert table.used(1) == 3 * SEC


def test_tso_4_1_central_switch_stops_the_running_clock_and_resume_continues_it():
    table = game()
    table.wait(10 * SEC)
    table.press(0)
    table.wait(5 * SEC)
    assert table.engine.pause(table.now())
    assert table.show(0).paused and table.show(1).paused and not table.show(1).running
    assert not table.press(1)  # nothing happens at a stopped clock
    table.wait(10 * MIN)
    assert table.show(1).window_s == 15  # the challenge window is frozen too
    assert table.engine.resume(table.now())
    assert table.show(1).running and not table.show(1).paused
    table.wait(1 * SEC)
    assert table.used(1) == 6 * SEC and table.used(0) == 10 * SEC
    assert table.show(0).window_s == 14


def test_tso_4_1e_referee_resumes_either_side():
    table = game()
    table.wait(10 * SEC)
    table.engine.pause(table.now())
    table.wait(1 * MIN)
    assert table.engine.resume(table.now(), 1)
    assert table.engine.on_turn == 1 and table.show(1).running and not table.show(0).running
    table.wait(3 * SEC)
    assert table.used(0) == 10 * SEC and table.used(1) == 3 * SEC
    assert not table.engine.resume(table.now())  # not paused


def test_tso_4_2_a_player_away_from_the_table_keeps_their_clock_running():
    table = game()
    table.wait(30 * SEC)  # made the move, noted the score, left the table, clock running
    table.wait(3 * MIN)
    table.press(0)  # back: starts the opponent's clock
    assert table.used(0) == 3 * MIN + 30 * SEC and table.used(1) == 0


def test_tso_5_1b_last_mover_stops_the_clock_and_the_opponent_accepts():
    table = game()
    table.wait(20 * SEC)
    table.press(0)
    table.wait(40 * SEC)
    assert not table.engine.finish(table.now(), 0)  # only the running side's last move
    assert table.engine.finish(table.now(), 1)
    assert table.engine.phase == PHASE_ENDING
    assert not table.show(0).running and not table.show(1).running
    assert table.engine.on_turn == -1 and table.engine.challenger_side() == 0
    table.wait(5 * SEC)
    cues = table.engine.update(table.now())
    assert not cues & CUE_GAME_OVER
    assert table.engine.accept(table.now(), 0)
    assert table.engine.phase == PHASE_OVER and table.show(0).game_over
    result = table.engine.result()
    assert result["sides"][0]["used_ms"] == 20 * SEC and result["sides"][1]["used_ms"] == 40 * SEC


def test_tso_5_1b_ii_the_final_play_is_accepted_when_the_window_ends():
    table = game()
    table.press(0)
    table.engine.finish(table.now(), 1)
    assert table.wait(20 * SEC) & CUE_GAME_OVER
    assert table.engine.phase == PHASE_OVER


def test_tso_5_1b_iii_hold_restarts_the_opponents_clock_at_once():
    table = game()
    table.press(0)
    table.wait(10 * SEC)
    table.engine.finish(table.now(), 1)
    table.wait(2 * SEC)
    assert table.engine.hold(table.now(), 0)
    assert table.show(0).running and table.show(0).hold
    table.wait(7 * SEC)
    assert table.engine.end_game(table.now())
    assert table.engine.result()["sides"][0]["used_ms"] == 7 * SEC


def test_tso_5_1b_iv_a_successful_challenge_of_the_last_play_continues_the_game():
    table = game()
    table.press(0)
    table.wait(10 * SEC)
    table.engine.finish(table.now(), 1)
    table.engine.start_challenge(table.now(), 0)
    outcome = table.engine.challenge_verdict(table.now(), False, 1)
    assert outcome.withdrawn and not outcome.game_over and outcome.runs == 0
    assert table.engine.phase == PHASE_PLAY and table.show(0).running


def test_tso_5_1b_v_an_unsuccessful_challenge_of_the_last_play_ends_the_game():
    table = game()
    table.press(0)
    table.engine.finish(table.now(), 1)
    table.engine.start_challenge(table.now(), 0)
    outcome = table.engine.challenge_verdict(table.now(), True, 2)
    assert outcome.game_over and outcome.penalty_points == 20 and outcome.runs == -1
    assert table.engine.phase == PHASE_OVER
    assert table.engine.result()["sides"][0]["challenge_penalty"] == 20


def test_tso_5_2a_overtime_begins_at_minus_00_01_and_counts_up():
    table = game()
    table.wait(30 * MIN)
    d = table.show(0)
    assert table.text(0) == " 00:00" and not d.overtime
    cues = table.wait(1)
    d = table.show(0)
    assert cues & CUE_OVERTIME
    assert d.overtime and d.overtime_ms == 1 and d.remaining_ms == 0
    assert table.text(0) == "-00:01"
    table.wait(61 * SEC)
    assert table.text(0) == "-01:02"


def test_tso_5_2b_10_points_per_started_minute_of_overtime():
    table = game()
    table.wait(30 * MIN)
    assert table.show(0).overtime_penalty == 0
    table.wait(1)
    assert table.show(0).overtime_penalty == 10
    table.wait(1 * MIN - 1)
    assert table.show(0).overtime_penalty == 10
    assert table.wait(1) & CUE_OVERTIME_MINUTE
    assert table.show(0).overtime_penalty == 20 and table.show(0).penalty_points == 20
    assert table.engine.penalty_for(4 * MIN + 1) == 50


def test_tso_5_2c_more_than_5_minutes_overtime_forfeits_at_that_very_moment():
    table = game()
    table.wait(35 * MIN)
    assert not table.show(0).forfeit
    table.clock.advance(10 * SEC)  # no update in between: the forfeit still dates from 35:00.001
    assert not table.press(0)
    assert table.engine.forfeit_side == 0 and table.engine.phase == PHASE_OVER
    assert table.used(0) == 35 * MIN + 1
    cues = table.engine.update(table.now())
    assert cues & CUE_FORFEIT and cues & CUE_GAME_OVER
    d = table.show(0)
    assert d.forfeit and d.game_over and not d.running and d.overtime_penalty == 60
    assert table.engine.result()["forfeit_reason"] == "overtime"


def test_tso_5_2d_no_penalty_when_the_opponents_clock_was_restarted_at_the_end():
    table = game()
    table.wait(29 * MIN)
    table.press(0)
    table.wait(10 * SEC)
    table.press(1)  # the last move; 1 presses instead of stopping the clock
    table.wait(2 * MIN)  # 0's clock shows overtime
    assert table.show(0).overtime_penalty == 10
    assert table.engine.end_game(table.now())
    result = table.engine.result()
    assert result["sides"][0]["overtime_ms"] == 1 * MIN
    assert result["sides"][0]["overtime_penalty"] == 0 and "5.2d" in result["notes"]
    assert table.show(0).overtime_penalty == 0


def test_tso_5_2d_overtime_from_before_the_last_move_is_still_penalised():
    table = game()
    table.wait(31 * MIN + 1)  # 0 is in overtime at their own move
    table.press(0)
    table.wait(10 * SEC)
    table.press(1)
    table.wait(30 * SEC)
    table.engine.end_game(table.now())
    side = table.engine.result()["sides"][0]
    assert side["overtime_penalty"] == 20  # 1:00.001 before the last move; 30 s excused
    assert side["excused_overtime_ms"] == 30 * SEC


def test_tso_7_3_2_2_referee_time_credit_and_deduction():
    table = game()
    table.wait(10 * SEC)
    assert table.engine.adjust(table.now(), 1, -2 * MIN)
    assert table.engine.adjust(table.now(), 0, 1 * MIN)
    assert table.left(1) == 28 * MIN and table.left(0) == 31 * MIN - 10 * SEC
    assert table.used(0) == 10 * SEC  # the charged time is untouched


def test_tso_7_3_2_2_a_deduction_past_the_overtime_cap_forfeits():
    table = game()
    table.wait(29 * MIN)
    assert table.engine.adjust(table.now(), 0, -6 * MIN)  # exactly 5:00 overtime: still on
    assert table.engine.forfeit_side == -1 and table.show(0).running
    assert table.engine.adjust(table.now(), 0, -1)
    assert table.engine.forfeit_side == 0 and table.engine.phase == PHASE_OVER


def test_events_after_the_game_do_nothing():
    table = game()
    table.engine.end_game(table.now())
    assert not table.press(0) and not table.engine.pause(table.now())
    assert not table.engine.adjust(table.now(), 0, 1000) and not table.engine.end_game(table.now())


def test_a_wrong_side_is_an_error_not_a_silent_no():
    from mpytest import raises

    table = Table()
    raises(ValueError, table.engine.press, table.now(), 2)
    raises(ValueError, table.engine.challenge_verdict, table.now(), True, 0)
