# The clock engine against the TSO (Scrabble Deutschland e. V., Turnierspielordnung
# 2017, ../shared/seeds/002_*), clause by clause.  Each test quotes the sentence it
# checks (docs/clock-engine.md lists every reading), looks at both sides of each
# millisecond boundary it involves, and runs from every tick of
# clock_helpers.WRAP_STARTS, so that the 2^30 tick wrap falls before, inside and
# right at the moments that matter.

from mpytest import raises
from clock_helpers import MIN, SEC, Table, across_the_wrap, game
from clock import gamelog as gl
from clock.corrections import reopen, switch, undo, undoable
from clock.engine import (BOTH, CUE_FORFEIT, CUE_GAME_OVER, CUE_OVERTIME, CUE_OVERTIME_MINUTE,
                          CUE_WINDOW_CLOSED, Engine, PHASE_ENDING, PHASE_OVER, PHASE_PLAY,
                          PHASE_SETUP)


def kinds(engine):
    return [gl.layout(r[1])[0] for r in engine.log.records()]


def last(engine, kind):
    found = None
    for record in engine.log.records():
        if gl.layout(record[1])[0] == kind:
            found = record
    return found


# --- Part 1: preparation ------------------------------------------------------------------

@across_the_wrap
def test_tso_1_1b_each_player_has_30_minutes(start):
    """1.1b: „die Spielzeit in einer Partie beträgt 30 Minuten pro Spieler. Abweichend
    hiervon kann ... eine Spielzeit von 25 Minuten pro Spieler festgelegt werden.“"""
    table = Table(start=start)
    assert table.text(0) == " 30:00" and table.text(1) == " 30:00"
    assert Table("tso25", start=start).text(1) == " 25:00"


@across_the_wrap
def test_tso_1_4_1a_reset_needs_a_request_and_its_confirmation(start):
    """1.4.1a: „Damit ein versehentlicher Reset der Zeituhr während des Spiels vermieden
    wird, kennen die Spieler die Möglichkeit, wie die Uhr zurückgesetzt werden kann.“"""
    table = game(start=start)
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


@across_the_wrap
def test_tso_1_4_2a_i_count_down_in_minutes_and_seconds(start):
    """1.4.2a i: „Anzeige im Count-Down-Modus mit Minuten und Sekunden xx:yy“ (a second
    shows as long as any part of it is left)."""
    table = game(start=start)
    assert table.text(0) == " 30:00"
    table.wait(999)
    assert table.text(0) == " 30:00"  # 29:59.001 left
    table.wait(1)
    assert table.text(0) == " 29:59"
    table.wait(29 * MIN + 58 * SEC)
    assert table.text(0) == " 00:01" and table.left(0) == 1000
    assert table.text(1) == " 30:00"


@across_the_wrap
def test_tso_1_4_2a_iv_the_end_of_the_challenge_period_is_shown(start):
    """1.4.2a iv: „Anzeige des Ablaufs der Anfechtperiode (20 Sekunden nach Drücken der
    Uhr)“: the seconds on both panels, then that the play stands (accepted), which is not
    the same as no window at all."""
    table = game(start=start)
    table.wait(30 * SEC)
    assert not table.show(0).accepted and not table.show(0).window_open  # no play yet
    table.press(0)
    assert table.show(0).window_s == 20 and table.show(1).window_s == 20
    table.wait(20 * SEC - 1)
    d = table.show(0)
    assert d.window_open and d.window_s == 1 and not d.accepted
    table.wait(1)
    for side in (0, 1):
        d = table.show(side)
        assert not d.window_open and d.window_s == 0 and d.accepted
    table.press(1)  # the next play: its own window, nothing accepted yet
    assert table.show(0).window_open and not table.show(0).accepted


# --- Part 2: the start ---------------------------------------------------------------------

@across_the_wrap
def test_tso_2_3_opponent_press_starts_the_starting_player(start):
    """2.3: „Die Uhr des beginnenden Spielers wird in Gang gesetzt, sobald dieser einen
    Buchstaben aus dem Säckchen gezogen hat.“ (the opponent presses to start it)"""
    table = Table(start=start)
    assert not table.show(0).running and not table.show(1).running
    table.wait(10 * SEC)  # before the game nothing is charged
    assert table.press(1)
    assert table.engine.phase == PHASE_PLAY and table.engine.on_turn == 0
    d = table.show(0)
    assert d.running and d.on_turn and not d.window_open  # no play to challenge yet
    table.wait(5 * SEC)
    assert table.left(0) == 30 * MIN - 5 * SEC and table.left(1) == 30 * MIN
    assert not table.press(1)  # a press by the side not running does nothing
    assert table.used(1) == 0


@across_the_wrap
def test_tso_2_4b_referee_runs_the_late_players_clock_until_arrival(start):
    """2.4b: „Verspätet sich ein Spieler, so setzt der Schiedsrichter die Uhr des sich
    Verspätenden in Gang. i) Erscheint der Spieler, wird die Uhr angehalten und das Spiel
    wird mit der dann verkürzten Bedenkzeit des einen Spielers normal begonnen.“"""
    table = Table(start=start)
    assert table.engine.late_start(table.now(), 1)
    d = table.show(1)
    assert d.running and d.late
    table.wait(7 * MIN)
    assert table.engine.arrive(table.now(), 1)
    assert not table.show(1).running
    table.wait(2 * MIN)  # drawing for the start: no clock runs
    assert table.left(1) == 23 * MIN and table.left(0) == 30 * MIN
    table.press(0)  # the late player begins with the shortened time
    table.wait(1 * SEC)
    assert table.left(1) == 23 * MIN - 1 * SEC
    assert table.engine.result()["sides"][1]["late_ms"] == 7 * MIN


@across_the_wrap
def test_tso_2_4b_i_the_late_players_own_press_is_the_arrival(start):
    """2.4b i: „Erscheint der Spieler, wird die Uhr angehalten und das Spiel wird ...
    normal begonnen“: the arriving player's press stops the late clock; the game begins
    with the next press, the starting player's opponent's (2.3)."""
    table = Table(start=start)
    table.engine.late_start(table.now(), 0)
    table.wait(3 * MIN)
    assert table.press(0)  # the late player arrived
    assert not table.show(0).running and not table.show(0).late
    assert table.engine.phase == PHASE_SETUP and last(table.engine, "arrive")[4] == 3 * MIN
    table.wait(1 * MIN)  # seating, drawing: no clock runs
    assert table.press(1)  # 0 starts
    table.wait(10 * SEC)
    assert table.used(0) == 3 * MIN + 10 * SEC and table.used(1) == 0


