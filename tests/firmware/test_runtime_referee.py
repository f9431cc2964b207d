# The referee at the device, through the keypad and the panels: the PIN lock across
# power cuts and its growing lockouts, the default PIN on the idle screen, a device on
# for days and weeks (every stored tick compared right at any uptime), the final play's
# window across a cut, and the referee's situations of TSO 3.1.4 and 7.3.2.2 (a loss of
# turn followed by a wrong challenge, a late arrival keyed after the limit, a lent
# clock).  The device on the fakes (tests/firmware/runtime_rig.py) with the German
# fixture list.

import runtime_rig
from clock.engine import PHASE_OVER, PHASE_PLAY, PHASE_SETUP
from mpytest import only_micropython
from terminal import flow as F
from terminal import referee as R
from terminal.pinlock import lock_ms

SEC = 1000
MIN = 60 * SEC
DAY = 24 * 60 * MIN


# The tests that take more than a few seconds: left out of `python3 -m tests --fast`
# (tests/conftest.py reads this; a firmware test module cannot import pytest).
SLOW = ("test_guessing_with_cuts_at_random_moments_gains_nothing", "test_each_lockout_is_longer_until_the_right_pin_and_cuts_change_nothing")


def _rig(lang="en", panels=False, **config):
    if panels:
        only_micropython("the ssd1306 driver needs framebuf")
    config["lang"] = lang
    return runtime_rig.Rig(terminal=True, lexicon="de", config=config, panels=panels)


def _cut(rig, off_ms=5000):
    rig.power_cut()
    rig.clock.advance(off_ms)
    return rig.boot()


def _lines(rig):
    return rig.screen().split("\n")


def _locked_s(rig):
    """The seconds the PIN entry shows as locked, or 0."""
    for line in _lines(rig):
        if line.startswith("Locked "):
            return int(line.split()[1])
    return 0


def _wrong_three(rig):
    rig.keys("1111#2222#3333#")


def _on_for(rig, ms, step=10 * MIN):
    """The device left on and idle for ms: the main loop's rounds (coarse: every stored
    tick must stay right however far apart they are) and the display task's."""
    while ms > 0:
        d = step if ms > step else ms
        rig.clock.advance(d)
        ms -= d
        rig.dev.tick(rig.now())
        rig.refresh()


