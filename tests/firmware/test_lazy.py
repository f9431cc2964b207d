# The firmware's load-and-drop is declared in lazy.DROPPED (one table, each group with the
# figure that keeps it): after each group's moment none of its modules is resident, and
# every other module a game loaded stays.

import sys

import runtime_rig
from lazy import DROPPED


def _rig():
    return runtime_rig.Rig(terminal=True, lexicon="de", config={"lang": "en"})


def test_a_challenges_modules_go_with_it_and_nothing_else_does():
    rig = _rig()
    try:
        rig.press("right")
        rig.run(2000)
        rig.press("left")
        rig.run(1000)
        rig.press("challenge")
        rig.keys("1")
        rig.type_word("ZUG")
        rig.keys("#")
        loaded = set(sys.modules)
        assert "terminal.wordsteps" in loaded and "terminal.keymap" in loaded
        rig.keys("C#")                            # confirmed: the verdict
        rig.run(11000)                            # its time up: the neutral screen
        assert rig.dev.flow.entry is None
        after = set(sys.modules)
        assert not after & set(DROPPED["challenge"]), after & set(DROPPED["challenge"])
        gone = loaded - after - set(DROPPED["challenge"])
        assert not gone, gone
    finally:
        runtime_rig.leave()


def test_set_up_modules_go_once_the_settings_are_applied():
    rig = _rig()
    try:
        for name in DROPPED["setup"]:
            assert name not in sys.modules, name
        ok, message = rig.dev.config.set("preset", "tso25")
        assert ok, message
        rig.run(100)
        assert rig.dev.engine.preset["name"] == "tso25"
        for name in DROPPED["setup"]:
            assert name not in sys.modules, name
    finally:
        runtime_rig.leave()
