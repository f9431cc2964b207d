# Players and a referee at the real firmware, for the fault scripts
# (docs/faults.md): app.build on the reference board wired up with the fakes
# (sim_board: three panels, the key matrix, the battery), a ManualClock, and
# nothing but buttons and keys to drive it.  Runs under MicroPython.
#
#   micropython fault_driver.py play SEED     play on from whatever the device holds,
#                                             until killed (the kill script's child)
#   micropython fault_driver.py mash SEED N   N random presses in bursts across every
#                                             phase; after each burst the referee and
#                                             the players bring a clock back to running
#   micropython fault_driver.py settle        boot, bring a clock to run, report
#
# Lines (to the file TC_TRACE, written unbuffered, else stdout):
#   B <state>      after boot (what came back)
#   C <state>      just before each save of the game state (what is being saved)
#   S <state>      after each 10 ms step
#   R <steps>      a clock runs again, <steps> after the boot
#   M <burst> <phase> <presses> <steps to a running clock>   (mash)
#   E <summary>    the end (settle, mash)
#   F <storage> <lines lost> <failed saves>   the device's storage at the end (mash)
# With TC_STORAGE=flash_full the filesystem takes no writes (every open for writing
# fails, as a full one does), with TC_STORAGE=nvs_failing every NVS write fails: the
# game must go on all the same (docs/faults.md).
# <state>: phase on_turn paused challenging challenger hold forfeit chal_pen0 chal_pen1
#          ot_pen0 ot_pen1 left0 left1 running flow back count lengths verdict
# (left: remaining ms, negative in overtime; lengths: the typed words' tile counts,
# a letter still cycling on its key included, "-" for none; verdict -1/0/1).

import os
import random
import sys
import time

import machine
import sim_board
from timebase import ManualClock

import app
from app import board as board_mod
from terminal import flow as F

PRESET = {"lang": "en", "preset_edits": {"initial_ms": 60000, "overtime_cap_ms": 90000}}
# the German fixture list: words, non-words, and words longer than it covers
VALID = ("HAUS", "SEE", "TEE", "ABER", "ZUG", "ZÜGE", "MAUS", "ÖL", "ÜBEL")
INVALID = ("HXAUS", "MAUJ", "QA", "ABEFR")
BEYOND = ("HAUSES", "AAAAAA")
KEYS = "123A456B789C*0#D"
# real time each 10 ms step takes at least (TC_PACE_US): the kill script slows the game
# down so that a kill drawn in a short phase (a confirmation) lands in it
BUTTONS = ("left", "right", "pause", "challenge")
STUCK_STEPS = 60000          # 10 minutes of game time without a running clock: stuck

_trace = [None]
_pace = [0]


_steps_traced = [True]


def out(line):
    f = _trace[0]
    if f is None:
        print(line)
    else:
        f.write(line + "\n")