@across_the_wrap
def test_tso_2_4b_i_the_opponents_press_is_no_arrival(start):
    """2.4b i: „Erscheint der Spieler, wird die Uhr angehalten“ — only the late player's
    appearance stops the late clock; the present opponent's press neither stops it nor
    lifts the 15-minute limit of 2.4b ii."""
    table = Table(start=start)
    table.engine.late_start(table.now(), 0)
    table.wait(1 * MIN)
    assert not table.press(1)  # 0 is still absent
    assert table.show(0).running and table.show(0).late and table.engine.phase == PHASE_SETUP
    table.wait(14 * MIN - 1)
    assert not table.press(1)
    assert table.engine.forfeit_side == -1 and table.used(0) == 15 * MIN - 1
    table.wait(1)
    assert table.engine.forfeit_side == -1  # exactly 15 minutes: not more than 15
    assert table.wait(1) & CUE_FORFEIT
    assert table.engine.forfeit_side == 0 and table.engine.result()["forfeit_reason"] == "late"


@across_the_wrap
def test_tso_2_4b_ii_more_than_15_minutes_late_scores_for_the_opponent(start):
    """2.4b ii: „Beträgt die Verspätung jedoch mehr als 15 Minuten, so wird das Spiel für
    den Gegenspieler gewertet ... Das Spiel wird nicht mehr begonnen.“"""
    table = Table(start=start)
    table.engine.late_start(table.now(), 0)
    assert not table.wait(15 * MIN) & CUE_FORFEIT
    cues = table.wait(1)
    assert cues & CUE_FORFEIT and cues & CUE_GAME_OVER
    assert table.engine.forfeit_side == 0 and table.engine.result()["forfeit_reason"] == "late"
    assert table.show(0).forfeit and not table.show(1).forfeit and table.show(1).game_over
    assert not table.press(1) and not table.press(0)  # the game is not started any more
    assert table.used(0) == 15 * MIN + 1


@across_the_wrap
def test_tso_2_4b_ii_and_6_1_1_both_more_than_15_minutes_late_both_lose(start):
    """2.4b ii with 6.1.1: „Werden aufgrund von Nichterscheinen/Regelverstoß beide Spieler
    mit Spielverlust bestraft, so wird für beide entsprechend verfahren.“ The second
    lateness is established on its own clock after the first one's limit."""
    table = Table(start=start)
    table.engine.late_start(table.now(), 1)
    table.wait(4 * MIN)
    table.engine.late_start(table.now(), 0)
    table.wait(11 * MIN)
    assert table.engine.forfeit_side == -1  # 1: exactly 15:00
    assert table.wait(1) & CUE_FORFEIT
    assert table.engine.forfeit_side == 1 and table.engine.phase == PHASE_SETUP
    assert table.show(1).forfeit and not table.show(1).running
    assert table.show(0).running and table.show(0).late and not table.show(0).game_over
    table.wait(4 * MIN - 2)
    assert table.engine.forfeit_side == 1 and table.used(0) == 15 * MIN - 1
    table.wait(1)
    assert table.engine.forfeit_side == 1  # 0: exactly 15:00
    cues = table.wait(1)
    assert cues & CUE_FORFEIT and cues & CUE_GAME_OVER
    assert table.engine.forfeit_side == BOTH and table.engine.phase == PHASE_OVER
    assert table.show(0).forfeit and table.show(1).forfeit
    result = table.engine.result()
    assert result["forfeit_side"] == BOTH and result["forfeit_reason"] == "late"
    assert result["sides"][0]["late_ms"] == 15 * MIN + 1
    assert result["sides"][1]["late_ms"] == 15 * MIN + 1
    assert kinds(table.engine).count("forfeit") == 2


@across_the_wrap
def test_tso_2_4b_a_late_forfeit_undone_is_the_arrival_at_the_limit(start):
    """2.4b i: the player arrived within 15 minutes, the arrival was keyed after the limit:
    the referee takes the forfeit back, and that is the arrival (the lateness at 15:00);
    the game then starts as any does (2.3), and nothing forfeits again."""
    table = Table(start=start)
    table.engine.late_start(table.now(), 0)
    table.wait(15 * MIN + 20 * SEC)
    assert table.engine.forfeit_side == 0 and table.engine.phase == PHASE_OVER
    assert undoable(table.engine) == "forfeit" and undo(table.engine, table.now())
    engine = table.engine
    assert engine.phase == PHASE_SETUP and engine.forfeit_side == -1 and not engine.paused
    assert not engine.late_clock(0) and not table.show(0).running
    assert engine.result()["sides"][0]["late_ms"] == 15 * MIN
    assert kinds(engine)[-4:] == ["forfeit", "end", "undo", "arrive"]
    assert not table.wait(10 * MIN) & CUE_FORFEIT
    assert table.press(1) and table.show(0).running          # 2.3: left's clock starts
    table.wait(MIN)
    assert engine.phase == PHASE_PLAY and table.left(0) == 14 * MIN


@across_the_wrap
def test_tso_2_4b_a_second_late_forfeit_undone_leaves_the_first_one(start):
    table = Table(start=start)
    table.engine.late_start(table.now(), 1)
    table.wait(4 * MIN)
    table.engine.late_start(table.now(), 0)
    table.wait(15 * MIN + 5 * SEC)
    assert table.engine.forfeit_side == BOTH
    assert undo(table.engine, table.now())
    engine = table.engine
    assert engine.forfeit_side == 1 and engine.phase == PHASE_OVER   # right's forfeit stays
    assert engine.result()["sides"][0]["late_ms"] == 15 * MIN


@across_the_wrap
def test_tso_2_4b_a_late_clock_stopped_by_the_pause_takes_the_arrival(start):
    table = Table(start=start)
    engine = table.engine
    engine.late_start(table.now(), 0)
    engine.late_start(table.now(), 1)
    table.wait(3 * MIN)
    assert engine.pause(table.now()) and engine.late_clock(0) and engine.late_clock(1)
    assert table.show(0).late and table.show(0).paused
    assert engine.arrive(table.now(), 0)                      # keyed by the referee
    assert engine.paused and not engine.late_clock(0) and engine.late_clock(1)
    table.wait(MIN)
    assert table.press(1)                                     # right's own press
    assert not engine.paused and not engine.late_clock(1) and engine.phase == PHASE_SETUP
    result = engine.result()
    assert result["sides"][0]["late_ms"] == result["sides"][1]["late_ms"] == 3 * MIN
    assert table.press(0) and engine.phase == PHASE_PLAY and table.show(1).running


