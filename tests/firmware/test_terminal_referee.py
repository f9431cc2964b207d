# Lockdown and the referee menu: PIN, word checks, settings, time adjustments,
# the two-step reset.
from terminal import flow as F
from terminal import referee as R
from terminal_rig import Rig


def _menu(rig):
    rig.keys("D0000#")
    assert rig.flow.referee.mode == R.MENU
    return rig.flow.referee


def test_wrong_pins_lock_the_menu_for_a_while():
    rig = Rig()
    rig.keys("D")
    assert rig.flow.state == F.REFEREE and "PIN:" in rig.screen()
    rig.keys("12")
    assert "PIN: **" in rig.screen() and "12" not in rig.screen()
    for _ in range(3):
        rig.keys("1234#")
    assert "Locked 30 s" in rig.screen()
    rig.keys("0000#")
    assert rig.flow.referee.mode == R.PIN       # locked: even the right PIN waits
    rig.wait(10000)
    assert "Locked 20 s" in rig.screen()
    rig.wait(20000)
    rig.keys("0000#")
    assert rig.flow.referee.mode == R.MENU


class _NVS:
    """esp32.NVS's part the lock uses, in a dict: what flash would keep."""

    def __init__(self):
        self.kept = {}
        self.writes = 0

    def get_blob(self, key, buf):
        if key not in self.kept:
            raise OSError(-0x1102)          # ESP_ERR_NVS_NOT_FOUND
        value = self.kept[key]
        buf[:len(value)] = value
        return len(value)

    def set_blob(self, key, value):
        self.kept[key] = bytes(value)

    def commit(self):
        self.writes += 1


def test_the_lock_is_written_at_each_change_and_read_back_by_a_new_terminal():
    from terminal.pinlock import PinLock

    nvs = _NVS()
    lock = PinLock(nvs)
    assert not lock.wrong(100) and nvs.kept["pin"] == bytes((1, 0, 0))
    assert not lock.wrong(200) and nvs.kept["pin"] == bytes((2, 0, 0))
    assert lock.wrong(300) and nvs.kept["pin"] == bytes((0, 1, 1))
    assert lock.left_ms(300) == 30000
    again = PinLock(nvs)                        # after a power cut: in full from its first tick
    assert again.left_ms(5) == 30000 and again.left_ms(29005) == 1000
    assert again.left_ms(30005) == 0 and nvs.kept["pin"] == bytes((0, 1, 0))
    writes = nvs.writes
    assert again.left_ms(90000) == 0 and nvs.writes == writes      # nothing new to write
    for t in (1, 2):
        again.wrong(t)
    assert again.wrong(3) and again.left_ms(3) == 60000             # the second lockout
    again.age(60003)
    again.right()
    assert nvs.kept["pin"] == bytes((0, 0, 0))
    again.right()
    assert nvs.writes == writes + 5             # the right PIN again: nothing to write


def test_a_failing_nvs_leaves_the_lock_in_ram():
    from terminal.pinlock import PinLock

    class Failing(_NVS):
        def set_blob(self, key, value):
            raise OSError(-1)

    lock = PinLock(Failing())
    lock.wrong(0)
    lock.wrong(0)
    assert lock.wrong(0) and lock.left_ms(10000) == 20000


def test_a_lock_in_a_terminal_without_nvs_holds_in_ram():
    from terminal.pinlock import PinLock

    lock = PinLock()
    lock.wrong(0)
    lock.wrong(0)
    assert lock.wrong(0) and lock.left_ms(10000) == 20000


def test_the_idle_screen_offers_a_challenge_only_while_there_is_one():
    rig = Rig()
    assert "A Challenge" not in rig.screen() and "PIN still 0000!" in rig.screen()
    rig.play_a_move()
    rig.flow.update(rig.now())
    assert "A Challenge" in rig.screen()
    rig.clock.advance(20000)
    rig.engine.update(rig.now())                # the window is over
    rig.flow.update(rig.now())
    assert "A Challenge" not in rig.screen()
    rig.settings.set("referee_pin", "4711")
    rig.flow.set_status("", "")                 # (what the device does after any change)
    assert "PIN still 0000!" not in rig.screen() and "tso30" in rig.screen()


def test_menu_exit_and_idle_timeout_return_to_neutral():
    rig = Rig()
    _menu(rig)
    rig.keys("D")
    assert rig.flow.state == F.NEUTRAL
    _menu(rig)
    rig.wait(119000)
    assert rig.flow.state == F.REFEREE
    rig.wait(1000)
    assert rig.flow.state == F.NEUTRAL


def test_the_referee_checks_words_one_by_one():
    rig = Rig()
    _menu(rig)
    rig.keys("1")
    rig.type_word("ZUG")
    rig.keys("#")
    assert "ZUG\nvalid" in rig.screen()
    rig.type_word("ZUGE")
    assert "ZUG\nvalid" not in rig.screen()      # a new word clears the last answer
    rig.keys("#")
    assert "ZUGE\ninvalid" in rig.screen()
    rig.type_word("HAUSES")
    rig.keys("#")
    assert "HAUSES\nbeyond the list" in rig.screen()
    rig.keys("DD")
    assert rig.flow.state == F.NEUTRAL and "HAUSES" not in rig.screen()


