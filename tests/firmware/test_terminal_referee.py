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