@across_the_wrap
def test_tso_2_4b_ii_the_other_late_player_arriving_in_time_wins(start):
    """2.4b ii: „so wird das Spiel für den Gegenspieler gewertet“ — a late opponent who
    arrives within their own 15 minutes is that opponent."""
    table = Table(start=start)
    table.engine.late_start(table.now(), 0)
    table.engine.late_start(table.now(), 1)
    table.wait(10 * MIN)
    table.engine.arrive(table.now(), 1)  # 1 arrived after 10 minutes
    table.wait(5 * MIN + 1)
    assert table.engine.forfeit_side == 0 and table.engine.phase == PHASE_OVER

    table = Table(start=start)
    table.engine.late_start(table.now(), 0)
    table.wait(2 * MIN)
    table.engine.late_start(table.now(), 1)
    table.wait(13 * MIN + 1)  # 0 is out; 1 is 13:00.001 late
    assert table.engine.forfeit_side == 0 and table.engine.phase == PHASE_SETUP
    assert table.press(1)  # 1 arrives: no game is begun, it is scored for 1
    assert table.engine.phase == PHASE_OVER and table.engine.forfeit_side == 0
    assert table.engine.result()["sides"][1]["late_ms"] == 13 * MIN + 1


@across_the_wrap
def test_tso_2_4c_both_late_both_lose_their_time(start):
    """2.4c: „Verspäten sich beide Spieler, haben beide ihre entsprechend verkürzte
    Bedenkzeit.“"""
    table = Table(start=start)
    table.engine.late_start(table.now(), 0)
    table.wait(2 * MIN)
    table.engine.late_start(table.now(), 1)
    table.wait(3 * MIN)
    assert table.show(0).late and table.show(1).late
    table.press(0)  # 0 arrives
    table.wait(1 * MIN)
    assert not table.press(0)  # 1 is still away: no start
    table.press(1)  # 1 arrives
    assert table.left(0) == 25 * MIN and table.left(1) == 26 * MIN
    table.press(1)  # the game begins: 0 starts
    assert table.engine.phase == PHASE_PLAY and table.show(0).running


# --- Part 3: the move ------------------------------------------------------------------------

@across_the_wrap
def test_tso_3_1_1c_press_ends_the_turn_and_starts_the_opponent(start):
    """3.1.1c: „Drücken der Zeituhr, so dass die Zeit des Gegenspielers läuft.“"""
    table = game(start=start)
    table.wait(40 * SEC)
    assert table.press(0)
    assert table.engine.on_turn == 1 and table.show(1).running and not table.show(0).running
    table.wait(25 * SEC)
    assert table.used(0) == 40 * SEC and table.used(1) == 25 * SEC


@across_the_wrap
def test_tso_3_1_1_the_opponent_restarts_the_players_clock_to_note_the_score(start):
    """3.1.1: „Drückt ein Spieler die Uhr, ohne zuvor die Punktzahl seines Zuges notiert zu
    haben ..., so kann der Gegenspieler die Uhr des Spielers zum Notieren der Punktzahl ...
    wieder in Gang setzen.“ No play of the opponent's, no window of its own: the play's
    window runs on, the turn stays the opponent's, and the player's press gives it back."""
    table = game(start=start)
    table.wait(40 * SEC)
    table.press(0)  # pressed without noting the score
    table.wait(2 * SEC)
    assert switch(table.engine, table.now(), 0, True)
    assert table.show(0).running and table.engine.on_turn == 1 and table.show(1).on_turn
    assert table.engine.challenger_side() == 1 and table.show(0).window_s == 18
    table.wait(8 * SEC)  # the player notes the score on their own time
    assert not table.press(1)  # the opponent's clock does not run
    assert table.press(0)  # noted: the opponent's clock again
    assert table.show(1).running and table.engine.on_turn == 1
    assert table.show(1).window_s == 10  # the play's window, 10 s after its press
    assert table.used(0) == 48 * SEC and table.used(1) == 2 * SEC
    table.wait(10 * SEC)
    assert table.show(1).accepted
    table.wait(5 * SEC)
    table.press(1)  # the opponent's turn: one record, 17 s
    turns = [r for r in table.engine.log.records() if r[1] == gl.TURN]
    assert [(r[2], r[5]) for r in turns] == [(0, 40 * SEC), (1, 17 * SEC)]
    assert kinds(table.engine).count("switch") == 2


@across_the_wrap
def test_tso_3_1_1_a_play_cannot_be_taken_back_once_pressed(start):
    """3.1.1: „Eine Zugrücknahme ist ab dem erstmaligen Drücken der Uhr nicht mehr
    möglich.“ A press is no accept, end or forfeit: there is nothing to undo."""
    table = game(start=start)
    table.wait(5 * SEC)
    table.press(0)
    assert undoable(table.engine) == "" and not undo(table.engine, table.now())
    assert table.engine.on_turn == 1


@across_the_wrap
def test_tso_3_1_2_the_play_is_accepted_20s_after_the_press(start):
    """3.1.2: „Der Spielzug ist akzeptiert, wenn der Gegenspieler die Punktzahl auf dem
    Wertungsbogen notiert hat oder seit Drücken der Uhr 20 Sekunden vergangen sind.“"""
    table = game(start=start)
    table.wait(30 * SEC)
    table.press(0)
    assert table.show(0).window_open and table.show(1).window_open
    assert not table.wait(20 * SEC - 1) & CUE_WINDOW_CLOSED
    assert table.show(1).window_s == 1 and not table.show(1).accepted
    assert table.engine.challenger_side() == 1
    assert table.wait(1) & CUE_WINDOW_CLOSED
    assert table.show(0).window_s == 0 and not table.show(1).window_open
    assert table.show(0).accepted and table.engine.accepted
    assert table.engine.challenger_side() == -1
    assert not table.engine.start_challenge(table.now(), 1)  # accepted: too late


@across_the_wrap
def test_tso_3_1_2_noting_the_score_accepts_the_play_at_once(start):
    """3.1.2: „Der Spielzug ist akzeptiert, wenn der Gegenspieler die Punktzahl auf dem
    Wertungsbogen notiert hat“."""
    table = game(start=start)
    table.press(0)
    table.wait(5 * SEC)
    assert not table.engine.accept(table.now(), 0)  # only the opponent accepts
    assert table.engine.accept(table.now(), 1)
    assert not table.show(0).window_open and table.show(0).accepted and table.show(1).accepted
    assert not table.engine.start_challenge(table.now(), 1)


