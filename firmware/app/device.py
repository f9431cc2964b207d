# The device's core: one object that owns the engine, the terminal flow, the
# hardware layers and the stores, with plain methods that the asyncio tasks
# (app/tasks.py) call in a loop and that tests call directly with a
# timebase.ManualClock:
#
#   start()            restore the game from NVS (paused, "recovered") or start a new one
#   tick(now)          buttons -> engine/flow, flow timeouts, cues -> buzzer, LEDs,
#                      state saves, game log
#   scan_keys(now)     one keypad scan -> flow
#   refresh(now)       redraw and show the panels whose content changed
#   sample_battery(now)
#
# Button presses reach the engine with the tick their interrupt recorded.

from i18n import tr
from timebase import ticks_diff

from clock.engine import (CUE_FORFEIT, CUE_GAME_OVER, CUE_OVERTIME, CUE_OVERTIME_MINUTE,
                          CUE_WINDOW_CLOSED, PHASE_PLAY, PHASE_SETUP, Engine)
from render.player import (EXTRA_BATTERY_LOW, EXTRA_NO_WORDLIST, EXTRA_RECOVERED,
                           PlayerView)
from render.terminal import TerminalView, status_text

BUTTON_LEFT = 0
BUTTON_RIGHT = 1
BUTTON_PAUSE = 2
BUTTON_CHALLENGE = 3
BUTTON_NAMES = ("left", "right", "pause", "challenge")
# The pause switch held this long by the player whose clock it stopped asks on
# the terminal whether that was the last move (TSO 5.1b i; docs/runtime.md, Gestures).
FINISH_HOLD_MS = 2000

LOG_FLUSH_MS = 10000
# records kept in RAM by the engine's game log; they reach logs/games.jsonl
# after every event and at least every LOG_FLUSH_MS, far fewer than this
LOG_CAPACITY = 16

# keys of clock/texts_*.py (the player panels' states); the rest are app's
CLOCK_KEYS = ("overtime", "pause", "challenge", "hold", "forfeit", "game_over", "late", "window",
              "reset_confirm", "accepted", "withdrawn", "penalty")
LAST = []            # [the Device started last] (the simulator and tests look at it)