class Rig:
    def __init__(self, seed):
        random.seed(seed)
        self.rng = random
        self.clock = ManualClock()
        machine.sim_set_clock(self.clock)
        self.board = sim_board.wire()
        self.matrix = self.board.keypad
        board = board_mod.create(self.clock)
        self.dev = app.build(self.clock, board)
        self.steps = 0
        self.running_seen = -1
        self.last_running = 0
        self.plan = []               # the words of the challenge being typed
        state = self.dev.state
        real_save = state.save

        def save(*args):
            if _steps_traced[0]:
                out("C " + self.state())
            return real_save(*args)
        state.save = save
        out("B " + self.state())

    # --- what the device shows ------------------------------------------------

    def state(self):
        dev = self.dev
        e = dev.engine
        f = dev.flow
        d0 = e.display(0)
        d1 = e.display(1)
        entry = f.entry
        count = 0
        lengths = "-"
        if entry is not None and entry.count:
            count = entry.count
            parts = []
            for i in range(count):
                n = entry.lengths[i]
                if i == entry.current and entry.pending_key and n < 16:
                    n += 1
                parts.append(str(n))
            lengths = ",".join(parts)
        elif f.count_without_list:
            count = f.count_without_list
        verdict = -1 if f.verdict is None else (1 if f.verdict else 0)
        return "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %s %d" % (
            e.phase, e.on_turn, e.paused, e.challenging, e.challenge_by(), e.hold_side,
            e.forfeit_side, d0.challenge_penalty, d1.challenge_penalty, d0.overtime_penalty,
            d1.overtime_penalty, d0.remaining_ms - d0.overtime_ms,
            d1.remaining_ms - d1.overtime_ms, (1 if d0.running else 0) | (2 if d1.running else 0),
            f.state, f.back_state, count, lengths, verdict)

    def running(self):
        e = self.dev.engine
        return e.display(0).running or e.display(1).running

    # --- fingers ----------------------------------------------------------------

    def advance(self, n=1):
        dev = self.dev
        for _ in range(n):
            self.clock.advance(10)
            now = self.clock.ticks_ms()
            dev.tick(now)
            dev.scan_keys(now)
            self.steps += 1
            if self.steps % 5 == 0:
                dev.refresh(now)
            if self.running():
                self.last_running = self.steps
                if self.running_seen < 0:
                    self.running_seen = self.steps
                    out("R %d" % self.steps)
            elif self.steps - self.last_running > STUCK_STEPS:
                out("X stuck " + self.state())
                raise SystemExit(3)
            if _steps_traced[0]:
                out("S " + self.state())
            if _pace[0]:
                time.sleep_us(_pace[0])

    def press(self, name, hold=4):
        self.board.press(name)
        self.advance(hold)
        self.board.release(name)
        self.advance(4)

    def key(self, ch, hold=4):
        self.matrix.press_key(ch)
        self.advance(hold)
        self.matrix.release_key(ch)
        self.advance(3)

    def keys(self, text):
        for ch in text:
            self.key(ch)

    def type_word(self, word):
        flow = self.dev.flow
        last = None
        for tile in flow.lexicon.parse(word):
            k, pos = flow.keymap.where(tile)
            if k == last:
                self.key("B")
            for _ in range(pos + 1):
                self.key(k)
            last = k

    def pin(self):
        self.keys(str(self.dev.config.get("referee_pin", "0000")) + "#")

    def chance(self, p):
        return self.rng.random() < p

    # --- a game, as players and a referee play it ----------------------------------

    def act(self):
        """One decision at the table, from what the terminal and the clocks show."""
        dev = self.dev
        e = dev.engine
        f = dev.flow
        st = f.state
        rng = self.rng
        if st == F.NEUTRAL:
            if e.phase == 3 and f.scores is not None and not f.scores.done \
                    and self.chance(0.3):
                self.key("A")                             # the score entry taken up again
            elif e.phase == 3:                            # game over: the next game
                self.advance(rng.randint(50, 400))
                self.keys("D")
                self.pin()
                r = rng.random()
                if r < 0.15:
                    self.keys("64DD")                     # the referee undoes the end
                elif r < 0.3 and e.forfeit_side < 0:
                    self.keys("65" + rng.choice("12") + "DD")   # the game goes on (4.4b iii)
                else:
                    self.keys("4#D")
            elif e.paused:
                self.advance(rng.randint(10, 200))
                if self.chance(0.2):
                    self.keys("D")                       # the referee restarts the clock
                    self.pin()
                    self.keys("5")
                    if dev.flow.state != F.NEUTRAL:
                        self.keys("D")
                else:
                    self.press("pause")
            elif e.phase == 0:
                self.advance(rng.randint(10, 100))
                self.press(rng.choice(("left", "right")))
            elif e.phase == 1 and not self.running():
                # a withdrawn play (TSO 3.1.4): the tiles come back, then the player
                # restarts the challenger's clock (a duplicate game: the next move)
                self.advance(rng.randint(20, 400))
                self.press(BUTTONS[1 - e.on_turn] if e.on_turn >= 0 else "left")
            elif e.phase == 1 and e.on_turn >= 0 and e.display(1 - e.on_turn).running:
                # the clock lent to the other player (3.1.1, 4.2c): they give it back
                self.advance(rng.randint(20, 400))
                self.press(BUTTONS[1 - e.on_turn])
            elif e.phase == 2:                            # the final play (5.1b)
                self.advance(rng.randint(10, 150))
                r = rng.random()
                if r < 0.3:
                    self.challenge()
                elif r < 0.5:
                    self.keys("C#")
                elif r < 0.7 and e.hold_side < 0:
                    self.keys("B")
                else:
                    self.advance(rng.randint(100, 600))
            else:
                self.advance(rng.randint(20, 400))        # thinking
                r = rng.random()
                if e.challenger_side() >= 0 and r < 0.35:
                    self.challenge()
                elif e.challenger_side() >= 0 and r < 0.45:
                    self.keys("B")                        # hold
                    self.advance(rng.randint(50, 300))
                elif r < 0.5:
                    self.press("pause")
                    self.advance(rng.randint(10, 300))
                    if dev.engine.paused:
                        self.press("pause")
                elif r < 0.53 and e.on_turn >= 0:
                    self.board.press("pause")             # the last move: held 2 s
                    self.advance(rng.randint(205, 260))
                    self.board.release("pause")
                    self.advance(5)
                elif r < 0.535:
                    self.keys("D")                        # the referee resets mid-game
                    self.pin()
                    self.keys("4#D")
                elif r < 0.56 and e.on_turn >= 0:
                    self.keys("D")                        # the referee switches the clocks
                    self.pin()
                    self.keys("6" + rng.choice(("1", "1", "2")) + "DD")
                elif r < 0.57 and e.on_turn >= 0:
                    self.keys("D")                        # the referee ends the game
                    self.pin()
                    self.keys("63" + rng.choice("12") + "DD")
                elif e.on_turn >= 0:
                    self.press(BUTTONS[e.on_turn])
            return
        if st == F.COUNT:
            n = rng.randint(1, 3)
            pool = VALID if self.chance(0.5) else (INVALID if self.chance(0.6) else BEYOND)
            self.plan = [rng.choice(VALID) for _ in range(n - 1)] + [rng.choice(pool)]
            self.key(str(n))
        elif st == F.ENTRY:
            entry = f.entry
            i = entry.current
            if self.chance(0.04):
                self.key("D")                             # second thoughts
            elif entry.lengths[i] or entry.pending_key:
                if self.chance(0.1):
                    self.key("*")
                else:
                    self.key("#")
            else:
                word = self.plan[i] if i < len(self.plan) else self.rng.choice(VALID)
                self.type_word(word)
        elif st == F.CONFIRM:
            self.key("*" if self.chance(0.05) else "C")
        elif st == F.READY:
            self.key("#")
        elif st == F.VERDICT:
            if self.chance(0.5):
                self.advance(rng.randint(160, 1100))
            else:
                self.advance(160)
                self.key(rng.choice(KEYS))
        elif st == F.REFEREE_WAIT:
            self.advance(rng.randint(10, 300))
            self.keys("D")
            self.pin()
            self.keys(rng.choice(("1", "1", "2", "2", "3", "4")))
        elif st == F.CANCEL_ASK:
            r = rng.random()
            self.key("#" if r < 0.5 else ("*" if r < 0.85 else "D"))
        elif st == F.REFEREE:
            self.referee()
        elif st == F.FINISH_ASK or st == F.ACCEPT_ASK:
            self.key("#" if self.chance(0.8) else "D")
        elif st == F.SCORE:                               # a score from the sheet
            r = rng.random()
            if r < 0.03:
                self.key("D")                             # the referee is called
            elif r < 0.08:
                self.key(rng.choice(KEYS))                # any key, at the wrong moment
            elif r < 0.15:
                self.key("*")                             # a digit taken back
            elif r < 0.4:
                self.key("#")                             # done (nothing typed: ignored)
            else:
                self.key(str(rng.randint(0, 9)))
        elif st == F.SCORE_CONFIRM:                       # the opponent checks it
            r = rng.random()
            self.key("C" if r < 0.8 else ("*" if r < 0.95 else rng.choice(KEYS)))

    def challenge(self):
        if self.chance(0.7):
            self.press("challenge")
        else:
            self.keys("A")

    def referee(self):
        from terminal import referee as R

        dev = self.dev
        ref = dev.flow.referee
        mode = ref.mode
        if mode == R.PIN:
            if dev.flow.pin_lock.locked_t is not None:
                self.advance(100)
            else:
                self.pin()
        elif mode == R.MENU:
            e = dev.engine
            if e.challenging:
                self.keys("5" + self.rng.choice(("1", "2")))
            elif e.paused:
                self.keys("5")
            else:
                self.keys("D")
        elif mode == R.PICK:
            self.keys(self.rng.choice(("1", "2", "3", "4")))
        elif mode == R.CHALLENGE:
            self.keys(self.rng.choice(("1", "2")))
        elif mode == R.RESET_ASK:
            self.keys("#")
        else:
            self.keys("D")

    # --- the way back to a running clock (after a burst of random presses) ----------

    def escape(self, limit=400):
        """Only keys and buttons, as a referee at the table would: returns the number
        of steps until a clock runs; raises if none runs within `limit` actions."""
        start = self.steps
        for _ in range(limit):
            if self.running():
                return self.steps - start
            dev = self.dev
            e = dev.engine
            f = dev.flow
            st = f.state
            if st == F.VERDICT:
                self.advance(160)
                self.key("5")
            elif st in (F.FINISH_ASK, F.ACCEPT_ASK):
                self.key("D")
            elif st == F.CANCEL_ASK:
                self.key("D")
            elif st in (F.COUNT, F.ENTRY, F.CONFIRM, F.READY):
                self.key("D")
            elif st == F.REFEREE_WAIT:
                self.key("D")
            elif st == F.REFEREE:
                self.escape_referee()
            elif e.phase == 3:
                self.key("D")
            elif e.paused:
                self.press("pause")
            elif e.phase == 0:
                self.press("right")
            elif e.phase == 1 and f.state == F.NEUTRAL:
                # nothing runs after a withdrawn play until the player presses (3.1.4);
                # a duplicate game between moves: the next move
                self.press(BUTTONS[1 - e.on_turn] if e.on_turn >= 0 else "left")
            elif e.phase == 2:
                if e.challenger_side() >= 0 and e.hold_side < 0:
                    self.key("B")                 # hold: the holder's clock runs (5.1b iii)
                else:
                    self.key("D")                 # the referee: a new game
            else:
                self.advance(1)
        raise AssertionError("no clock runs: " + self.state())

    def escape_referee(self):
        from terminal import referee as R

        dev = self.dev
        e = dev.engine
        ref = dev.flow.referee
        mode = ref.mode
        if mode == R.PIN:
            if dev.flow.pin_lock.locked_t is not None:
                self.advance(500)                 # wrong PINs in the burst: the lockout
            else:
                self.pin()
        elif mode == R.PICK:
            self.key("4")                         # cancel the challenge
        elif mode == R.CHALLENGE:
            self.key("2")
        elif mode == R.MENU:
            if e.challenging or e.paused:
                self.key("5")
            elif e.phase == 3 or e.phase == 2:
                self.keys("4#")                   # over (or a final play left open): new game
            else:
                self.key("D")
        elif mode == R.RESET_ASK:
            self.key("#")
        else:
            self.key("D")

    def burst(self, presses):
        """Random presses on every button and key: lengths 1-40 steps, gaps 0-50."""
        rng = self.rng
        for _ in range(presses):
            if rng.random() < 0.3:
                name = rng.choice(BUTTONS)
                self.board.press(name)
                self.advance(rng.randint(1, 40) if name != "pause" or rng.random() < 0.9
                             else rng.randint(200, 260))
                self.board.release(name)
            else:
                ch = rng.choice(KEYS)
                self.matrix.press_key(ch)
                self.advance(rng.randint(1, 12))
                self.matrix.release_key(ch)
            self.advance(rng.randint(0, 50))

    def steer(self, target, limit=300):
        """Play on towards a phase (phase_name); False if it was not reached."""
        for _ in range(limit):
            if phase_name(self) == target:
                return True
            if target == "referee-decides":
                return self.referee_decides()
            dev = self.dev
            e = dev.engine
            f = dev.flow
            st = f.state
            neutral_play = st == F.NEUTRAL and e.phase == 1 and not e.paused
            if target == "cancel-ask" and st in (F.COUNT, F.ENTRY, F.CONFIRM, F.READY):
                self.key("D")
            elif target == "referee-menu" and st == F.NEUTRAL:
                self.key("D")
                self.pin()
            elif target in ("finish-ask", "end-phase", "over", "score", "score-confirm") \
                    and neutral_play and e.on_turn >= 0 and self.running():
                # (after a withdrawn play no clock runs: act() restarts one first)
                self.board.press("pause")          # the last move
                self.advance(215)
                self.board.release("pause")
                self.advance(5)
                if target != "finish-ask" and self.dev.flow.state == F.FINISH_ASK:
                    self.key("#")
            elif target in ("accept-ask", "over") and st == F.NEUTRAL and e.phase == 2 \
                    and e.challenger_side() >= 0:
                self.key("C")
                if target == "over":
                    self.key("#")
            elif target == "setup" and st == F.NEUTRAL and e.phase != 0:
                self.key("D")
                self.pin()
                self.keys("4#D")
            elif target == "paused" and neutral_play:
                self.press("pause")
            elif target == "hold" and neutral_play and e.challenger_side() >= 0:
                self.key("B")
            elif target in ("count", "entry", "confirm", "ready", "verdict") and neutral_play \
                    and e.challenger_side() >= 0:
                self.challenge()
            elif target == "withdrawn" and st == F.COUNT:
                self.key("1")
                self.type_word(self.rng.choice(INVALID))
                self.keys("#C#")
                self.key("*")                      # leave the verdict
            elif target == "withdrawn" and neutral_play and e.challenger_side() >= 0:
                self.challenge()
            elif target == "lent" and neutral_play and e.on_turn >= 0 and self.running():
                self.key("D")
                self.pin()
                self.keys("61DD")
            elif target == "overtime" and neutral_play and e.on_turn >= 0 \
                    and e.display(e.on_turn).running:
                # a long think on the player's own clock; after a withdrawn play no
                # clock runs until the other player restarts the challenger's (3.1.4),
                # and a lent clock is given back first: act() does both
                self.advance(self.rng.randint(500, 3000))
                if phase_name(self) != target:
                    self.press(BUTTONS[self.dev.engine.on_turn])
            else:
                self.act()
        return phase_name(self) == target

    def referee_decides(self):
        """Into a challenge whose word is beyond the list (the referee decides screen)."""
        for _ in range(200):
            dev = self.dev
            f = dev.flow
            if f.state == F.REFEREE_WAIT:
                return True
            e = dev.engine
            if f.state == F.NEUTRAL and e.phase == 1 and e.challenger_side() >= 0 \
                    and not e.paused:
                self.press("challenge")
                if dev.flow.state == F.COUNT:
                    self.key("1")
                    self.type_word(self.rng.choice(BEYOND))
                    self.keys("#C#")
            elif f.state == F.NEUTRAL and e.phase == 1 and e.on_turn >= 0 and not e.paused \
                    and e.display(e.on_turn).running:
                self.press(BUTTONS[e.on_turn])
            # (a lent clock, a withdrawn play: act() gives it back, restarts it)
            else:
                self.act()
        return False


