# The device's core: one object that owns the engine, the terminal flow, the
# hardware layers and the stores, with plain methods that the asyncio tasks
# (app/tasks.py) call in a loop and that tests call directly with a
# timebase.ManualClock:
#
#   start()            restore the game from NVS (paused, "recovered"), the terminal's
#                      challenge step with it, or start a new game
#   tick(now)          buttons -> engine/flow, flow timeouts, cues -> buzzer, LEDs,
#                      state saves, game log
#   scan_keys(now)     one keypad scan -> flow; each key that was taken is saved
#                      before the next one is
#   refresh(now)       redraw and show the panels whose content changed
#   sample_battery(now)  at "empty": save, say so, deep sleep until the pause switch
#
# Button presses reach the engine with the tick their interrupt recorded.
#
# What a power cut must not lose (docs/runtime.md, Persistence and recovery):
# every event is saved before the next one is taken, as one NVS record holding
# the engine's snapshot (with its game's preset), the terminal's challenge step
# and the game log lines not yet in logs/games.jsonl; the lines are appended to
# the file right after, and start-up appends what a cut left in the record.
# The game log's numbering (seq) goes on across games, resets and restarts.
#
# Storage faults (docs/runtime.md, Storage faults) never stop the clock: no exception
# from a save or an append leaves here.  The lines waiting in the record are bounded by
# the bytes the record has left for them (GameState.room): past that the oldest go, and
# one "lost" line in their place counts them, written to the file once it takes lines
# again.  A failing NVS ("not_saving") or a file that takes nothing ("log_full") shows
# on the terminal's idle screen, in the link's INFO and as the "storage" cue.

from i18n import tr
from lazy import unload
from timebase import ticks_clamp, ticks_diff

from app.logqueue import LogQueue
from clock import gamelog as gl
from clock.engine import (CUE_FORFEIT, CUE_MOVE_END, CUE_MOVE_WARNING, CUE_OVERTIME,
                          CUE_OVERTIME_MINUTE, CUE_WINDOW_CLOSED, PHASE_PLAY, new_engine)
from micropython import const
from render.player import (EXTRA_BATTERY_EMPTY, EXTRA_BATTERY_LOW, EXTRA_NO_WORDLIST,
                           EXTRA_RECOVERED)
from app.panels import Panels

BUTTON_LEFT = 0
BUTTON_RIGHT = 1
BUTTON_PAUSE = 2
BUTTON_CHALLENGE = 3
BUTTON_NAMES = ("left", "right", "pause", "challenge")
# the engine's cues and the sound of each (hal_buzzer.py), the most urgent first: one
# sound an event
_SOUNDS = ((CUE_FORFEIT, "forfeit"), (CUE_OVERTIME, "overtime"),
           (CUE_OVERTIME_MINUTE, "overtime_minute"), (CUE_WINDOW_CLOSED, "challenge_end"),
           (CUE_MOVE_END, "move_end"), (CUE_MOVE_WARNING, "move_warning"))
# The pause switch held this long by the player whose clock it stopped asks on
# the terminal whether that was the last move (TSO 5.1b i; docs/runtime.md, Gestures).
FINISH_HOLD_MS = 2000
_LOG_FLUSH_MS = const(10000)
# records kept in RAM by the engine's game log; they reach logs/games.jsonl
# after every event and at least every _LOG_FLUSH_MS, far fewer than this
_LOG_CAPACITY = const(16)
_LOG_WAIT = const(4)        # game log lines that may wait for the end of a challenge
# The panels' power (hardware/README.md, Power budget): a player's panel dims once no
# clock has run for _DIM_AFTER_MS (paused, before and after a game), the terminal once
# nothing happened on it for as long; any press or key brings the configured contrast
# back at the next refresh.  (Their burn-in shift: app/panels.py.)
_DIM_AFTER_MS = const(30000)
_DIM_CONTRAST = const(32)

# keys of clock/texts_*.py (the player panels' states); the rest are app's
CLOCK_KEYS = ("overtime", "pause", "challenge", "hold", "forfeit", "game_over", "late", "lent",
              "window", "reset_confirm", "accepted", "withdrawn", "penalty", "move", "time_up")
LAST = []            # [the Device started last] (the simulator and tests look at it)