@across_the_wrap
def test_tso_3_1_2_a_mistaken_accept_is_undone_by_the_referee(start):
    """3.1.2: accepted once „der Gegenspieler die Punktzahl ... notiert hat“ — an accept
    keyed by mistake (nothing noted) is taken back by the referee: the window comes back
    with the seconds it had left; the time since is charged as it ran."""
    table = game(start=start)
    table.press(0)
    table.wait(5 * SEC)
    table.engine.accept(table.now(), 1)
    table.wait(4 * SEC)
    assert undoable(table.engine) == "accept"
    assert undo(table.engine, table.now())
    assert table.engine.paused and not table.engine.accepted
    assert table.show(1).window_open and table.show(1).window_s == 15
    assert table.used(1) == 9 * SEC
    assert last(table.engine, "undo")[3] == "accept"
    table.engine.resume(table.now())
    table.wait(15 * SEC - 1)
    assert table.engine.challenger_side() == 1
    assert table.engine.start_challenge(table.now(), 1)


@across_the_wrap
def test_tso_3_1_3_hold_is_shown_and_ends_with_the_20s(start):
    """3.1.3b: „Er muss sich bis spätestens 20 Sekunden nach Drücken der Uhr entscheiden,
    ob er den Zug anficht. Vergeht diese Frist ohne Anfechtung ..., gilt der Spielzug als
    akzeptiert.“"""
    table = game(start=start)
    table.press(0)
    table.wait(3 * SEC)
    assert not table.engine.hold(table.now(), 0)  # the player cannot hold their own play
    assert table.engine.hold(table.now(), 1)
    assert table.show(0).hold and table.show(1).hold
    assert table.show(1).running  # hold does not stop the holder's clock
    table.wait(17 * SEC - 1)
    assert table.show(1).hold
    table.wait(1)
    assert not table.show(1).hold and not table.show(1).window_open and table.show(1).accepted


@across_the_wrap
def test_tso_3_1_4b_challenge_stops_the_clock(start):
    """3.1.4b: „Er hält die Uhr an.“"""
    table = game(start=start)
    table.wait(50 * SEC)
    table.press(0)
    table.wait(20 * SEC - 1)
    assert not table.engine.start_challenge(table.now(), 0)
    assert table.engine.start_challenge(table.now(), 1)  # 1 ms before the window's end
    assert table.show(0).challenging and table.show(1).challenging
    assert not table.show(0).running and not table.show(1).running
    table.wait(3 * MIN)  # checking the words costs nobody time
    assert table.used(0) == 50 * SEC and table.used(1) == 20 * SEC - 1
    assert not table.press(1) and not table.engine.pause(table.now())


@across_the_wrap
def test_tso_3_1_4_the_player_restarts_the_clock_after_removing_a_withdrawn_play(start):
    """3.1.4: „Ist die Unzulässigkeit auch nur eines angezweifelten Wortes entschieden, muss
    der Zug zurückgenommen werden ... Der Spieler setzt nach dem Entfernen der Buchstaben und
    Löschen des Eintrags die Uhr für den Gegenspieler wieder in Gang.“ The removal is
    charged to nobody; the player's press starts the challenger's clock."""
    table = game(start=start)
    table.wait(50 * SEC)
    table.press(0)
    table.wait(4 * SEC)
    table.engine.start_challenge(table.now(), 1)
    table.wait(1 * MIN)
    outcome = table.engine.challenge_verdict(table.now(), False, 3)
    assert outcome.withdrawn and outcome.penalty_points == 0 and outcome.penalty_side == -1
    assert outcome.runs == -1 and not outcome.lost_turn and not outcome.game_over
    assert not table.show(0).running and not table.show(1).running
    assert table.engine.on_turn == 1 and not table.show(1).accepted
    table.wait(25 * SEC)  # the tiles come off the board, the entry is struck out
    assert not table.press(1)  # the challenger does not start their own clock
    assert table.used(1) == 4 * SEC and table.used(0) == 50 * SEC
    assert table.press(0)  # the player restarts the challenger's clock
    assert table.show(1).running and not table.show(1).window_open
    table.wait(2 * SEC)
    assert table.used(1) == 6 * SEC and table.used(0) == 50 * SEC
    assert table.show(1).penalty_points == 0
    assert table.press(1)  # the challenger's own play
    assert table.engine.on_turn == 0 and table.engine.challenger_side() == 0


@across_the_wrap
def test_tso_3_1_4_valid_words_cost_the_challenger_10_points_each(start):
    """3.1.4: „War die Anfechtung eines Wortes unbegründet, erhält der Gegenspieler eine
    Strafe von 10 Punkten pro zu Unrecht angefochtenem Wort.“"""
    table = game(start=start)
    table.press(0)
    table.wait(2 * SEC)
    table.engine.start_challenge(table.now(), 1)
    outcome = table.engine.challenge_verdict(table.now(), True, 3)
    assert not outcome.withdrawn and outcome.penalty_side == 1 and outcome.penalty_points == 30
    assert outcome.runs == 1  # the challenger goes on with their turn
    d = table.show(1)
    assert d.challenge_penalty == 30 and d.penalty_points == 30 and d.running and d.accepted
    assert table.show(0).penalty_points == 0
    assert table.engine.challenge_verdict(table.now(), True, 1) is None  # no challenge on


@across_the_wrap
def test_tso_3_1_4_and_7_3_2_2_a_wrong_challenge_after_a_loss_of_turn_runs_the_side_on_turn(start):
    """7.3.2.2 (loss of turn) right after left's play, then right challenges that play
    within its window and the words stand: right pays 10, and left, on turn, plays on."""
    table = game(start=start)
    table.wait(5 * SEC)
    table.press(0)                                        # left's play; right on turn
    table.wait(2 * SEC)
    assert switch(table.engine, table.now(), 0, False)    # right loses the turn
    assert table.engine.on_turn == 0 and table.engine.challenger_side() == 1
    table.wait(3 * SEC)
    assert table.engine.start_challenge(table.now(), 1)
    table.wait(30 * SEC)
    outcome = table.engine.challenge_verdict(table.now(), True, 1)
    assert outcome.penalty_side == 1 and outcome.penalty_points == 10 and outcome.runs == 0
    assert table.show(0).running and table.show(0).on_turn and not table.show(1).running
    assert table.show(0).accepted and table.show(1).penalty_points == 10
    assert table.used(0) == 5 * SEC + 3 * SEC and table.used(1) == 2 * SEC


@across_the_wrap
def test_tso_3_1_1_a_lent_clock_shows_on_both_sides(start):
    table = game(start=start)
    table.press(0)
    table.wait(25 * SEC)                                  # right on turn, window over
    assert not table.show(0).lent and not table.show(1).lent
    assert switch(table.engine, table.now(), 0, True)     # lent to left to note a score
    assert table.show(0).lent and table.show(1).lent and table.show(0).running
    table.engine.pause(table.now())
    assert table.show(0).lent and table.show(1).lent       # paused: still lent
    table.engine.resume(table.now())
    assert table.press(0)                                 # left gives it back
    assert not table.show(0).lent and not table.show(1).lent and table.show(1).running