def test_settings_language_verdict_time_pin_and_preset():
    rig = Rig(lang="de")
    _menu(rig)
    rig.keys("2")
    assert "1 Sprache de" in rig.screen()
    rig.keys("1")
    assert rig.settings.get("lang") == "en" and "1 Lang. en" in rig.screen()
    rig.keys("2")
    assert rig.settings.get("verdict_ms") == 15000
    rig.keys("3")
    rig.keys("12#")                               # too short: rejected, nothing applied
    assert "Rejected" in rig.screen() and rig.settings.get("referee_pin") == "0000"
    rig.keys("1357#")
    assert rig.settings.get("referee_pin") == "1357"
    rig.keys("4")
    assert rig.settings.get("preset") == "tso30" or rig.settings.get("preset") is not None
    rig.keys("DD")
    rig.keys("D0000#")
    assert rig.flow.referee.mode == R.PIN         # the old PIN no longer opens the menu
    rig.keys("1357#")
    assert rig.flow.referee.mode == R.MENU


def test_the_referee_sets_a_sides_time_as_mm_ss():
    rig = Rig()
    rig.play_a_move()                             # the left clock runs
    _menu(rig)
    rig.keys("32")                                # right side
    rig.keys("253")
    assert " 02:53" in rig.screen()               # typed from the right, as a time
    rig.keys("0")
    assert " 25:30" in rig.screen()
    rig.keys("#")
    assert "Done" in rig.screen()
    right = rig.engine.result()["sides"][1]
    assert right["remaining_ms"] == 25 * 60000 + 30000 and right["overtime_ms"] == 0
    rig.keys("31*130#")                           # left side: 1:30 into overtime
    left = rig.engine.result()["sides"][0]
    assert left["remaining_ms"] == 0 and left["overtime_ms"] == 90000
    assert rig.engine.display(0).text == bytearray(b"-01:30")
    log = list(rig.engine.log.export_jsonl())
    assert any('"adjust"' in line and '"side": 1' in line for line in log)
    adjusts = sum('"adjust"' in line for line in log)
    rig.keys("3199#")                             # 99 seconds is no mm:ss: refused
    assert "Rejected" in rig.screen()
    assert sum('"adjust"' in line for line in rig.engine.log.export_jsonl()) == adjusts


def test_reset_needs_two_steps():
    rig = Rig()
    rig.play_a_move()
    _menu(rig)
    rig.keys("4")
    assert "Reset the clock?" in rig.screen()
    rig.keys("D")                                 # no
    assert rig.engine.on_turn == 0
    rig.keys("4#")
    assert "Done" in rig.screen()
    assert rig.engine.on_turn == -1 and not rig.engine.display(0).running


def test_no_menu_word_check_without_a_list():
    rig = Rig(lexicon=None, problem="missing")
    _menu(rig)
    rig.keys("1")
    assert rig.flow.referee.mode == R.MENU and "No word list" in rig.screen()


# --- the game menu (key 6): corrections, each in the game log --------------------------------

def _game_menu(rig):
    _menu(rig)
    rig.keys("6")
    assert rig.flow.referee.mode == R.GAME
    return rig.screen()


def _kinds(rig):
    import json

    return [json.loads(line)["kind"] for line in rig.engine.log.export_jsonl()]


def test_the_menu_offers_the_game_menu_and_shows_its_notes_on_the_title_line():
    rig = Rig()
    _menu(rig)
    assert rig.screen().split("\n")[0] == "Referee" and "6 Game" in rig.screen()
    rig.keys("31*5#")
    assert rig.screen().split("\n")[0] == "Done"
    screen = _game_menu(Rig())
    # before the game: only what can be done then
    assert screen.split("\n") == ["Game", "", "", "3 End game", "", "", "6 Late clock", "D Back"]


def test_the_clock_is_lent_to_note_a_score_and_the_players_press_gives_it_back():
    # TSO 3.1.1 and 4.2c: the other player's clock runs, the turn stays
    rig = Rig()
    rig.play_a_move()                     # right played; left is on turn
    screen = _game_menu(rig)
    assert "1 Lend to right" in screen and "2 Turn to right" in screen
    rig.keys("1")
    assert rig.screen().split("\n")[0] == "Done"
    assert rig.engine.display(1).running and rig.engine.on_turn == 0
    assert "1 Lend to left" in rig.screen()      # while lent: give it back
    rig.keys("DD")
    rig.clock.advance(4000)
    assert rig.engine.press(rig.now(), 1)        # noted: right gives the clock back
    assert rig.engine.display(0).running and rig.engine.on_turn == 0
    assert _kinds(rig)[-2:] == ["switch", "switch"]


