# Runs the firmware (app.build + Device) under MicroPython with the fakes, the
# sim panels on both buses and a ManualClock, and plays a random game as fast
# as it can, printing each step's state.  Used by the recovery tests, which
# kill this process at random moments and start it again.
#
#   micropython runtime_driver.py play SEED STEPS   resume if recovered, play
#   micropython runtime_driver.py check              boot, report, exit
#   micropython runtime_driver.py memory STEPS       a game with challenges, ended, its
#                                                    scores typed; heap figures
#   micropython runtime_driver.py gcpause STEPS      the same game, the display task's
#                                                    collections timed (bench/bench_gc.py):
#                                                    "C host_us at quiet_ms" for each
#                                                    (the shortest of 5 timings),
#                                                    "O at quiet_ms screen" for one outside
#                                                    it, "T at" for each key, "P ..."
#
# Lines: "B recovered paused phase left0 left1 note" after boot,
#        "S step left0 left1" after every 10 ms step, "E" at the end.
# left = remaining ms (negative: overtime).

import gc
import sys


def _intern_extra_names():
    """$TC_EXTRA_NAMES names interned before anything else (the memory tests: a game
    must not depend on where the qstr pools' next pool starts); returns (how many, the
    heap they took)."""
    import os

    count = int(os.getenv("TC_EXTRA_NAMES") or 0)
    gc.collect()
    before = gc.mem_alloc()
    for i in range(count):
        getattr(None, "extra_name_%d" % i, None)        # an attribute name is interned
    gc.collect()
    return count, gc.mem_alloc() - before


EXTRA = _intern_extra_names()

import esp32  # noqa: F401,E402 (the fakes first: the memory mode reports their share)
import machine
import sim_device  # noqa: F401
import sim_ssd1306

gc.collect()
FAKES_BYTES = gc.mem_alloc()
SIM_BYTES = [0]
MATRIX = []          # the keypad's key matrix (machine.SimKeyMatrix)

import hwconfig
import random
from timebase import ManualClock

import app
from app import board as board_mod

_QUIET_MAX = 60000   # gcpause: how far ahead a panel's next change is looked for
_GC_REPEATS = 5      # gcpause: each collection timed this often, the shortest kept

PINS = (hwconfig.PIN_BUTTON_LEFT, hwconfig.PIN_BUTTON_RIGHT, hwconfig.PIN_BUTTON_PAUSE,
        hwconfig.PIN_BUTTON_CHALLENGE)


def left(dev, side):
    d = dev.engine.display(side)
    return d.remaining_ms - d.overtime_ms


HALL = []      # the hall's task (app.hall.start), when the configuration sets the hall up


def boot(clock):
    machine.sim_set_clock(clock)
    machine.sim_attach_i2c(sim_ssd1306.SSD1306Panel(), hwconfig.ADDR_DISPLAY_LEFT,
                           bus=hwconfig.I2C_PLAYERS_ID)
    machine.sim_attach_i2c(sim_ssd1306.SSD1306Panel(), hwconfig.ADDR_DISPLAY_RIGHT,
                           bus=hwconfig.I2C_PLAYERS_ID)
    machine.sim_attach_i2c(sim_ssd1306.SSD1306Panel(), hwconfig.ADDR_DISPLAY_TERMINAL,
                           bus=hwconfig.I2C_TERMINAL_ID)
    machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1950)
    # the board's pull-ups on the keypad columns (input-only pins)
    MATRIX[:] = [machine.SimKeyMatrix(hwconfig.KEYPAD_ROWS, hwconfig.KEYPAD_COLS,
                                      hwconfig.KEYPAD_LAYOUT)]
    # On the chip every pin's state is a static C object, there before the firmware
    # runs: make the fakes' state of each pin of the board now, so that it counts with
    # the chip's share, not the firmware's.
    for gpio in hwconfig.PINS.values():
        machine.Pin(gpio)
    gc.collect()
    SIM_BYTES[0] = gc.mem_alloc()           # fakes, simulated panels and keypad wired
    board = board_mod.create(clock)
    dev = app.build(clock, board)
    # as app.run(): the hall's task when the hall is set up (config.json), else none
    HALL[:] = app.hall_tasks(dev, clock)
    e = dev.engine
    print("B %d %d %d %d %d %s" % (dev.recovered, e.paused, e.phase, left(dev, 0), left(dev, 1),
                                   dev.recovery_note or "-"))
    return dev


