# The device's panels as the players and the referee see them: the real firmware on
# the fakes with the three SSD1306 controllers on their buses, read back pixel by
# pixel (panel_read.find: a text's exact pixels).  MicroPython only: the published
# ssd1306 driver draws with framebuf.

import hwconfig
import machine
import runtime_rig
from mpytest import only_micropython
from panel_read import find
from render.typeset import MEDIUM, SMALL


def _rig(lang="de", **kw):
    only_micropython("the ssd1306 driver needs framebuf")
    config = {"lang": lang}
    config.update(kw.pop("config", {}))
    return runtime_rig.Rig(terminal=True, lexicon="de", panels=True, config=config, **kw)


def _shows(rig, name, text, size=SMALL, inverted=False):
    return find(rig.panel(name), text, size, inverted=inverted) is not None


def test_the_idle_terminal_shows_battery_both_times_penalties_and_who_starts():
    rig = _rig()
    try:
        # before the first press: the charge at once (not "--"), who starts the game
        assert _shows(rig, "terminal", "Bereit")
        assert _shows(rig, "terminal", "75%")             # 3.9 V
        assert _shows(rig, "terminal", "Gegner drückt")
        assert _shows(rig, "terminal", "30:00", MEDIUM)
        rig.press("right")                                 # the left clock runs
        rig.run(5000)
        assert _shows(rig, "terminal", "> L  29:55", MEDIUM)   # the side on turn, its time
        assert _shows(rig, "terminal", "29:55", MEDIUM)
        assert not _shows(rig, "terminal", "A Anfechtung")     # nothing to challenge yet
        rig.press("left")
        rig.run(1000)
        assert _shows(rig, "terminal", "A Anfechtung")         # left's play, in its window
        # the right player challenges the left one's valid word: 10 penalty points
        rig.press("challenge")
        rig.keys("1")
        rig.type_word("HAUS")
        rig.keys("#C#")
        rig.run(11000)                                     # the verdict goes
        assert rig.dev.engine.display(1).penalty_points == 10
        assert _shows(rig, "terminal", "-10", MEDIUM)
        assert _shows(rig, "terminal", "fixture-de 1")
        assert _shows(rig, "terminal", "PIN noch 0000!")       # the preset's line, until set
    finally:
        runtime_rig.leave()


def test_a_new_language_shows_on_every_panel_at_once():
    rig = _rig("de")
    try:
        rig.press("right")
        rig.run(2000)
        rig.press("pause")
        rig.run(100)
        assert _shows(rig, "terminal", "Bereit")
        assert _shows(rig, "left", "GEGNER", MEDIUM)
        ok, _ = rig.dev.config.update({"lang": "en"})      # as `clockctl config lang=en`
        assert ok
        rig.run(10)
        assert _shows(rig, "terminal", "Ready") and not _shows(rig, "terminal", "Bereit")
        assert _shows(rig, "left", "PAUSED", MEDIUM)
        assert _shows(rig, "right", "OPPONENT", MEDIUM)
    finally:
        runtime_rig.leave()


def test_the_recovery_note_a_preset_for_the_next_game_and_a_low_cell_are_seen():
    rig = _rig("en")
    try:
        rig.press("right")
        rig.run(3000)
        rig.power_cut()
        rig.clock.advance(2000)
        rig.boot()
        assert _shows(rig, "terminal", "After power loss")
        assert _shows(rig, "left", "RECOVERED", MEDIUM)
        rig.press("pause")                                 # the game goes on
        rig.run(100)
        ok, _ = rig.dev.config.update({"preset": "tso25"})
        assert ok
        rig.run(10)
        assert _shows(rig, "terminal", "Next: tso25")
        machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1700)      # 3.4 V
        for _ in range(8):
            rig.dev.sample_battery(rig.now())
        assert _shows(rig, "terminal", "12%!")
        assert _shows(rig, "right", "BATTERY LOW", MEDIUM)           # the side not on turn
    finally:
        runtime_rig.leave()