@across_the_wrap
def test_tso_3_1_4_referee_can_cancel_a_challenge(start):
    """3.1.4: the challenge is decided or withdrawn; cancelled, the clocks are as before."""
    table = game(start=start)
    table.press(0)
    table.wait(2 * SEC)
    table.engine.start_challenge(table.now(), 1)
    table.wait(30 * SEC)
    assert table.engine.cancel_challenge(table.now())
    assert table.show(1).running and not table.show(1).challenging
    table.wait(1 * SEC)
    assert table.used(1) == 3 * SEC


@across_the_wrap
def test_tso_3_4b_a_score_noted_after_the_end_on_the_players_clock(start):
    """3.4b: „Ist zu diesem Zeitpunkt ... das Spiel zu Ende, so startet der Gegenspieler zur
    nachträglichen Ergänzung die Uhr des Spielers. Sind alle fehlenden Zahlen ergänzt, wird
    ... – falls das Spiel beendet ist – die Uhr gestoppt.“"""
    table = game(start=start)
    table.wait(10 * SEC)
    table.press(0)
    table.engine.finish(table.now(), 1)
    table.engine.accept(table.now(), 0)
    assert table.engine.phase == PHASE_OVER
    table.wait(1 * MIN)
    assert reopen(table.engine, table.now(), 0)  # 0 did not note the scores
    assert table.engine.phase == PHASE_PLAY and table.show(0).running
    assert not table.show(0).game_over
    table.wait(20 * SEC)
    assert table.engine.end_game(table.now())
    assert table.engine.phase == PHASE_OVER and table.used(0) == 30 * SEC
    assert kinds(table.engine)[-3:] == ["continue", "turn", "end"]


# --- Part 4: interruptions -------------------------------------------------------------------

@across_the_wrap
def test_tso_4_1_central_switch_stops_the_running_clock_and_resume_continues_it(start):
    """4.1: „Die Uhr wird in folgenden Fällen angehalten“ (1.4.2a iii: „Anhalten der
    Zeituhr durch einen zentralen Schalter“)."""
    table = game(start=start)
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
    assert not table.engine.resume(table.now())  # not paused


@across_the_wrap
def test_tso_4_1e_referee_resumes_either_side(start):
    """4.1e: „wenn eine Schiedsrichterentscheidung oder -maßnahme erforderlich ist“."""
    table = game(start=start)
    table.wait(10 * SEC)
    table.engine.pause(table.now())
    table.wait(1 * MIN)
    assert table.engine.resume(table.now(), 1)
    assert table.engine.on_turn == 1 and table.show(1).running and not table.show(0).running
    table.wait(3 * SEC)
    assert table.used(0) == 10 * SEC and table.used(1) == 3 * SEC


@across_the_wrap
def test_tso_4_2b_a_player_away_from_the_table_keeps_their_clock_running(start):
    """4.2b i: „Der Spieler führt seinen Zug aus und notiert die Punktzahl. Seine Uhr läuft
    weiter.“ iii: „Nach Rückkehr startet der Spieler die Uhr des Gegenspielers“."""
    table = game(start=start)
    table.wait(30 * SEC)
    table.wait(3 * MIN)
    table.press(0)
    assert table.used(0) == 3 * MIN + 30 * SEC and table.used(1) == 0


@across_the_wrap
def test_tso_4_2c_the_opponent_runs_the_absent_players_clock(start):
    """4.2c: „Verlässt der Spieler den Spieltisch, während die Uhr des Gegenspielers läuft,
    setzt der Gegenspieler die Uhr des Spielers in Gang. Während der Abwesenheit des Spielers
    darf der Gegenspieler keinen Spielzug ausführen. Nach Rückkehr des Spielers wird die Uhr
    des Gegenspielers wieder in Gang gesetzt.“"""
    table = game(start=start)
    table.wait(30 * SEC)
    table.press(0)  # 1 is on turn
    table.wait(21 * SEC)  # the window is over
    assert switch(table.engine, table.now(), 0, True)  # 0 leaves; 1 runs 0's clock
    assert table.engine.on_turn == 1 and table.show(0).running and not table.show(1).running
    assert not table.press(1)  # no play while 0 is away
    assert not table.show(0).window_open and table.show(0).accepted
    table.wait(5 * MIN)
    assert table.press(0)  # back: 1's clock again, 1's turn goes on
    assert table.show(1).running and table.engine.on_turn == 1 and not table.show(1).window_open
    table.wait(9 * SEC)
    assert table.press(1)
    assert table.used(0) == 5 * MIN + 30 * SEC and table.used(1) == 30 * SEC
    assert table.show(0).window_s == 20  # 1's play
    assert [r[5] for r in table.engine.log.records() if r[1] == gl.TURN] == [30 * SEC, 30 * SEC]
    assert last(table.engine, "switch")[3:] == (1, True)


@across_the_wrap
def test_tso_4_4b_iii_the_game_goes_on_after_a_presumed_end(start):
    """4.4b iii: „Haben nun noch beide Spieler Buchstaben auf der Bank, wird das Spiel
    fortgesetzt – auch dann, wenn sich die Spieler nach 5.1 a) ii) bereits auf ein Spielende
    geeinigt hatten.“"""
    table = game(start=start)
    table.wait(29 * MIN)
    table.press(0)
    table.wait(10 * SEC)
    table.press(1)  # the presumed last move; 1 presses instead of stopping
    table.wait(2 * MIN)
    assert table.engine.end_game(table.now(), True)  # 5.2d
    assert table.engine.result()["notes"] == ["5.2d"]
    table.wait(3 * MIN)  # tiles found in the bag, the missing ones drawn
    assert not reopen(Table(start=start).engine, table.now(), 0)  # no game to go on with
    assert reopen(table.engine, table.now(), 0)
    assert table.engine.phase == PHASE_PLAY and table.show(0).running and table.show(0).on_turn
    result = table.engine.result()
    assert result["notes"] == [] and result["sides"][0]["overtime_penalty"] == 10
    table.wait(1)
    assert table.show(0).overtime_ms == 1 * MIN + 1  # the time since the end is nobody's
    assert table.press(0)
    assert table.engine.challenger_side() == 1
    assert last(table.engine, "continue")[3] == 0


# --- Part 5: the end --------------------------------------------------------------------------

