# A duplicate game on the device (clock.duplicate, docs/clock-engine.md): the referee
# chooses the preset and sets the move time on the keypad, the next game is a duplicate
# game with its own engine, the buttons start the moves, the buzzer sounds the warning
# and the end of a move, and a power cut brings the move back paused.

import hwconfig
import machine
import runtime_rig
from clock.engine import PHASE_PLAY, PHASE_SETUP


def _referee(rig, keys):
    rig.keys("D" + str(rig.dev.config.get("referee_pin", "0000")) + "#" + keys)


def test_the_referee_turns_the_clock_into_a_duplicate_game():
    rig = runtime_rig.Rig(terminal=True, lexicon="de", config={"lang": "en"})
    try:
        rig.press("right")                          # a game on two clocks has begun
        _referee(rig, "2")
        while rig.dev.config.get("preset") != "duplicate":
            rig.keys("4")
        assert "From next game" in rig.screen() and "5 Move 3:00" in rig.screen()
        rig.keys("5")                               # 1:00 a move
        assert rig.dev.config.get("preset_edits") == {"move_ms": 60000}
        assert not rig.dev.engine.duplicate         # the running game keeps its clock
        rig.keys("D4#")                             # the referee's reset: the next game
        rig.run(20)
        engine = rig.dev.engine
        assert engine.duplicate and rig.dev.flow.engine is engine
        assert engine.phase == PHASE_SETUP and engine.display(0).remaining_ms == 60000
        rig.keys("D")
        assert "A Challenge" not in rig.screen()

        rig.press("left")                           # move 1
        assert engine.phase == PHASE_PLAY and engine.display(1).running
        assert rig.dev.board.leds[0].value() == 1 and rig.dev.board.leds[1].value() == 1
        rig.run(30000)
        assert rig.dev.board.buzzer.last_cue == "move_warning"   # 30 s left (on by default)
        rig.run(30000)
        assert rig.dev.board.buzzer.last_cue == "move_end"
        assert not engine.display(0).running and engine.display(0).remaining_ms == 0
        assert machine.sim_pwm(hwconfig.PIN_BUZZER) is not None
    finally:
        runtime_rig.leave()


def test_a_power_cut_in_a_move_brings_it_back_paused():
    rig = runtime_rig.Rig(terminal=True, lexicon="de",
                          config={"lang": "en", "preset": "duplicate",
                                  "preset_edits": {"move_ms": 120000}})
    try:
        assert rig.dev.engine.duplicate and not rig.dev.recovered
        rig.press("right")
        _referee(rig, "4#D")                        # a new game, saved as it is
        rig.power_cut()
        dev = rig.boot()
        assert not dev.recovered                    # nothing of this game happened yet
        assert rig.left_ms(0) == 120000
        rig.press("right")
        rig.run(100000)
        left = rig.left_ms(0)
        rig.power_cut()
        dev = rig.boot()
        assert dev.recovered and dev.engine.duplicate and dev.engine.paused
        assert dev.engine.moves == 1 and abs(rig.left_ms(1) - left) <= 1000
        rig.press("pause")
        rig.run(1000)
        assert dev.engine.display(0).running and rig.left_ms(0) < left
    finally:
        runtime_rig.leave()