def test_panels_dim_when_no_clock_runs_and_a_press_brightens_them():
    rig = _rig("en")
    try:
        rig.refresh()
        assert rig.contrast("left") == 128 and rig.contrast("terminal") == 128
        rig.run(29000)
        rig.refresh()
        assert rig.contrast("left") == 128
        rig.run(1100)                                      # 30 s before the first press
        rig.refresh()
        assert rig.contrast("left") == 32 and rig.contrast("right") == 32
        assert rig.contrast("terminal") == 32
        rig.press("right")                                 # the game starts
        rig.refresh()
        assert rig.contrast("left") == 128 and rig.contrast("terminal") == 128
        rig.run(60000)                                     # a clock runs: players stay bright
        rig.refresh()
        assert rig.contrast("left") == 128 and rig.contrast("right") == 128
        assert rig.contrast("terminal") == 32              # nothing happened on the terminal
        rig.key("A")                                       # no challenge now: a notice
        rig.refresh()
        assert rig.contrast("terminal") == 128
        rig.press("pause")
        rig.run(31000)
        rig.refresh()
        assert rig.contrast("left") == 32                  # paused for 30 s
        rig.press("pause")
        rig.refresh()
        assert rig.contrast("left") == 128
    finally:
        runtime_rig.leave()


def test_the_digits_move_once_a_minute_but_not_in_the_last_ten_seconds():
    rig = _rig("en", config={"preset": "custom", "preset_edits": {"initial_ms": 125000}})
    try:
        rig.press("right")                                 # left runs from 2:05
        rig.refresh()
        assert rig.dev.shift == 0
        rig.run(60500)
        rig.refresh()
        assert rig.dev.shift == 1
        where = find(rig.panel("left"), "OPPONENT", MEDIUM)
        rig.run(60000)                                     # 0:04 left: no move now
        rig.refresh()
        assert rig.dev.shift == 1
        assert find(rig.panel("left"), "OPPONENT", MEDIUM) == where
        rig.run(5000)                                      # in overtime it may move again
        rig.refresh()
        assert rig.dev.shift == 2
        moved = find(rig.panel("left"), "OPPONENT", MEDIUM)
        assert moved == (where[0] - 1, where[1] + 1)
    finally:
        runtime_rig.leave()


def test_a_challenge_as_the_terminal_shows_it_key_layout_words_verdict():
    from render.typeset import LARGE

    rig = _rig("de")
    try:
        rig.press("right")
        rig.run(2000)
        rig.press("left")
        rig.run(1000)
        rig.press("challenge")
        assert _shows(rig, "terminal", "A Tastenbelegung")
        rig.keys("2")
        # the whole key layout on key A, as the keypad has the keys; any key goes back
        rig.keys("A")
        keymap = rig.dev.flow.keymap
        for key in "1234567890":
            if keymap.cycle(key):
                assert _shows(rig, "terminal", key + " " + keymap.legend(key), MEDIUM), key
        rig.keys("*")
        assert _shows(rig, "terminal", "Wort 1/2")
        rig.type_word("ÜBEL")
        rig.keys("#")
        rig.type_word("ZÜGE")
        rig.keys("#")
        # the opponent checks the words in the pixel font: the umlauts stand clear
        assert _shows(rig, "terminal", "1 ÜBEL", MEDIUM)
        assert _shows(rig, "terminal", "2 ZÜGE", MEDIUM)
        assert not _shows(rig, "terminal", "2 ZUGE", MEDIUM)
        rig.keys("C#")
        assert _shows(rig, "terminal", "ZULÄSSIG", LARGE)
        assert _shows(rig, "terminal", "20 Strafpunkte")
        rig.run(11000)
        assert _shows(rig, "terminal", "Bereit")
    finally:
        runtime_rig.leave()


def test_the_end_screen_keeps_overtime_and_challenge_penalties_apart():
    rig = _rig("de", config={"preset": "custom",
                             "preset_edits": {"initial_ms": 2000, "overtime_cap_ms": 60000}})
    try:
        rig.press("right")                                 # left runs out and forfeits
        rig.run(63000)
        assert _shows(rig, "terminal", "ENDE")
        assert _shows(rig, "terminal", "L -01:01")
        assert _shows(rig, "terminal", "Zeitstrafe")
        assert _shows(rig, "terminal", "Anfechtung")
        assert _shows(rig, "terminal", "-20")
        assert _shows(rig, "left", "SPIELVERLUST", MEDIUM)
    finally:
        runtime_rig.leave()