@across_the_wrap
def test_tso_5_1b_last_mover_stops_the_clock_and_the_opponent_accepts(start):
    """5.1b i: „Der Spieler, der den letzten Zug ausgeführt hat, hält die Uhr an.“ ii: „Der
    Gegenspieler akzeptiert den Zug, indem er seine ... verbliebenen Buchstaben zeigt“."""
    table = game(start=start)
    table.wait(20 * SEC)
    table.press(0)
    table.wait(40 * SEC)
    assert not table.engine.finish(table.now(), 0)  # only the running side's last move
    assert table.engine.finish(table.now(), 1)
    assert table.engine.phase == PHASE_ENDING
    assert not table.show(0).running and not table.show(1).running
    assert table.engine.on_turn == -1 and table.engine.challenger_side() == 0
    table.wait(5 * SEC)
    assert not table.engine.update(table.now()) & CUE_GAME_OVER
    assert table.engine.accept(table.now(), 0)
    assert table.engine.phase == PHASE_OVER and table.show(0).game_over
    result = table.engine.result()
    assert result["sides"][0]["used_ms"] == 20 * SEC and result["sides"][1]["used_ms"] == 40 * SEC


@across_the_wrap
def test_tso_5_1b_ii_the_final_play_is_accepted_when_the_window_ends(start):
    """5.1b ii with 3.1.2: the final play stands 20 s after the clock was stopped."""
    table = game(start=start)
    table.press(0)
    table.engine.finish(table.now(), 1)
    assert not table.wait(20 * SEC - 1) & CUE_GAME_OVER
    assert table.engine.phase == PHASE_ENDING
    assert table.wait(1) & CUE_GAME_OVER
    assert table.engine.phase == PHASE_OVER


@across_the_wrap
def test_tso_5_1b_ii_a_mistaken_accept_of_the_final_play_is_undone(start):
    """5.1b ii: „Der Gegenspieler akzeptiert den Zug ... oder er meldet unmittelbar
    Vorbehalt an oder ficht den Zug an.“ An accept keyed by mistake ended the game; the
    referee takes it back and the final play can still be challenged."""
    table = game(start=start)
    table.press(0)
    table.wait(10 * SEC)
    table.engine.finish(table.now(), 1)
    table.wait(6 * SEC)
    table.engine.accept(table.now(), 0)
    assert table.engine.phase == PHASE_OVER
    table.wait(2 * MIN)  # the referee comes
    assert undoable(table.engine) == "accept" and undo(table.engine, table.now())
    assert table.engine.phase == PHASE_ENDING and table.engine.paused
    assert table.show(0).window_s == 14 and not table.show(0).game_over
    table.engine.resume(table.now())
    assert table.engine.start_challenge(table.now(), 0)
    outcome = table.engine.challenge_verdict(table.now(), False, 1)  # 5.1b iv
    assert outcome.withdrawn and table.engine.phase == PHASE_PLAY
    assert table.press(1)  # 1 restarts 0's clock after taking the tiles back
    assert table.show(0).running
    assert kinds(table.engine).count("end") == 1 and last(table.engine, "undo")[3] == "accept"


@across_the_wrap
def test_tso_5_1b_iii_hold_restarts_the_opponents_clock_at_once(start):
    """5.1b iii: „Wird Vorbehalt angemeldet, so wird die Uhr des Gegenspielers sofort wieder
    in Gang gesetzt.“"""
    table = game(start=start)
    table.press(0)
    table.wait(10 * SEC)
    table.engine.finish(table.now(), 1)
    table.wait(2 * SEC)
    assert table.engine.hold(table.now(), 0)
    assert table.show(0).running and table.show(0).hold
    table.wait(7 * SEC)
    assert table.engine.end_game(table.now())
    assert table.engine.result()["sides"][0]["used_ms"] == 7 * SEC


@across_the_wrap
def test_tso_5_1b_iv_a_successful_challenge_of_the_last_play_continues_the_game(start):
    """5.1b iv: „Wird der Zug aufgrund einer erfolgreichen Anzweiflung zurückgenommen, wird
    das Spiel fortgesetzt.“ The player takes the tiles back and restarts the clock (3.1.4)."""
    table = game(start=start)
    table.press(0)
    table.wait(10 * SEC)
    table.engine.finish(table.now(), 1)
    table.engine.start_challenge(table.now(), 0)
    outcome = table.engine.challenge_verdict(table.now(), False, 1)
    assert outcome.withdrawn and not outcome.game_over and outcome.runs == -1
    assert table.engine.phase == PHASE_PLAY and table.engine.on_turn == 0
    assert not table.show(0).running
    assert table.press(1)
    assert table.show(0).running


@across_the_wrap
def test_tso_5_1b_v_an_unsuccessful_challenge_of_the_last_play_ends_the_game(start):
    """5.1b v: „Akzeptiert der Gegenspieler den Zug oder war die Anzweiflung nicht
    erfolgreich, dann werden ihm die Buchstabenwerte ... abgezogen“ — the game is over."""
    table = game(start=start)
    table.press(0)
    table.engine.finish(table.now(), 1)
    table.engine.start_challenge(table.now(), 0)
    outcome = table.engine.challenge_verdict(table.now(), True, 2)
    assert outcome.game_over and outcome.penalty_points == 20 and outcome.runs == -1
    assert table.engine.phase == PHASE_OVER
    assert table.engine.result()["sides"][0]["challenge_penalty"] == 20


@across_the_wrap
def test_tso_5_2a_overtime_begins_at_minus_00_01_and_counts_up(start):
    """5.2a: „Die Zeit eines Spielers gilt als überschritten, wenn die Uhr -00:01 (im
    Count-Down-Modus) ... angezeigt wird.“"""
    table = game(start=start)
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


@across_the_wrap
def test_tso_5_2b_10_points_per_started_minute_of_overtime(start):
    """5.2b: „Für jede begonnene Minute Zeitüberschreitung werden 10 Punkte abgezogen.“"""
    table = game(start=start)
    table.wait(30 * MIN)
    assert table.show(0).overtime_penalty == 0
    table.wait(1)
    assert table.show(0).overtime_penalty == 10
    table.wait(1 * MIN - 1)
    assert table.show(0).overtime_penalty == 10
    assert table.wait(1) & CUE_OVERTIME_MINUTE
    assert table.show(0).overtime_penalty == 20 and table.show(0).penalty_points == 20
    assert table.engine.penalty_for(4 * MIN + 1) == 50