def test_loss_of_turn_passes_the_turn_without_a_play():
    # TSO 7.3.2.2
    rig = Rig()
    rig.play_a_move()
    _game_menu(rig)
    rig.keys("2")
    assert rig.engine.on_turn == 1 and rig.engine.display(1).running
    assert rig.engine.challenger_side() == 0      # right's play, still in its window
    assert _kinds(rig)[-2:] == ["turn", "switch"]


def test_end_with_the_5_2d_excuse_then_undo_it_and_end_without():
    rig = Rig(preset="custom")
    rig.engine.confirm_reset(rig.engine.request_reset(),
                             dict(rig.engine.preset, initial_ms=10000))
    rig.play_a_move()                     # left: 2 s used; right presses the last move
    rig.clock.advance(9000)               # left is 1 s over
    rig.flow.update(rig.now())
    rig.engine.pause(rig.now())           # the referee is called (4.1e)
    _game_menu(rig)
    rig.keys("3")
    assert "1 With 5.2d" in rig.screen() and "2 Without 5.2d" in rig.screen()
    rig.keys("1")
    assert rig.screen().split("\n")[0] == "Done" and "4 Undo end" in rig.screen()
    assert "5 Continue" in rig.screen() and "3 End game" not in rig.screen()
    result = rig.engine.result()
    assert result["notes"] == ["5.2d"] and result["sides"][0]["overtime_penalty"] == 0
    rig.keys("DD")
    assert "5.2d: no OT pen." in rig.screen()     # the end screen says so
    _game_menu(rig)
    rig.keys("4")                          # a mistake: the players had agreed to end
    assert rig.engine.phase == 1 and rig.engine.paused
    rig.keys("32")
    assert rig.engine.result()["notes"] == [] and rig.engine.result()["sides"][0]["penalty_points"] == 10
    assert _kinds(rig)[-4:] == ["end", "undo", "turn", "end"]


def test_continue_after_a_presumed_end_runs_the_chosen_clock():
    # TSO 4.4b iii, 3.4b
    rig = Rig()
    rig.play_a_move()
    _game_menu(rig)
    rig.keys("32")
    assert rig.engine.phase == 3
    rig.keys("5")
    assert "Side 1=L 2=R" in rig.screen()
    rig.keys("2")
    assert rig.engine.phase == 1 and rig.engine.display(1).running
    assert _kinds(rig)[-1] == "continue"


def test_late_clocks_from_the_game_menu():
    # TSO 2.4b: the referee starts a late player's clock; the arrival stops it
    rig = Rig()
    _game_menu(rig)
    rig.keys("61")
    assert rig.engine.display(0).late and rig.engine.display(0).running
    assert rig.screen().split("\n")[0] == "Done" and "6 Late clock" in rig.screen()
    rig.clock.advance(60000)
    rig.keys("61")
    assert not rig.engine.display(0).running
    assert _kinds(rig) == ["late", "arrive"]


def test_leaving_the_game_menu_lets_the_referee_and_its_question_go():
    from terminal.modes import END

    rig = Rig()
    rig.play_a_move()
    _game_menu(rig)
    rig.keys("3")                          # the end question
    referee = rig.flow.referee
    assert referee.mode == END
    rig.keys("D")                          # back to the game menu, then the menu, then out
    assert referee.mode == R.GAME
    rig.keys("DD")
    assert rig.flow.state == F.NEUTRAL and rig.flow.referee is None
    assert referee.flow is None            # the menu holds nothing of the flow any more
    assert rig.engine.phase == 1           # no question answered: the game goes on


def test_a_duplicate_games_move_time_in_the_settings():
    rig = Rig()
    _menu(rig)
    rig.keys("2")
    assert "5 Move" not in rig.screen()
    while rig.settings.get("preset") != "duplicate":
        rig.keys("4")
    assert "5 Move 3:00" in rig.screen()
    rig.keys("5")
    assert "5 Move 1:00" in rig.screen()
    rig.keys("55")
    assert "5 Move 2:00" in rig.screen() and rig.settings.get("preset_edits") == {"move_ms": 120000}
    rig.keys("4")                          # another preset: the move time goes with it
    assert rig.settings.get("preset") == "tso30" and rig.settings.get("preset_edits") == {}
    assert "5 Move" not in rig.screen()


def test_a_duplicate_game_ended_by_the_referee_shows_its_moves():
    rig = Rig(preset="duplicate")
    assert "A Challenge" not in rig.screen()      # no challenges in a duplicate game
    rig.keys("A")
    assert "Not now" in rig.screen()
    rig.clock.advance(1000)
    rig.engine.press(rig.now(), 1)                # move 1
    rig.wait(180000)
    rig.engine.press(rig.now(), 0)                # move 2
    rig.wait(60000)
    screen = _game_menu(rig)
    assert screen.split("\n")[1:3] == ["", ""]    # no clocks to switch
    rig.keys("3")                                 # no 5.2d question: ended at once
    assert rig.engine.phase == 3
    rig.keys("DD")
    assert "Moves: 2" in rig.screen() and "Time" not in rig.screen()
    assert _kinds(rig) == ["start", "move", "move", "end"]