class Player:
    """Presses buttons like the rig's fingers: down, held a while, up."""

    def __init__(self, dev, clock):
        self.dev = dev
        self.clock = clock
        self.step = 0
        self._every = 0
        self._sample = None
        self._display = None        # the display task's round (app.tasks), gcpause mode
        self._display_task = None   # the same round untimed (memory mode)
        self.presses = []           # virtual ms of each press (its interrupt)

    def sample_every(self, n, func):
        """Call func() every n steps (the memory mode's heap samples)."""
        self._every = n
        self._sample = func

    def advance(self, n=1):
        for _ in range(n):
            self.clock.advance(10)
            now = self.clock.ticks_ms()
            before = gc.mem_alloc()
            flow = self.dev.flow
            state = flow.state if flow is not None else -1
            self.dev.tick(now)
            self.dev.scan_keys(now)
            if self.dev.hall is not None and self.step % 10 == 0:
                self.dev.hall.step(now)        # the hall's task, every 100 ms
            if self._display is not None and gc.mem_alloc() < before:
                # a collection the display task did not make: when, how long the panels
                # were to stay as they were, and 1 if the terminal's screen changed with
                # it (a mode's modules dropped, lazy.unload), else 0 (an allocation
                # forced it)
                print("O %d %d %d" % (now, self.dev.quiet_ms(now, _QUIET_MAX),
                                      flow is not None and flow.state != state))
            self.step += 1
            if self.step % 5 == 0:
                if self._display is not None:
                    self._display_round(now)
                elif self._display_task is not None:
                    self._display_task(now)
                else:
                    self.dev.refresh(now)
            if self._sample is not None and self.step % self._every == 0:
                self._sample()
            print("S %d %d %d" % (self.step, left(self.dev, 0), left(self.dev, 1)))

    def _display_round(self, now):
        import time

        # draw first, so that the round timed below is the collection (and a check);
        # how long the panels stay as they are, as the display task sees it
        self.dev.refresh(now)
        quiet = self.dev.quiet_ms(now, _QUIET_MAX)
        t = time.ticks_us()
        collected = self._display(now)
        t = time.ticks_diff(time.ticks_us(), t)
        if collected:
            # The same collection again, _GC_REPEATS - 1 times at once: the same live
            # objects in the same heap (it finds no garbage left to free).  Other work on
            # the host can only lengthen a timing, so the shortest is kept.
            for _ in range(_GC_REPEATS - 1):
                t0 = time.ticks_us()
                gc.collect()
                t = min(t, time.ticks_diff(time.ticks_us(), t0))
            # printed at once: the game's heap holds no record of it
            print("C %d %d %d" % (t, now, quiet))

    def run_display_task(self):
        """Redraw as the device's display task does every 50 ms (app.tasks.display_step:
        with its collection after the frame that shows a press or a key)."""
        from app.tasks import display_step

        self._display_task = display_step(self.dev)

    def time_display_task(self):
        from app.tasks import display_step

        self._display = display_step(self.dev)

    def press(self, index, hold_ms=40):
        """Button `index` down for `hold_ms` (a press held long: the pause switch's
        end-of-game question), then up."""
        self.presses.append(self.clock.ticks_ms())
        machine.sim_press(PINS[index])
        self.advance(hold_ms // 10)
        machine.sim_release(PINS[index])
        self.advance(4)


def play(seed, steps):
    clock = ManualClock()
    dev = boot(clock)
    p = Player(dev, clock)
    random.seed(seed)
    e = dev.engine
    if dev.recovered and e.paused:
        p.press(2)                          # pause: resume the recovered game
    if e.on_turn < 0:
        p.press(1)                          # the opponent starts the left clock
    while p.step < steps:
        p.advance(random.randint(20, 600))  # think 0.2-6 s
        r = random.randint(0, 19)
        if r == 0 and not e.paused:
            p.press(2)                      # pause...
            p.advance(random.randint(10, 200))
            p.press(2)                      # ...and resume
        elif e.on_turn >= 0:
            p.press(e.on_turn)              # end of turn
    print("E")


GC_US = [0, 0, 0]     # the longest collection, all of them, how many (host microseconds)


def _live(raw):
    """Live heap after a collection; raw[0] keeps the highest heap use seen before
    collecting (live objects plus garbage not yet collected).  Times the collection."""
    import time

    raw[0] = max(raw[0], gc.mem_alloc())
    t = time.ticks_us()
    gc.collect()
    t = time.ticks_diff(time.ticks_us(), t)
    GC_US[0] = max(GC_US[0], t)
    GC_US[1] += t
    GC_US[2] += 1
    return gc.mem_alloc()


def _origin():
    """Where the firmware's code was loaded from: "frozen" when every firmware module is
    frozen into the interpreter (as in the lean target's image: its __file__ is the
    manifest's path, which names no file), "rom" when from a ROMFS mounted at /rom (code
    in place, outside the heap), "fw/a" (or fw/b) when from that firmware slot of the
    filesystem, else "files"."""
    import os

    seen = set()
    for name in ("clock.engine", "app.device", "terminal.flow", "lexicon.reader", "hwconfig"):
        f = sys.modules[name].__file__
        if f.startswith("/rom/"):
            seen.add("rom")
        elif f.startswith("fw/"):
            seen.add(f[:4])
        else:
            try:
                os.stat(f)
                seen.add("files")
            except OSError:
                seen.add("frozen" if ".frozen" in sys.path else "files")
    return seen.pop() if len(seen) == 1 else "mixed"


def _heap():
    """The heap's size now, all areas (the test interpreters' romimage.heap()), else
    what gc reports."""
    try:
        import romimage
    except ImportError:
        return gc.mem_alloc() + gc.mem_free(), 1
    return romimage.heap()


# Challenged plays, typable with the Polish tiles; the list decides (ŻÓŁWZ, DOMŹ are
# not words).
PLAYS = (("ŻÓŁW",), ("KOT", "DOMŹ"), ("ZAJĄC", "PSZCZOŁA", "ŹDŹBŁO"), ("ŻÓŁWZ",),
         ("DOM", "ŁĄKA"), ("KOTY",))


def key_presses(flow, word):
    """The keys that type a written word on the terminal's keypad: digits, with B
    between two tiles of one key (the flow's own key map)."""
    out = ""
    last = None
    for tile in flow.lexicon.parse(word):
        key, pos = flow.keymap.where(tile)
        if key == last:
            out += "B"
        out += key * (pos + 1)
        last = key
    return out


class Challenger(Player):
    """A player who also uses the terminal's keypad, through the key matrix."""

    def key(self, ch):
        if self._display is not None:       # gcpause: when each key was pressed
            print("T %d" % self.clock.ticks_ms())
        MATRIX[0].press_key(ch)
        self.advance(4)
        MATRIX[0].release_key(ch)
        self.advance(3)

    def challenge(self, words):
        """The challenge button, the count, each word and #, the opponent's C, the
        typist's #: returns the verdict (True: acceptable) once the terminal is neutral."""
        flow = self.dev.flow
        self.press(3)
        assert flow.active(), "the challenge did not start"
        self.key(str(len(words)))
        for word in words:
            for ch in key_presses(flow, word):
                self.key(ch)
            self.key("#")
        self.key("C")
        self.key("#")
        verdict = flow.verdict
        assert verdict is not None, flow.screen().text()
        while flow.active():
            self.advance(50)
        self.advance(160)       # keys are ignored for 1.5 s after the verdict goes
        if not verdict:
            # the play withdrawn (TSO 3.1.4): its player takes the tiles back and restarts
            # the challenger's clock
            self.press(1 - self.dev.engine.on_turn)
        return verdict


# The scores from the score sheets once the game is over (terminal.scores), as the players
# type them on the keypad: left types 4129, deletes the 9 (*), ends with #; the opponent
# disputes it (*), left corrects it to 413 and the opponent confirms (C); right types 380,
# confirmed.
SCORE_KEYS = (("4129*#", "*"), ("*3#", "C"), ("380#", "C"))
SHEET = (413, 380)


def finish_and_score(p, sample):
    """The players end the game as the firmware lets them, then type their scores: the
    player on turn, having made the last move, holds the pause switch (2 s: "game
    over?") and answers # (the end phase, TSO 5.1b); the opponent accepts the final play
    (C, then # to "game over?"): the game is over.  The terminal asks for the scores at
    once; SCORE_KEYS types them with a correction and a dispute, both confirmed, and the
    result screen shows them.  The keys go through the key matrix, as in a challenge;
    sample() after the game's end and after each step of the entry."""
    from app.device import FINISH_HOLD_MS
    from clock.engine import PHASE_ENDING, PHASE_OVER

    dev = p.dev
    e = dev.engine
    flow = dev.flow
    assert e.on_turn >= 0 and not e.paused, (e.on_turn, e.paused)
    p.advance(200)                          # the last move
    p.press(2, FINISH_HOLD_MS + 100)        # the pause switch, held
    assert flow.prompting(), flow.screen().text()
    p.key("#")                              # that was the last move
    assert e.phase == PHASE_ENDING, e.phase
    p.advance(100)
    p.key("C")                              # the opponent accepts the final play...
    p.key("#")                              # ...and so ends the game
    assert e.phase == PHASE_OVER, e.phase
    p.advance(10)
    sample()
    for typed, answer in SCORE_KEYS:
        assert flow.active(), flow.screen().text()      # the score entry, asked at once
        for ch in typed:
            p.key(ch)
        sample()
        p.key(answer)                       # the opponent's check
        sample()
    assert flow.sheet_scores() == list(SHEET), (flow.sheet_scores(), flow.screen().text())
    p.advance(20)
    assert not flow.active() and "%4d %4d" % SHEET in flow.screen().text(), \
        flow.screen().text()


def run_tasks(dev, clock, ms, sample, server=None):
    """The asyncio tasks of app.tasks (tick, keypad, display, battery, watchdog, and the
    link's `server` task) for `ms` of real time, the manual clock keeping pace, with a
    press on each side."""
    import asyncio
    from app import tasks

    async def script():
        for step in range(ms // 10):
            if step % 100 == 10:
                machine.sim_press(PINS[max(dev.engine.on_turn, 0)])
            elif step % 100 == 16:
                machine.sim_release(PINS[max(dev.engine.on_turn, 0)])
            clock.advance(10)
            if step % 50 == 0:
                sample()
            await asyncio.sleep_ms(10)

    async def run():
        asyncio.create_task(tasks.main(dev, None, server, HALL))
        await script()

    events = dev.events
    asyncio.run(run())
    assert dev.events > events, "the tasks handled no press"


def memory(steps, timed_display=False):
    """A game on the full firmware: presses, pauses, challenges typed on the keypad and
    judged by the device's word list, the game ended by the players and its scores typed
    and confirmed ("R left right"), then the asyncio tasks for a while.  Prints the
    live heap (after gc.collect) of the fakes with the simulated panels wired, after
    start-up, and its peak sampled every 50 steps, after each challenge and at each step
    of the score entry:
    "M peak_bytes heap_total challenges words acceptable fakes_bytes boot_bytes
    raw_peak_bytes origin"; raw_peak_bytes: the highest gc.mem_alloc() seen before
    collecting (garbage included).  Then "H heap_bytes areas" (the heap as it has grown)
    and "G longest_us total_us collections" (the collections it made, timed)."""
    raw = [0]
    clock = ManualClock()
    dev = boot(clock)
    # What app.run() holds beside the Device for the whole game, made as it makes them:
    # asyncio, the tasks and the link's task with its handler, listening on stdin.
    import asyncio  # noqa: F401
    from app import tasks  # noqa: F401

    server = app.link_task(dev, clock, sys.stdin.buffer, sys.stdout.buffer)
    fakes = SIM_BYTES[0]
    flow = dev.flow
    print("L %s" % ("none" if flow is None or flow.lexicon is None else flow.list_id()))
    booted = _live(raw)
    peak = [booted, 0]                  # the game's peak, the peak since the game's end

    def sample():
        if not timed_display:           # gcpause: only the firmware's own collections
            live = _live(raw)
            peak[0] = max(peak[0], live)
            peak[1] = max(peak[1], live)

    p = Challenger(dev, clock)
    if timed_display:
        p.time_display_task()           # the firmware's own collections, no samples
    else:
        p.run_display_task()
        p.sample_every(50, sample)
    challenges = words = acceptable = 0
    p.press(1)
    random.seed(7)
    while p.step < steps:
        p.advance(random.randint(20, 300))
        if random.randint(0, 4) == 0:
            p.press(2)                      # pause...
            p.advance(random.randint(10, 200))
            p.press(2)                      # ...and resume
        p.press(dev.engine.on_turn)
        if flow is not None and random.randint(0, 1) == 0:
            play = PLAYS[challenges % len(PLAYS)]
            if p.challenge(play):
                acceptable += 1
            challenges += 1
            words += len(play)
            sample()
    if flow is not None:
        peak[1] = 0
        finish_and_score(p, sample)
        sample()
        # the scores confirmed, and the live heap's peak from the game's end to the
        # result screen (sampled every 50 steps and at each step of the entry)
        print("R %d %d %d" % (tuple(flow.sheet_scores()) + (peak[1],)))
    run_tasks(dev, clock, 2000, sample, server)
    raw[0] = max(raw[0], gc.mem_alloc())
    print("M %d %d %d %d %d %d %d %d %s" % (peak[0], gc.mem_alloc() + gc.mem_free(), challenges,
                                            words, acceptable, fakes, booted, raw[0], _origin()))
    print("H %d %d" % _heap())
    # the link's modules loaded: no host spoke, so the link only listened
    print("K " + " ".join(sorted(m for m in sys.modules if m == "link" or m.startswith("link."))))
    print("G %d %d %d" % tuple(GC_US))
    # the dynamic qstr pools: "Q qstr pool: n_pool=5, n_qstr=302, n_str_data_bytes=...,
    # n_total_bytes=..." (micropython.qstr_info() prints the rest of the line)
    import micropython

    print("Q ", end="")
    micropython.qstr_info()
    print("X %d %d" % EXTRA)
    hall = dev.hall
    if hall is not None:
        # what the hall's publisher did: its status, messages acknowledged, connections
        import time

        for _ in range(300):        # the last message on its way (real time, up to 3 s)
            if not hall.net.busy():
                break
            time.sleep_ms(10)
        hall.step(clock.ticks_ms())
        i = hall.info()
        print("N %s %d %d %d %s" % (i["status"], i["sent"], i["connects"], i["failures"],
                                    i["error"].replace(" ", "_") or "-"))
    if timed_display:
        print("P " + " ".join(str(t) for t in p.presses))


def main():
    import os

    argv = getattr(sys, "argv", None)
    args = argv[1:] if argv and len(argv) > 1 else (os.getenv("TC_ARGS") or "").split()
    mode = args[0]
    if mode == "memory":
        memory(int(args[1]))
    elif mode == "gcpause":
        memory(int(args[1]), timed_display=True)
    elif mode == "check":
        boot(ManualClock())
        print("E")
    else:
        play(int(args[1]), int(args[2]))


main()