@across_the_wrap
def test_tso_5_2c_more_than_5_minutes_overtime_forfeits_at_that_very_moment(start):
    """5.2c: „Überschreitet ein Spieler seine Bedenkzeit um mehr als 5 Minuten, so wird die
    Partie abgebrochen und für den Gegenspieler gewertet.“"""
    table = game(start=start)
    table.wait(35 * MIN)
    assert not table.show(0).forfeit  # exactly 5:00 over
    table.clock.advance(10 * SEC)  # no update in between: the forfeit still dates from 35:00.001
    assert not table.press(0)
    assert table.engine.forfeit_side == 0 and table.engine.phase == PHASE_OVER
    assert table.used(0) == 35 * MIN + 1
    cues = table.engine.update(table.now())
    assert cues & CUE_FORFEIT and cues & CUE_GAME_OVER
    d = table.show(0)
    assert d.forfeit and d.game_over and not d.running and d.overtime_penalty == 60
    assert table.engine.result()["forfeit_reason"] == "overtime"


@across_the_wrap
def test_tso_5_2d_no_penalty_when_the_opponents_clock_was_restarted_at_the_end(start):
    """5.2d: „Keine Zeitstrafe erfolgt, wenn bei Spielende die Uhr nicht angehalten wurde,
    sondern stattdessen die Uhr des Gegenspielers erneut in Gang gesetzt wurde und dadurch
    eine Zeitüberschreitung des Gegenspielers angezeigt wird.“"""
    table = game(start=start)
    table.wait(29 * MIN)
    table.press(0)
    table.wait(10 * SEC)
    table.press(1)  # the last move; 1 presses instead of stopping the clock
    table.wait(2 * MIN)  # 0's clock shows overtime
    assert table.show(0).overtime_penalty == 10
    assert table.engine.end_game(table.now(), True)
    result = table.engine.result()
    assert result["sides"][0]["overtime_ms"] == 1 * MIN
    assert result["sides"][0]["overtime_penalty"] == 0 and result["notes"] == ["5.2d"]
    assert result["sides"][0]["excused_overtime_ms"] == 1 * MIN
    assert table.show(0).overtime_penalty == 0
    assert last(table.engine, "end")[5] == ["5.2d"]


@across_the_wrap
def test_tso_5_2d_also_after_the_central_switch_was_used(start):
    """5.2d does not depend on the switch: „wenn bei Spielende die Uhr nicht angehalten
    wurde, sondern stattdessen die Uhr des Gegenspielers erneut in Gang gesetzt wurde“ —
    stopping it afterwards (4.1e, to call the referee) changes nothing."""
    table = game(start=start)
    table.wait(29 * MIN)
    table.press(0)
    table.wait(10 * SEC)
    table.press(1)  # the last move, pressed
    table.wait(1 * MIN + 1)  # 0 is 0:00.001 over
    table.engine.pause(table.now())  # the referee is called
    table.wait(4 * MIN)
    assert table.engine.end_game(table.now(), True)
    side = table.engine.result()["sides"][0]
    assert side["overtime_ms"] == 1 and side["overtime_penalty"] == 0
    assert table.engine.result()["notes"] == ["5.2d"]


@across_the_wrap
def test_tso_5_2d_overtime_of_ones_own_turn_is_penalised_when_players_agree_to_end(start):
    """5.1a ii: „Beide Spieler haben ... sich verständigt, dass keiner von beiden mehr ein
    Wort legen wird.“ with 5.2b: overtime on one's own turn is no 5.2d case."""
    table = game(start=start)
    table.wait(10 * SEC)
    table.press(0)
    table.wait(31 * MIN + 30 * SEC)  # 1 is 1:30 over on their own turn
    assert table.engine.end_game(table.now())
    result = table.engine.result()
    assert result["sides"][1]["overtime_penalty"] == 20 and result["notes"] == []
    assert result["sides"][1]["excused_overtime_ms"] == 0


@across_the_wrap
def test_tso_5_2d_overtime_from_before_the_last_move_is_still_penalised(start):
    """5.2d excuses only what „dadurch“ (the restarted clock) shows."""
    table = game(start=start)
    table.wait(31 * MIN + 1)  # 0 is in overtime at their own move
    table.press(0)
    table.wait(10 * SEC)
    table.press(1)
    table.wait(30 * SEC)
    table.engine.end_game(table.now(), True)
    side = table.engine.result()["sides"][0]
    assert side["overtime_penalty"] == 20  # 1:00.001 before the last move; 30 s excused
    assert side["excused_overtime_ms"] == 30 * SEC


@across_the_wrap
def test_tso_5_2d_overtime_passing_the_cap_after_the_last_move_is_no_forfeit(start):
    """5.2d: „Keine Zeitstrafe erfolgt“ — and a forfeit (5.2c) is the harshest one: while
    the tiles are counted, the restarted clock may pass 5:00 of overtime; the referee takes
    the forfeit back and ends the game with the 5.2d excuse."""
    table = game(start=start)
    table.wait(29 * MIN)
    table.press(0)
    table.wait(10 * SEC)
    table.press(1)  # the last move, pressed; 0's clock runs
    table.wait(6 * MIN)
    assert table.engine.forfeit_side == -1  # exactly 5:00 over
    table.wait(1)
    assert table.engine.forfeit_side == 0 and table.engine.phase == PHASE_OVER
    table.wait(3 * MIN)
    assert undoable(table.engine) == "forfeit" and undo(table.engine, table.now())
    assert table.engine.forfeit_side == -1 and table.engine.paused
    assert table.engine.phase == PHASE_PLAY and table.used(0) == 35 * MIN + 1
    assert table.engine.end_game(table.now(), True)
    result = table.engine.result()
    assert result["forfeit_side"] == -1 and result["notes"] == ["5.2d"]
    assert result["sides"][0]["overtime_penalty"] == 0
    assert result["sides"][0]["excused_overtime_ms"] == 5 * MIN + 1
    # the turn the forfeit ended is logged again when it ends for good
    assert kinds(table.engine)[-6:] == ["turn", "forfeit", "end", "undo", "turn", "end"]
    assert last(table.engine, "undo")[3] == "forfeit"


# --- Part 7: sanctions -------------------------------------------------------------------------

@across_the_wrap
def test_tso_7_3_2_2_loss_of_turn(start):
    """7.3.2.2a: „so kann er durch Zugverlust, Zeitabzug oder Punkteverlust bestraft
    werden.“ The turn passes to the opponent without a play: no window opens."""
    table = game(start=start)
    table.wait(30 * SEC)
    table.press(0)
    table.wait(1 * MIN)  # the window is over; 1 loses the turn
    assert switch(table.engine, table.now(), 0, False)
    assert table.engine.on_turn == 0 and table.show(0).running and not table.show(1).running
    assert not table.show(0).window_open and table.engine.challenger_side() == -1
    table.wait(5 * SEC)
    assert table.press(0)
    assert table.engine.challenger_side() == 1
    assert [r[5] for r in table.engine.log.records() if r[1] == gl.TURN] == \
        [30 * SEC, 1 * MIN, 5 * SEC]
    assert last(table.engine, "switch")[3:] == (0, False)