class Device:
    def __init__(self, clock, board, config, state, gamelog, flow_factory, reset_cause=""):
        """board: hardware layers (app.board.Board); config: store.config.Config;
        state: store.state.GameState; gamelog: store.gamelog.LogFile;
        flow_factory(engine) -> terminal.flow.ChallengeFlow (or None: no terminal)."""
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
        self.views = (PlayerView(), PlayerView())
        self.terminal_view = TerminalView()
        self.status = ""
        self.events = 0              # button and key events handled (for tests and the link)
        self.saves = 0
        self._dirty = False
        self._log_seq = -1
        self._log_at = 0
        self._config_serial = -1
        self._preset_pending = False
        self._empty_handled = False
        self._finish_side = -1       # the pause switch is down after stopping this side
        # Sinks bound once: the hot path creates no bound methods.
        self._on_button = self.on_button
        self._on_key = self.on_key
        self._label = self.label

    # --- start-up -----------------------------------------------------------

    def start(self):
        now = self.clock.ticks_ms()
        self.config_problems = self.config.load()
        self.engine = self._restore()
        self.flow = self._flow_factory(self.engine) if self._flow_factory else None
        self._apply_config(now)
        if self.recovered:
            self.gamelog_note('{"kind": "recovered", "phase": %d, "cause": "%s"}'
                              % (self.engine.phase, self.reset_cause))
        self._log_seq = -1
        self._update_status()
        self.tick(now)
        del LAST[:]
        LAST.append(self)
        return self

    def _restore(self):
        preset = self.config.preset()
        blob = self.state.load()
        if blob:
            try:
                engine = Engine.restore(blob, preset, self.clock, LOG_CAPACITY)
                engine.update(self.clock.ticks_ms())
            except ValueError:
                self.recovery_note = "not_recovered"
            else:
                if engine.phase != PHASE_SETUP or _any_time_used(engine):
                    self.recovered = True
                    self.recovery_note = ("recovered_wdt" if self.reset_cause == "watchdog"
                                          else "recovered_note")
                return engine
        return Engine(preset, self.clock, LOG_CAPACITY)

    # --- the core step -----------------------------------------------------

    def tick(self, now):
        board = self.board
        board.buttons.poll(now, self._on_button)
        if self._finish_side >= 0:
            self._finish_gesture(now)
        flow = self.flow
        if flow is not None:
            flow.update(now)
        engine = self.engine
        cues = engine.update(board.buttons.unsettled_since(now))
        if cues:
            self._cues(cues, now)
        board.buzzer.update(now)
        if self.config.serial != self._config_serial:
            self._apply_config(now)
        if self._preset_pending and engine.phase == PHASE_SETUP and not self._running():
            self._apply_preset(now)
        self._leds()
        self._persist(now)

    def on_button(self, index, t):
        engine = self.engine
        self.events += 1
        self._dirty = True
        if index == BUTTON_LEFT or index == BUTTON_RIGHT:
            engine.press(t, index)
        elif index == BUTTON_PAUSE:
            self._finish_side = -1
            if engine.challenging:
                return
            flow = self.flow
            if flow is not None and flow.prompting():
                # pause tapped while "game over?" is asked: no, the game goes on
                flow.close_prompt(t)
            if engine.paused:
                if engine.resume(t):
                    self.recovered = False
                    self._update_status()
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
        self.events += 1
        self._dirty = True
        if self.flow is not None:
            self.flow.key(ch, t)

    def _cues(self, cues, now):
        buzzer = self.board.buzzer
        self._dirty = True
        if cues & CUE_FORFEIT:
            buzzer.play("forfeit", now)
        elif cues & CUE_OVERTIME:
            buzzer.play("overtime", now)
        elif cues & CUE_OVERTIME_MINUTE:
            buzzer.play("overtime_minute", now)
        elif cues & CUE_WINDOW_CLOSED:
            buzzer.play("challenge_end", now)
        if cues & (CUE_FORFEIT | CUE_GAME_OVER):
            self.flush_log(now)

    def _running(self):
        engine = self.engine
        return engine.display(0).running or engine.display(1).running

    def _persist(self, now):
        state = self.state
        if self._dirty:
            self._dirty = False
            self.save(now)
            self.flush_log(now)
        elif self._running() and state.due(now):
            self.save(now)
        if ticks_diff(now, self._log_at) >= LOG_FLUSH_MS:
            self.flush_log(now)

    def save(self, now):
        if self.state.save(self.engine.snapshot(now), now):
            self.saves += 1

    def flush_log(self, now):
        self._log_at = now
        log = self.engine.log
        last = log.last()
        if last is None or last[0] <= self._log_seq:
            return
        try:
            self.gamelog.append(log.lines_since(self._log_seq))
        except OSError:
            return          # a full or failing flash must not stop the clock
        self._log_seq = last[0]

    def gamelog_note(self, line):
        try:
            self.gamelog.append((line,))
        except OSError:
            pass

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
        if preset is not None and preset != self.engine.preset:
            self._preset_pending = True
        panels = self.board.panels
        if panels is not None:
            for panel in panels.all():
                try:
                    panel.contrast(self.config.get("contrast", 255))
                except OSError:
                    pass
        for view in self.views:
            view.invalidate()
        self.terminal_view.invalidate()
        self._update_status()

    def _apply_preset(self, now):
        """A new preset takes effect only before a game (never in the middle of one)."""
        self._preset_pending = False
        engine = self.engine
        engine.confirm_reset(engine.request_reset(), self.config.preset())
        self._dirty = True
        self._update_status()

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
        return e

    def refresh(self, now):
        """Redraw and show every panel whose content changed; returns how many."""
        panels = self.board.panels
        if panels is None:
            return 0
        shown = 0
        extra = self.extra()
        engine = self.engine
        for side in (0, 1):
            panel = panels.side(side)
            if panel is None:
                continue
            d = engine.display(side)
            view = self.views[side]
            if view.changed(d, extra):
                view.draw(panel, d, extra, self._label)
                shown += _show(panel)
        panel = panels.terminal
        if panel is not None and self.flow is not None:
            screen = self.flow.screen()
            if self.terminal_view.changed(screen, self.status):
                self.terminal_view.draw(panel, screen, self.status)
                shown += _show(panel)
        return shown

    def _update_status(self):
        if self.recovered and self.recovery_note:
            self.status = self.label(self.recovery_note)
            return
        if self.recovery_note == "not_recovered":
            self.status = self.label("not_recovered")
            return
        battery = self.board.battery
        percent = battery.percent() if battery is not None else -1
        wordlist = ""
        if self.flow is not None and self.flow.lexicon is not None:
            wordlist = str(self.flow.lexicon.language).upper()
        preset = self.engine.preset["name"] if self.engine is not None else ""
        self.status = status_text(percent, self.battery_level, wordlist, preset)

    # --- battery -----------------------------------------------------------

    def sample_battery(self, now):
        battery = self.board.battery
        if battery is None:
            return
        battery.sample()
        level = battery.level()
        if level != self.battery_level:
            self.battery_level = level
            self._update_status()
        if level == "empty" and not self._empty_handled:
            # Stop the clocks and keep the game: it continues after a recharge.
            self._empty_handled = True
            self.engine.pause(now)
            self.save(now)
            self.flush_log(now)
        elif level != "empty":
            self._empty_handled = False


def _show(panel):
    try:
        panel.show()
        return 1
    except OSError:
        return 0        # a panel that dropped off its bus must not stop the clock


def _any_time_used(engine):
    initial = engine.preset["initial_ms"]
    for side in (0, 1):
        d = engine.display(side)
        if d.overtime or d.remaining_ms != initial:
            return True
    return False