def phase_name(rig):
    e = rig.dev.engine
    st = rig.dev.flow.state
    names = {F.COUNT: "count", F.ENTRY: "entry", F.CONFIRM: "confirm", F.READY: "ready",
             F.VERDICT: "verdict", F.REFEREE_WAIT: "referee-decides", F.CANCEL_ASK: "cancel-ask",
             F.REFEREE: "referee-menu", F.FINISH_ASK: "finish-ask", F.ACCEPT_ASK: "accept-ask",
             F.SCORE: "score", F.SCORE_CONFIRM: "score-confirm"}
    if st in names:
        return names[st]
    if e.phase == 3:
        return "over"
    if e.phase == 2:
        return "end-phase"
    if e.phase == 0:
        return "setup"
    if e.paused:
        return "paused"
    if not (e.display(0).running or e.display(1).running):
        return "withdrawn"          # until the player restarts the challenger's clock (3.1.4)
    if e.on_turn >= 0 and e.display(1 - e.on_turn).running:
        return "lent"               # the other player's clock runs, the turn stays (3.1.1, 4.2c)
    d = e.display(e.on_turn) if e.on_turn >= 0 else None
    if d is not None and d.overtime:
        return "overtime"
    if e.hold_side >= 0:
        return "hold"
    return "running"