@across_the_wrap
def test_tso_7_3_2_2_loss_of_turn_from_a_pause(start):
    """7.3.2.2 during a referee's stop (4.1e): one action, the clock runs after it."""
    table = game(start=start)
    table.wait(30 * SEC)
    table.engine.pause(table.now())
    table.wait(2 * MIN)
    assert switch(table.engine, table.now(), 1, False)
    assert not table.engine.paused and table.show(1).running and table.engine.on_turn == 1
    table.wait(1 * SEC)
    assert table.used(0) == 30 * SEC and table.used(1) == 1 * SEC
    table.press(1)
    assert table.engine.start_challenge(table.now(), 0)
    assert not switch(table.engine, table.now(), 0, False)  # not during a challenge


@across_the_wrap
def test_tso_7_3_2_2_referee_time_credit_and_deduction(start):
    """7.3.2.2a: „Zeitabzug ... An die Stelle von Zugverlust und Punkteverlust kann auch eine
    entsprechende Gutschrift beim Gegenspieler treten“."""
    table = game(start=start)
    table.wait(10 * SEC)
    assert table.engine.adjust(table.now(), 1, -2 * MIN)
    assert table.engine.adjust(table.now(), 0, 1 * MIN)
    assert table.left(1) == 28 * MIN and table.left(0) == 31 * MIN - 10 * SEC
    assert table.used(0) == 10 * SEC  # the charged time is untouched


@across_the_wrap
def test_tso_7_3_2_2_a_deduction_past_the_overtime_cap_forfeits_and_can_be_undone(start):
    """7.3.2.2 with 5.2c: a deduction past the cap forfeits; a deduction keyed wrong is
    taken back with the forfeit (undo: the deduction goes with it, so resuming does not
    forfeit again), then corrected."""
    table = game(start=start)
    table.wait(29 * MIN)
    assert table.engine.adjust(table.now(), 0, -6 * MIN)  # exactly 5:00 overtime: still on
    assert table.engine.forfeit_side == -1 and table.show(0).running
    assert table.engine.adjust(table.now(), 0, -1)
    assert table.engine.forfeit_side == 0 and table.engine.phase == PHASE_OVER
    assert undo(table.engine, table.now())
    assert table.engine.forfeit_side == -1 and table.engine.paused
    assert table.engine.result(table.now())["sides"][0]["credit_ms"] == -6 * MIN
    assert table.left(0) == -5 * MIN                      # the -1 ms is gone with the forfeit
    assert table.engine.adjust(table.now(), 0, 6 * MIN)   # and the -6:00 corrected
    table.engine.resume(table.now())
    table.wait(1 * MIN)
    assert table.engine.phase == PHASE_PLAY and table.left(0) == 0


# --- the referee's undo and the queries --------------------------------------------------------

@across_the_wrap
def test_undo_takes_back_only_the_last_and_only_while_nothing_else_happened(start):
    """The referee's undo (4.4b and 3.4 show that an end can be mistaken): the latest end,
    accept or forfeit, once; a later press, finish, adjustment or switch makes it final."""
    table = game(start=start)
    table.press(0)
    table.engine.accept(table.now(), 1)
    table.wait(3 * SEC)
    table.press(1)  # a new play: the accept is final
    assert undoable(table.engine) == "" and not undo(table.engine, table.now())
    table.engine.accept(table.now(), 0)
    table.engine.pause(table.now())  # pause and resume do not
    table.engine.resume(table.now())
    assert undoable(table.engine) == "accept"
    table.engine.adjust(table.now(), 0, 1000)
    assert undoable(table.engine) == ""
    table.engine.end_game(table.now())
    assert undo(table.engine, table.now()) and not undo(table.engine, table.now())
    assert table.engine.phase == PHASE_PLAY and kinds(table.engine).count("undo") == 1


@across_the_wrap
def test_queries_take_the_tick_and_apply_what_is_due(start):
    """A forfeit or the end of a window due by t is part of what a query at t reads,
    without an update in between (5.2c: „abgebrochen“ at 5:00.001, not at the next
    refresh)."""
    table = game(start=start)
    table.press(0)
    t = table.clock.advance(20 * SEC - 1)
    assert table.engine.challenger_side(t) == 1
    t = table.clock.advance(1)
    assert table.engine.challenger_side(t) == -1 and table.engine.accepted

    table = game(start=start)
    table.clock.advance(35 * MIN)
    assert table.engine.phase_at(table.now()) == PHASE_PLAY
    t = table.clock.advance(10 * SEC)
    assert table.engine.used_ms(0, t) == 35 * MIN + 1
    assert table.engine.phase_at(t) == PHASE_OVER
    result = table.engine.result(t)
    assert result["forfeit_side"] == 0 and result["sides"][0]["used_ms"] == 35 * MIN + 1

    table = game(start=start)
    t = table.clock.advance(35 * MIN + 1)
    copy = Engine.restore(table.engine.snapshot(t), None, table.clock)
    assert copy.phase == PHASE_OVER and copy.forfeit_side == 0
    assert copy.used_ms(0, t) == 35 * MIN + 1


def test_events_after_the_game_do_nothing():
    table = game()
    table.engine.end_game(table.now())
    assert not table.press(0) and not table.engine.pause(table.now())
    assert not table.engine.adjust(table.now(), 0, 1000) and not table.engine.end_game(table.now())
    assert not switch(table.engine, table.now(), 0, True)


def test_a_wrong_side_is_an_error_not_a_silent_no():
    table = Table()
    raises(ValueError, table.engine.press, table.now(), 2)
    raises(ValueError, table.engine.challenge_verdict, table.now(), True, 0)
    raises(ValueError, switch, table.engine, table.now(), -1, True)
    raises(ValueError, reopen, table.engine, table.now(), 2)


@across_the_wrap
def test_tso_5_1b_v_a_cancelled_challenge_of_the_final_play_ends_it_for_good(start):
    """5.1b v: the final play stands when its challenge is withdrawn; that end leaves no
    state to go back to (no clock, no window): the referee continues instead (4.4b iii)."""
    table = game(start=start)
    table.press(0)
    table.engine.finish(table.now(), 1)
    table.engine.start_challenge(table.now(), 0)
    table.engine.cancel_challenge(table.now())
    assert table.engine.end_game(table.now())  # as the terminal does (flow._cancel)
    assert undoable(table.engine) == "" and not undo(table.engine, table.now())
    assert reopen(table.engine, table.now(), 0) and table.show(0).running