class Device:
    def __init__(self, clock, board, config, state, gamelog, flow_factory, reset_cause=""):
        """board: hardware layers (app.board.Board); config: store.config.Config;
        state: store.state.GameState; gamelog: store.gamelog.LogFile;
        flow_factory(engine) -> terminal.flow.ChallengeFlow (or None: no terminal);
        reset_cause: "" (power on), "watchdog" or "sleep" (woken from deep sleep)."""
        self.clock = clock
        self.board = board
        self.config = config
        self.state = state
        self.gamelog = gamelog
        self._flow_factory = flow_factory
        self.reset_cause = reset_cause
        self.engine = None
        self.flow = None
        self.recovered = False
        self.recovery_note = ""
        self.config_problems = []
        self.battery_level = "ok"
        self.panels = Panels()
        self.status = ""             # the idle screen's note (a recovery, a preset to come)
        self._awake_t = 0            # last press, key or terminal change (dimming)
        self._lang = None
        self.events = 0              # button and key events handled (for tests and the link)
        self.saves = 0
        self._dirty = False
        self.log = LogQueue(gamelog, self._stamp)   # game log lines on their way to the file
        self._log_at = 0
        self._log_held = False       # lines held back during a challenge (_log_waits)
        self.storage = ""            # "", "log_full" or "not_saving" (_check_storage)
        self.save_failures = 0       # saves that raised (a failing NVS), since start-up
        self._nvs_failed = False     # the last save raised
        self._config_serial = -1
        self.preset_pending = False  # a preset chosen for the next game waits
        self.sleep_at = None         # ticks at which the device goes to deep sleep
        self.sleep_screen = None     # the terminal's message until then
        self._finish_side = -1       # the pause switch is down after stopping this side
        self._wake_press = False     # the pause press that woke the device: not a pause
        self.key_hook = None         # (ch, t) -> True if taken, before the terminal (app/hall.py)
        self.referee_called = False  # the idle screen says so (the hall's referee key)
        self.hall = None             # app.hall.Hall when the clock publishes to a hall
        # Sinks bound once: the hot path creates no bound methods.
        self._on_button = self.on_button
        self._on_key = self.on_key
        self._label = self.label

    @property
    def lines_lost(self):
        """Game log lines dropped from the record for want of room, since start-up."""
        return self.log.lost

    # --- start-up -----------------------------------------------------------

    def start(self):
        from app.restore import restore

        now = self.clock.ticks_ms()
        self.config_problems = self.config.load()
        self._wake_press = self.reset_cause == "sleep" and self.board.buttons.is_down("pause")
        self.engine, terminal, waiting = restore(self, now, _LOG_CAPACITY)
        self.log.follow(self.engine.log, waiting)
        self.flow = self._flow_factory(self.engine) if self._flow_factory else None
        if self.flow is not None:
            if terminal or self.engine.challenging:
                from terminal.resume import restore as resume

                resume(self.flow, terminal, now)
        elif self.engine.challenging:
            self.engine.cancel_challenge(now)    # no terminal to finish it: clocks as before
        battery = self.board.battery
        if battery is not None:
            battery.sample()             # the idle screen shows the charge from the start
            self.battery_level = battery.level()
        self._awake_t = now
        self.panels.restart_shift(now)
        self._apply_config(now)
        if self.recovered:
            self.engine.log_note(gl.RECOVERED, now, self.engine.phase, self.reset_cause or "power")
        # saved at once: the note of the recovery, lines a cut kept from the log file
        self._dirty = self.recovered or bool(self.log.lines)
        self.update_status()
        self.tick(now)
        del LAST[:]
        LAST.append(self)
        return self

    # --- the core step -----------------------------------------------------

    def tick(self, now):
        board = self.board
        board.buttons.poll(now, self._on_button)
        if self._finish_side >= 0:
            self._finish_gesture(now)
        flow = self.flow
        if flow is not None:
            state = flow.state
            flow.update(now)
            if flow.state != state:
                self._dirty = True       # a verdict or the referee's menu timed out
                self._awake_t = now
        engine = self.engine
        cues = engine.update(board.buttons.unsettled_since(now))
        if cues:
            self._cues(cues, now)
        board.buzzer.update(now)
        if self.config.serial != self._config_serial:
            self._apply_config(now)
        if self.preset_pending and engine.fresh() and not self._running():
            self._apply_preset(now)
        if self.recovered and (self._running() or engine.fresh()):
            # the game goes on, or the referee reset it: the next game is no recovery
            self.recovered = False
            self.update_status()
        self._leds()
        self._persist(now)
        # stored ticks age no further than they are looked at (timebase.ticks_clamp): the
        # last press or key (dimming), the last flush of the game log
        self._awake_t = ticks_clamp(now, self._awake_t, _DIM_AFTER_MS)
        self._log_at = ticks_clamp(now, self._log_at, _LOG_FLUSH_MS)
        if self.sleep_at is not None and ticks_diff(now, self.sleep_at) >= 0:
            from app.sleep import sleep

            sleep(self, now)

    def on_button(self, index, t):
        if self.sleep_at is not None:
            return                       # going to sleep: the game is saved as it is
        engine = self.engine
        self.events += 1
        self._dirty = True
        self._awake_t = t
        if index == BUTTON_LEFT or index == BUTTON_RIGHT:
            engine.press(t, index)
        elif index == BUTTON_PAUSE:
            self._finish_side = -1
            if self._wake_press:
                self._wake_press = False     # it woke the device; the game stays paused
                return
            if engine.challenging:
                return
            flow = self.flow
            if flow is not None and flow.prompting():
                # pause tapped while "game over?" is asked: no, the game goes on
                flow.close_prompt(t)
            if engine.paused:
                engine.resume(t)
            else:
                side = engine.on_turn
                if (engine.pause(t) and flow is not None and engine.phase == PHASE_PLAY
                        and side >= 0):
                    self._finish_side = side     # held on: the end-of-game question
        elif index == BUTTON_CHALLENGE:
            if self.flow is not None:
                self.flow.start_challenge(t)

    def _finish_gesture(self, now):
        # The pause switch stopped side _finish_side and may still be down.
        buttons = self.board.buttons
        if buttons.long_press(BUTTON_PAUSE, now, FINISH_HOLD_MS):
            side = self._finish_side
            self._finish_side = -1
            engine = self.engine
            if (engine.paused and engine.phase == PHASE_PLAY and not engine.challenging
                    and self.flow.ask_finish(now, side)):
                self._dirty = True
        elif not buttons.held(BUTTON_PAUSE):
            self._finish_side = -1       # released before: a plain pause

    def scan_keys(self, now):
        keypad = self.board.keypad
        if keypad is not None:
            keypad.scan(now, self._on_key)

    def on_key(self, ch, t):
        if self.sleep_at is not None:
            return
        self.events += 1
        self._awake_t = t
        if self.key_hook is not None and self.key_hook(ch, t):
            return
        if self.flow is not None:
            self.flow.key(ch, t)
            # saved before the next key is taken (a cut a moment later keeps it)
            self.commit(self.clock.ticks_ms())

    def _cues(self, cues, now):
        self._dirty = True
        for cue, sound in _SOUNDS:
            if cues & cue:
                self.board.buzzer.play(sound, now)
                return

    def _running(self):
        engine = self.engine
        return engine.display(0).running or engine.display(1).running

    def _persist(self, now):
        due = self.state.due(now)       # asked at every round: its tick stays young
        # saved once a period while a clock runs, or a challenge window counts down with
        # no clock running (the final play's, TSO 5.1b): a cut keeps its seconds
        d = self.engine.display(0)
        if self._dirty:
            self.commit(now)
        elif due and (self._running() or d.window_s > 0 and not d.paused):
            self.save(now)
        # lines held back go once the challenge is over; a failing flash is tried again
        # every _LOG_FLUSH_MS, not at every tick
        if (self._log_held or ticks_diff(now, self._log_at) >= _LOG_FLUSH_MS) \
                and not self._log_waits():
            self._log_held = False
            self.flush_log(now)

    def commit(self, now):
        """Save the state (with the log lines not yet in the file), then append them,
        unless they wait for the end of a challenge (_log_waits)."""
        self._dirty = False
        self.save(now)
        if self._log_waits():
            self._log_held = True
        else:
            self.flush_log(now)

    def _log_waits(self):
        # While a challenge or the referee holds the terminal the heap is at its fullest
        # (the word entry, its key map, the list's pages): the game log's lines then wait
        # in the state record, where a power cut does not lose them (start-up appends
        # them), and reach the file once the terminal is back on its neutral screen, its
        # modules dropped, instead of opening a file in the fullest heap.  A few at most:
        # past _LOG_WAIT of them (presses while a verdict shows) they go at once.
        flow = self.flow
        return flow is not None and flow.active() and len(self.log.lines) < _LOG_WAIT

    def save(self, now):
        """Save the state with the log lines waiting; whatever NVS does, nothing raises."""
        flow = self.flow
        try:
            log = self.log
            log.take(self.engine.log)
            terminal = flow.saved_bytes() if flow is not None else b""
            lines = log.encoded()
            room = self.state.room(self.engine.snapshot_size(), len(terminal))
            if len(lines) > room:
                lines = log.fit(room)
            # the engine's state up to a press still being debounced, not past it: a save
            # must not close a window the press is about to challenge
            # (Buttons.unsettled_since)
            at = self.board.buttons.unsettled_since(now)
            if self.state.save(self.engine, now, terminal, lines, at):
                self.saves += 1
            self._nvs_failed = False
        except Exception:        # a failing NVS (OSError), no memory: the clock goes on
            self._nvs_failed = True
            self.save_failures += 1
        self._check_storage(now)

    def flush_log(self, now):
        """Append the game log's waiting lines to the file; nothing raises."""
        self._log_at = now
        log = self.log
        try:
            log.take(self.engine.log)
        except Exception:        # no memory for a line: it is taken at the next try
            pass
        if log.flush() and self.flow is not None:
            self.flow.log_failed = False     # the file takes records again
        self._check_storage(now)

    def _check_storage(self, now):
        # What the terminal, the link and the cue say of the storage; the cue sounds when
        # a fault appears or gets worse.
        flow = self.flow
        if self._nvs_failed:
            kind = "not_saving"
        elif self.log.failed or (flow is not None and flow.log_failed):
            kind = "log_full"
        else:
            kind = ""
        if kind != self.storage:
            worse = kind == "not_saving" or not self.storage
            self.storage = kind
            self.update_status()
            if kind and worse:
                self.board.buzzer.play("storage", now)

    def _stamp(self):
        # what a game log line gets at its end: the wall-clock time the host set (null
        # until a host connects after a power cut) and the table, for the organiser
        import json
        from hal_rtc import now_text

        return ', "time": %s, "table": %s}' % (json.dumps(now_text()),
                                               json.dumps(self.config.get("table", "")))

    def _leds(self):
        leds = self.board.leds
        if leds is None:
            return
        engine = self.engine
        for side in (0, 1):
            d = engine.display(side)
            leds[side].value(1 if d.running else 0)
        leds[2].value(1 if (engine.paused or self.recovered or self.battery_level != "ok"
                            and self.battery_level != "usb") else 0)

    # --- configuration -----------------------------------------------------

    def _apply_config(self, now):
        self._config_serial = self.config.serial
        enabled, mute = self.config.sounds()
        self.board.buzzer.configure(enabled, mute)
        try:
            preset = self.config.preset()
        except ValueError:
            preset = None
        self.preset_pending = preset is not None and preset != self.engine.preset
        self.panels.invalidate(contrast=True)
        lang = self.config.get("lang", "de")
        if lang != self._lang:
            self._lang = lang
            if self.flow is not None:
                self.flow.relabel()      # the terminal in the new language at once
        self.update_status()        # (the idle screen's hint of a default PIN, too)
        unload("setup")     # (lazy.DROPPED)

    def _apply_preset(self, now):
        """A new preset takes effect only before a game (never in the middle of one)."""
        self.preset_pending = False
        engine = self.engine
        preset = self.config.preset()
        if (preset["move_ms"] > 0) != engine.duplicate:
            # a duplicate game and a game on two clocks are different engines; the log
            # numbering goes on (nothing of a game happened on this one: fresh)
            self.engine = new_engine(preset, self.clock, _LOG_CAPACITY, engine.log.next_seq())
            if self.flow is not None:
                self.flow.engine = self.engine
        else:
            engine.confirm_reset(engine.request_reset(), preset)
        self._dirty = True
        self.update_status()
        unload("setup")     # (lazy.DROPPED)

    # --- displays ----------------------------------------------------------

    def label(self, key):
        lang = self.config.get("lang", "de")
        if key in CLOCK_KEYS:
            return tr("clock", key, lang)
        return tr("app", key, lang)

    def extra(self):
        e = 0
        if self.recovered:
            e |= EXTRA_RECOVERED
        if self.battery_level == "low" or self.battery_level == "empty":
            e |= EXTRA_BATTERY_LOW
        if self.flow is not None and self.flow.lexicon is None:
            e |= EXTRA_NO_WORDLIST
        if self.sleep_screen is not None:
            e |= EXTRA_BATTERY_EMPTY
        return e

    @property
    def shift(self):
        """The panels' burn-in shift, 0-3 (app/panels.py)."""
        return self.panels.shift

    def refresh(self, now):
        """Redraw and show every panel whose content changed; returns how many."""
        board_panels = self.board.panels
        if board_panels is None:
            return 0
        panels = self.panels
        shown = 0
        extra = self.extra()
        engine = self.engine
        panels.move(now, engine)
        contrast = self.config.get("contrast", 128)
        dim = _DIM_CONTRAST if _DIM_CONTRAST < contrast else contrast
        players_dim = not self._running() and ticks_diff(now, self._awake_t) >= _DIM_AFTER_MS
        for side in (0, 1):
            panel = board_panels.side(side)
            if panel is not None:
                shown += panels.draw_side(panel, side, engine, extra, self._label,
                                          dim if players_dim else contrast)
        panel = board_panels.terminal
        flow = self.flow
        if panel is not None and flow is not None:
            screen = self.sleep_screen or flow.screen()
            idle = (screen is not self.sleep_screen and not flow.active()
                    and ticks_diff(now, self._awake_t) >= _DIM_AFTER_MS)
            shown += panels.draw_terminal(panel, screen, engine, dim if idle else contrast)
        return shown

    def quiet_ms(self, now, limit):
        """ms from `now` until a panel changes with time alone (Engine.quiet_ms,
        ChallengeFlow.quiet_ms; here: the pause switch's hold asking for the game's
        end, dimming, the burn-in shift, going to sleep), at most `limit`; 0 when such
        a change is due.  The display task collects garbage where this is long
        (app.tasks.display_step).  Allocates nothing."""
        q = self.engine.quiet_ms(now, limit)
        flow = self.flow
        if flow is not None:
            q = flow.quiet_ms(now, q)
        if self._finish_side >= 0:
            held = self.board.buttons.held_ms(BUTTON_PAUSE, now)
            if held >= 0 and FINISH_HOLD_MS - held < q:
                q = FINISH_HOLD_MS - held
        n = _DIM_AFTER_MS - ticks_diff(now, self._awake_t)
        if 0 < n < q:
            q = n
        n = self.panels.shift_in_ms(now)
        if 0 < n < q:
            q = n                    # (held back in a clock's last seconds: no change then)
        if self.sleep_at is not None:
            n = ticks_diff(self.sleep_at, now)
            if n < q:
                q = n
        return q if q > 0 else 0

    def update_status(self):
        """The idle screen's battery and note (terminal.flow.set_status); a storage
        fault first, and its mark beside the battery (seen when the note's row is taken
        by the keys of a play that can be challenged)."""
        mark = ""
        if self.storage:
            note = self.label(self.storage)
            mark = self.label("mark_" + self.storage)
        elif self.recovered and self.recovery_note:
            note = self.label(self.recovery_note)
        elif self.recovery_note == "not_recovered":
            note = self.label("not_recovered")
        elif self.config_problems:
            note = self.label("config_bad")
        elif self.preset_pending:
            note = self.label("preset_next") % self.config.get("preset")
        elif self.referee_called:
            note = self.label("referee_called")
        else:
            note = ""
        self.status = note
        if self.flow is not None:
            self.flow.set_status(self._battery_text(), note, mark)

    def _battery_text(self):
        battery = self.board.battery
        if battery is None:
            return ""
        if self.battery_level == "usb":
            return "USB"
        percent = battery.percent()
        if percent < 0:
            return ""
        low = self.battery_level == "low" or self.battery_level == "empty"
        return "%d%%%s" % (percent, "!" if low else "")

    # --- battery -----------------------------------------------------------

    def sample_battery(self, now):
        battery = self.board.battery
        if battery is None:
            return
        percent = battery.percent()
        battery.sample()
        level = battery.level()
        if level != self.battery_level:
            self.battery_level = level
            self.update_status()
        elif battery.percent() != percent:
            self.update_status()        # the idle screen shows the charge
        if level == "empty":
            if self.sleep_at is None:
                from app.sleep import announce

                self._finish_side = -1
                announce(self, now)
                self.panels.invalidate()
        elif self.sleep_at is not None:
            self.sleep_at = None        # charging (or on USB) again: stay awake
            self.sleep_screen = None
            self.panels.terminal_view.invalidate()