def _draws(seed):
    """draw(n): a number in 0..n-1, the same series on every interpreter."""
    state = [seed]

    def draw(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n
    return draw


# --- the PIN lock ------------------------------------------------------------------------

def test_lockouts_grow_and_stop_at_15_minutes():
    assert [lock_ms(n) // SEC for n in range(1, 9)] == [30, 60, 120, 240, 480, 900, 900, 900]


def test_the_lockout_survives_a_power_cut_and_starts_again_in_full():
    rig = _rig()
    try:
        rig.key("D")
        _wrong_three(rig)
        assert _locked_s(rig) == 30
        rig.run(20 * SEC)
        assert _locked_s(rig) == 10
        _cut(rig)
        rig.key("D")
        assert rig.dev.flow.state == F.REFEREE and _locked_s(rig) == 30   # in full
        rig.keys("0000#")                       # even the right PIN waits
        assert rig.dev.flow.referee.mode == R.PIN
        rig.run(29 * SEC)
        assert _locked_s(rig) == 1
        rig.run(1 * SEC)
        assert _locked_s(rig) == 0
        rig.keys("0000#")
        assert rig.dev.flow.referee.mode == R.MENU
    finally:
        runtime_rig.leave()


def test_each_lockout_is_longer_until_the_right_pin_and_cuts_change_nothing():
    rig = _rig()
    try:
        rig.key("D")
        for n, seconds in enumerate((30, 60, 120, 240, 480, 900, 900)):
            rig.keys("1111#2222#")
            if n % 2:
                _cut(rig)                       # a cut between two wrong PINs...
                rig.key("D")
            rig.keys("3333#")                   # ...keeps their count
            assert _locked_s(rig) == seconds, (n, _locked_s(rig))
            if n % 3 == 2:
                _cut(rig)                       # a cut in the lockout restarts it
                rig.key("D")
                assert _locked_s(rig) == seconds
            rig.run(seconds * SEC, step=1000)
            if rig.dev.flow.state != F.REFEREE:
                rig.key("D")                    # (the menu closed itself meanwhile)
            assert _locked_s(rig) == 0
        rig.keys("0000#")                       # the right PIN: the count starts again
        assert rig.dev.flow.referee.mode == R.MENU
        rig.keys("D")
        rig.key("D")
        _wrong_three(rig)
        assert _locked_s(rig) == 30
    finally:
        runtime_rig.leave()


def test_guessing_with_cuts_at_random_moments_gains_nothing():
    # The attack a lock in RAM invited: three guesses, a power cut, three more.  A fault
    # test of the lock in NVS: power cuts at random moments (while a guess is typed,
    # right after a wrong PIN, in a lockout), seeded.  Each cut restarts a lockout in
    # full, the count of wrong PINs survives, and the lockouts grow: in an hour of
    # trying, at most 3 guesses per lockout of 30 s, 1, 2, 4, 8, 15, 15 ... minutes.
    draw = _draws(7)
    rig = _rig()
    try:
        start = rig.now()
        guesses = 0
        end = 60 * MIN
        from timebase import ticks_diff

        while ticks_diff(rig.now(), start) < end:
            if rig.dev.flow.state != F.REFEREE:
                rig.key("D")
            if _locked_s(rig):
                if draw(2):
                    _cut(rig, draw(3000))                  # cut: does it lift the lock?
                else:
                    rig.run((1 + draw(30)) * SEC, step=1000)
                continue
            guess = "%04d#" % (1 + draw(9999))
            way = draw(4)
            if way == 0:
                rig.keys(guess[:1 + draw(4)])           # a cut while a guess is typed
                _cut(rig, draw(3000))
                continue
            rig.keys(guess)
            guesses += 1
            if way == 1:
                _cut(rig, draw(3000))                   # a cut right after a wrong PIN
        assert rig.dev.flow.pin_lock.lockouts == guesses // 3
        assert rig.dev.flow.referee is None or rig.dev.flow.referee.mode == R.PIN
        # 30 s + 1 + 2 + 4 + 8 + 15 min = 30.5 min locked after 18 guesses; then
        # one lockout of 15 min per 3 guesses: at most 2 more lockouts in the hour
        assert guesses <= 3 * 8, guesses
    finally:
        runtime_rig.leave()


def test_the_idle_screen_says_the_pin_is_still_the_default_until_it_is_set():
    rig = _rig()
    try:
        assert "PIN still 0000!" in _lines(rig)
        rig.keys("D0000#23")                    # settings, change PIN
        rig.keys("4711#")
        assert _lines(rig)[6] == "Saved"
        rig.keys("DD")
        assert rig.dev.flow.state == F.NEUTRAL
        assert "PIN still 0000!" not in _lines(rig) and "tso30" in _lines(rig)
    finally:
        runtime_rig.leave()


# --- days and weeks on --------------------------------------------------------------

def _uptime(days):
    rig = _rig()
    try:
        rig.key("D")
        _wrong_three(rig)                       # a lockout at the start of the days
        rig.keys("D")
        _on_for(rig, days * DAY)
        rig.key("D")
        assert _locked_s(rig) == 0
        rig.keys("0000#")                       # the referee gets in
        assert rig.dev.flow.referee.mode == R.MENU
        rig.keys("D")
        rig.key("D")
        _wrong_three(rig)                       # a lockout after the days: its 30 s
        assert _locked_s(rig) == 30             # (the right PIN reset the count)
        rig.run(30 * SEC, step=500)
        rig.keys("0000#")
        assert rig.dev.flow.referee.mode == R.MENU
        rig.keys("D")
        # a game after the days: the clocks charge exactly what runs
        rig.press("right")
        rig.run(10 * SEC)
        rig.press("left")
        engine = rig.dev.engine
        assert 10 * SEC <= engine.used_ms(0) <= 10 * SEC + 100   # 10 s and the press
        rig.run(25 * SEC)
        rig.press("pause")
        _on_for(rig, days * DAY)                        # paused for as long again
        rig.press("pause")
        rig.run(5 * SEC)
        assert engine.display(1).running and 30000 <= engine.used_ms(1) < 30400
    finally:
        runtime_rig.leave()


def test_after_7_days_on_the_referee_gets_in_and_the_clocks_are_exact():
    _uptime(7)


def test_after_13_days_on_the_referee_gets_in_and_the_clocks_are_exact():
    _uptime(13)


def test_after_30_days_on_the_referee_gets_in_and_the_clocks_are_exact():
    _uptime(30)


def test_the_panels_dim_and_brighten_after_7_13_and_30_days_on():
    rig = _rig(panels=True)
    try:
        for days in (7, 6, 17):                         # on for 7, 13, 30 days
            _on_for(rig, days * DAY)
            assert rig.contrast("left") == 32 and rig.contrast("terminal") == 32
            rig.key("*")                                # a key: bright again
            rig.refresh()
            assert rig.contrast("left") == 128 and rig.contrast("terminal") == 128
            rig.run(29 * SEC, step=1000)
            rig.refresh()
            assert rig.contrast("left") == 128
            rig.run(2 * SEC, step=1000)
            rig.refresh()
            assert rig.contrast("left") == 32
    finally:
        runtime_rig.leave()


def test_a_clock_left_running_for_a_week_charges_the_week():
    # no forfeit at the overtime cap in this preset: the clock runs on for days
    rig = _rig(preset="custom", preset_edits={"overtime_cap_consequence": "none"})
    try:
        rig.press("right")
        _on_for(rig, 7 * DAY, step=15 * MIN)
        rig.run(1000)
        engine = rig.dev.engine
        assert engine.display(0).running and engine.phase == PHASE_PLAY
        assert 7 * DAY <= engine.used_ms(0) < 7 * DAY + 2 * SEC
        saves = rig.dev.saves
        rig.run(3 * SEC)
        assert rig.dev.saves > saves                     # saved as it runs, still
    finally:
        runtime_rig.leave()


# --- the final play's window across a cut -------------------------------------------

def _finished(rig):
    from app.device import FINISH_HOLD_MS

    rig.press("right")
    rig.run(3000)
    rig.press("left")                                   # left's play
    rig.run(21000)                                      # its window over: right on turn
    rig.down("pause")                                   # right's last move
    rig.run(FINISH_HOLD_MS + 50)
    rig.up("pause")
    rig.run(50)
    rig.key("#")
    assert rig.dev.engine.phase == 2


def test_the_final_plays_window_comes_back_with_its_seconds():
    rig = _rig()
    try:
        _finished(rig)
        rig.run(3000)
        before = rig.dev.engine.display(0).window_s
        assert before == 17
        dev = _cut(rig)
        after = dev.engine.display(0).window_s
        assert before <= after <= before + 1, (before, after)    # a save a second at most
        rig.press("pause")                              # the game goes on
        rig.run((after - 1) * SEC)
        assert dev.engine.phase == 2
        rig.run(1100)
        assert dev.engine.phase == PHASE_OVER           # the final play is accepted
    finally:
        runtime_rig.leave()


# --- TSO 3.1.4 and 7.3.2.2 at the table ----------------------------------------------

def _menu(rig):
    if rig.dev.flow.state != F.REFEREE:
        rig.key("D")
    rig.keys("0000#")
    assert rig.dev.flow.referee.mode == R.MENU


def test_a_wrong_challenge_after_a_loss_of_turn_runs_the_clock_of_the_side_on_turn():
    rig = _rig()
    try:
        rig.press("right")
        rig.run(3000)
        rig.press("left")                               # left's play; right on turn
        rig.run(1000)
        _menu(rig)
        rig.keys("62")                                  # 7.3.2.2: right loses the turn
        engine = rig.dev.engine
        assert engine.on_turn == 0 and engine.display(0).running
        rig.keys("DD")
        assert rig.dev.flow.state == F.NEUTRAL and "A Challenge" in _lines(rig)
        rig.press("challenge")                          # right challenges left's word
        rig.keys("1")
        rig.type_word("HAUS")
        rig.keys("#C#")
        lines = _lines(rig)
        assert lines[0] == "ACCEPTABLE" and "10 penalty pts" in lines
        assert "Clock: left" in lines                   # the side on turn
        assert engine.display(0).running and not engine.display(1).running
        assert engine.display(1).penalty_points == 10
        rig.run(11000)
        assert engine.display(0).running and engine.on_turn == 0
    finally:
        runtime_rig.leave()


def test_the_same_on_the_panels():
    from panel_read import find
    from render.typeset import MEDIUM

    rig = _rig("de", panels=True)
    try:
        rig.press("right")
        rig.run(3000)
        rig.press("left")
        rig.run(1000)
        _menu(rig)
        rig.keys("62DD")
        rig.press("challenge")
        rig.keys("1")
        rig.type_word("HAUS")
        rig.keys("#C#")
        rig.run(11000)
        # left's clock runs (its top line lit), the play stands on both panels
        assert find(rig.panel("left"), "AKZEPTIERT", MEDIUM, inverted=True) is not None
        assert find(rig.panel("right"), "AKZEPTIERT", MEDIUM) is not None
        assert find(rig.panel("right"), "-10", MEDIUM) is not None
    finally:
        runtime_rig.leave()


def test_a_lent_clock_shows_on_both_panels_until_it_is_given_back():
    from panel_read import find
    from render.typeset import MEDIUM

    rig = _rig("de", panels=True)
    try:
        rig.press("right")
        rig.run(3000)
        rig.press("left")
        rig.run(25000)                                  # right on turn, the window over
        _menu(rig)
        rig.keys("61DD")                               # the clock lent to left (3.1.1)
        engine = rig.dev.engine
        assert engine.display(0).running and engine.on_turn == 1
        assert find(rig.panel("left"), "UHR VERLIEHEN", MEDIUM) is not None
        assert find(rig.panel("right"), "UHR VERLIEHEN", MEDIUM) is not None
        rig.press("left")                               # noted: left gives it back
        assert engine.display(1).running and not engine.display(1).lent
        assert find(rig.panel("left"), "UHR VERLIEHEN", MEDIUM) is None
        assert find(rig.panel("right"), "UHR VERLIEHEN", MEDIUM) is None
    finally:
        runtime_rig.leave()


def test_a_late_arrival_keyed_after_the_limit_is_undone_and_the_game_starts():
    # TSO 2.4b: left arrived within 15 minutes, the arrival was keyed after: the clock
    # forfeited; the referee takes the forfeit back, and that is the arrival
    rig = _rig()
    try:
        _menu(rig)
        rig.keys("661")                                 # left's late clock runs
        engine = rig.dev.engine
        assert engine.display(0).late and engine.display(0).running
        rig.keys("DD")
        rig.run(15 * MIN + 2 * SEC, step=1000)
        assert engine.phase == PHASE_OVER and engine.forfeit_side == 0
        _menu(rig)
        rig.keys("6")
        assert "4 Undo forfeit" in _lines(rig)
        rig.keys("4")
        assert _lines(rig)[0] == "Done"
        assert engine.phase == PHASE_SETUP and engine.forfeit_side == -1
        assert not engine.paused and not engine.display(0).running
        assert engine.result()["sides"][0]["late_ms"] == 15 * MIN
        rig.keys("DD")
        rig.press("right")                              # 2.3: the game starts
        rig.run(2 * MIN, step=1000)
        assert engine.phase == PHASE_PLAY and engine.forfeit_side == -1
        assert engine.display(0).running
        assert 13 * MIN - 2 * SEC < rig.left_ms(0) <= 13 * MIN   # 30 - 15 - 2 min
    finally:
        runtime_rig.leave()


def test_late_clocks_stopped_by_the_pause_take_the_arrival_from_the_menu_and_the_player():
    rig = _rig()
    try:
        _menu(rig)
        rig.keys("661662")                              # both players late (2.4b ii)
        rig.keys("DD")
        rig.run(5 * MIN, step=1000)
        rig.press("pause")                              # the central switch
        engine = rig.dev.engine
        assert engine.paused and engine.late_clock(0) and engine.late_clock(1)
        _menu(rig)
        rig.keys("661")                                 # left's arrival, from the pause
        assert _lines(rig)[0] == "Done" and not engine.late_clock(0)
        assert engine.paused and engine.late_clock(1)   # right's clock waits for the switch
        assert engine.result()["sides"][0]["late_ms"] // SEC == 300
        rig.keys("DD")
        rig.press("right")                              # right's own press: its arrival
        assert not engine.late_clock(1) and not engine.paused
        assert engine.result()["sides"][1]["late_ms"] // SEC == 300
        assert engine.phase == PHASE_SETUP and engine.forfeit_side == -1
        rig.press("left")                               # the game starts: right's clock
        assert engine.phase == PHASE_PLAY and engine.display(1).running
    finally:
        runtime_rig.leave()