PHASES = ("running", "count", "entry", "confirm", "ready", "verdict", "cancel-ask",
          "referee-menu", "paused", "hold", "finish-ask", "end-phase", "accept-ask", "overtime",
          "over", "score", "score-confirm", "setup", "withdrawn", "lent")


def play(seed):
    rig = Rig(seed)
    while True:
        rig.act()


def storage_fault(kind):
    """Make the filesystem full or the NVS fail, from now on, for the whole run."""
    if kind == "flash_full":
        from store import gamelog
        from terminal import log

        real_open = open

        def full_open(path, mode="r", *args):
            if "w" in mode or "a" in mode or "+" in mode:
                raise OSError(28)            # ENOSPC
            return real_open(path, mode, *args)

        gamelog.open = full_open
        log.open = full_open
    elif kind == "nvs_failing":
        import esp32

        def set_blob(nvs, key, value):
            raise OSError(-0x1101)           # ESP_ERR_NVS_NOT_ENOUGH_SPACE

        esp32.NVS.set_blob = set_blob
    elif kind:
        raise ValueError("TC_STORAGE: flash_full or nvs_failing")


def mash(seed, presses):
    rig = Rig(seed)
    done = 0
    burst = 0
    turn = 0
    while done < presses:
        # every phase in turn (every fifth burst on the referee decides screen)
        if burst % 5 == 4:
            target = "referee-decides"
        else:
            target = PHASES[turn % len(PHASES)]
            turn += 1
        if not rig.steer(target) and target == "referee-decides":
            raise AssertionError("the referee decides screen was not reached")
        phase = phase_name(rig)
        n = rig.rng.randint(10, 60)
        rig.burst(n)
        done += n
        steps = rig.escape()
        out("M %d %s %d %d" % (burst, phase, n, steps))
        burst += 1
    out("E presses %d bursts %d steps %d" % (done, burst, rig.steps))
    dev = rig.dev
    out("F %s %d %d" % (dev.storage or "ok", dev.lines_lost, dev.save_failures))


def settle():
    rig = Rig(1)
    steps = rig.escape()
    out("E settled %d" % steps)


def main():
    argv = getattr(sys, "argv", None)
    args = argv[1:] if argv and len(argv) > 1 else (os.getenv("TC_ARGS") or "").split()
    _pace[0] = int(os.getenv("TC_PACE_US") or "0")
    path = os.getenv("TC_TRACE")
    if path:
        _trace[0] = open(path, "a")
    if os.getenv("TC_STORAGE"):
        import hal_rtc

        hal_rtc.set_time((2026, 11, 27, 9, 30, 0))    # as a host sets it: the lines' time
        storage_fault(os.getenv("TC_STORAGE"))
    mode = args[0]
    if mode == "play":
        play(int(args[1]))
    elif mode == "mash":
        _steps_traced[0] = False
        mash(int(args[1]), int(args[2]))
    else:
        settle()


main()
