# When the display task collects garbage (app.tasks.display_step): once a press or a
# key was handled, at the first frame from which no panel changes by itself for a
# while (Device.quiet_ms), within a second of the event.  The "next change" figures
# are checked against what the displays then show, time driven by hand.

import runtime_rig
from app.tasks import display_step
from clock_helpers import game

ROOM = 250          # app.tasks._GC_ROOM_MS (a const: not readable under MicroPython)
LIMIT = 60000


def _shown(engine):
    out = []
    for side in (0, 1):
        d = engine.display(side)
        out.append((bytes(d.text), d.window_s, d.penalty_points, d.forfeit, d.window_open))
    return out


def _check_next_change(table):
    """engine.quiet_ms says when the displays change next: not a ms before, and then."""
    engine = table.engine
    q = engine.quiet_ms(table.now(), LIMIT)
    assert 0 < q < LIMIT, q
    before = _shown(engine)
    table.wait(q - 1)
    assert _shown(engine) == before, q
    assert engine.quiet_ms(table.now(), LIMIT) == 1
    table.wait(1)
    assert _shown(engine) != before, q
    return q


def test_next_change_of_a_count_down_overtime_penalty_and_window():
    t = game("tso30", {"initial_ms": 3000, "challenge_window_ms": 0})
    assert t.engine.quiet_ms(t.now(), LIMIT) == 1000          # 00:03 until 2.000 s left
    t.wait(300)
    assert _check_next_change(t) == 700                       # 00:02 at 2000 ms left
    assert _check_next_change(t) == 1000
    assert _check_next_change(t) == 1000                      # 00:00
    assert _check_next_change(t) == 1                         # -00:01 the first ms over
    t.wait(250)
    assert _check_next_change(t) == 750                       # -00:02 at 1001 ms over
    t.wait(57000)                                             # the next penalty minute
    points = t.show(0).penalty_points
    while t.show(0).penalty_points == points:
        _check_next_change(t)
    assert -60001 <= t.left(0) <= -60000, t.left(0)           # at the minute, as the rule says
    # the challenge window's seconds beside the running clock
    w = game("tso30", {"challenge_window_ms": 20000})
    w.wait(1234)
    w.press(0)                                                # a play: the window opens
    assert w.show(1).window_s == 20
    w.wait(450)
    assert _check_next_change(w) == 550                       # the window's 19 (and 29:59)
    w.wait(200)
    w.engine.pause(w.now())                                   # paused: nothing changes
    w.engine.update(w.now())
    assert w.engine.quiet_ms(w.now(), LIMIT) == LIMIT


def test_next_change_of_a_duplicate_move():
    from clock.presets import PRESET_NAMES, get_preset

    name = [n for n in PRESET_NAMES if get_preset(n)["move_ms"] > 0]
    assert name
    from clock_helpers import Table

    t = Table(name[0])
    t.press(0)                                                # the first move starts
    t.wait(1300)
    assert _check_next_change(t) == 700


def _frames(rig, step, ms):
    """The tasks for `ms`: a tick every 10 ms, a display round every 50 ms; the rounds
    as (ticks, quiet ms, collected)."""
    rounds = []
    for i in range(ms // 10):
        rig.run(10)
        if i % 5 == 4:
            now = rig.now()
            quiet = rig.dev.quiet_ms(now, LIMIT)
            rounds.append((now, quiet, step(now)))
    return rounds


def test_display_step_collects_after_a_press_once_no_panel_is_about_to_change():
    rig = runtime_rig.Rig()
    try:
        dev = rig.dev
        step = display_step(dev)
        rig.press("right")                                    # the left clock runs
        assert [c for _t, _q, c in _frames(rig, step, 1000)].count(True) == 1
        # pause with the left clock 150-200 ms from its next second...
        while not 150 <= (rig.left_ms(0) - 1) % 1000 + 1 <= 200:
            rig.run(10)
        rig.press("pause")
        _frames(rig, step, 1000)
        left = rig.left_ms(0)
        due = (left - 1) % 1000 + 1
        assert 120 <= due < ROOM, due
        # ...and resume: that second comes soon, so the collection waits for it
        pressed = rig.now()
        rig.press("pause")
        assert dev.engine.display(0).running
        text = bytes(dev.engine.display(0).text)
        rounds = _frames(rig, step, 1500)
        done = [r for r in rounds if r[2]]
        assert len(done) == 1, rounds
        at, quiet, _ = done[0]
        assert quiet >= ROOM
        for t, q, _c in rounds:
            if t == at:
                break
            assert q < ROOM, (t, q)                           # deferred only while one is due
        assert rounds[0][2] is False                          # the first frame did not collect
        assert at - pressed < 100 + due + 100, (at - pressed, due)   # just after that second
        assert bytes(dev.engine.display(0).text) != text
    finally:
        runtime_rig.leave()


def test_a_notice_on_the_terminal_is_a_change_due():
    rig = runtime_rig.Rig(terminal=True)
    try:
        dev = rig.dev
        rig.press("challenge")                                # nothing to challenge yet
        screen = rig.screen()
        q = dev.quiet_ms(rig.now(), LIMIT)
        assert 2800 <= q < 3000, q                            # the notice's 3 s
        rig.run(q - 10)
        assert rig.screen() == screen
        rig.run(20)
        assert rig.screen() != screen
        assert dev.quiet_ms(rig.now(), LIMIT) > 20000         # then only dimming is due
    finally:
        runtime_rig.leave()


class _Panels:
    """A device whose panels change every 100 ms: the collection comes all the same."""

    def __init__(self, clock):
        self.clock = clock
        self.events = 0
        self.flow = None

    def refresh(self, now):
        return 0

    def quiet_ms(self, now, limit):
        return 100 - now % 100


def test_a_collection_comes_within_a_second_even_if_the_panels_change_all_the_time():
    from timebase import ManualClock

    clock = ManualClock(1000)
    dev = _Panels(clock)
    step = display_step(dev)
    dev.events += 1
    collected = []
    for _ in range(40):
        now = clock.advance(50)
        if step(now):
            collected.append(now - 1000)
    assert collected[0] == 1050 and len(collected) == 1, collected
    dev.events += 1                                           # a key, then nothing more
    assert not step(clock.advance(50))
