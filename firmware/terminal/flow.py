# The challenge flow (TSO 3.1.4 d i) as a state machine without hardware.
#
# Keys and time come in (key(ch, t), update(t)), the clock engine is called, and
# screen() gives the text the runtime draws.  Every state change redraws the
# whole screen from the state, and the words are wiped as soon as the verdict is
# known, so the neutral screen holds nothing of a challenge.
#
# Everything of a challenge that matters after a power cut (the step, the
# challenger, the words typed so far, a verdict on screen) is part of the game
# state the runtime saves after every key (saved_bytes with terminal.persist;
# terminal.resume reads it back at start-up).  Whatever the screen, the referee's
# key D reaches the PIN entry in at most two presses, and the referee's menu can
# resume the clock of the side on turn, take the challenge up again or cancel it.
#
# Only what the neutral screen needs stays loaded while the clocks run: the
# word entry, the key map and the referee menu (terminal.entry, .keymap,
# .letterfreq, .referee, .settings) are imported when a challenge or the
# referee's PIN entry starts and dropped, modules included, when the terminal
# is back on the neutral screen (docs/runtime.md, Memory).

from micropython import const
from i18n import tr
from lazy import unload
from timebase import ticks_diff
from terminal.screen import Screen, ROWS, COLS, TILE
from lexicon.reader import VALID, INVALID, LexiconError
from clock.engine import PHASE_ENDING, PHASE_OVER, PHASE_PLAY

NEUTRAL = 0
COUNT = 1           # how many words (1-8)
ENTRY = 2           # typing the words
CONFIRM = 3         # the opponent checks the typed words
READY = 4           # confirmed: the typist triggers the check
VERDICT = 5
REFEREE_WAIT = 6    # beyond the list, or no usable list: the referee decides
CANCEL_ASK = 7
REFEREE = 8         # PIN entry and the referee menu (terminal.referee)
FINISH_ASK = 9      # the last mover held pause: "game over?" (TSO 5.1b i)
ACCEPT_ASK = 10     # C in the end phase: accepting the final play ends the game

KEY_CHALLENGE = "A"
KEY_SEPARATE = "B"
KEY_CONFIRM = "C"
KEY_HOLD = "B"      # on the neutral screen, while the last play can be challenged
KEY_ACCEPT = "C"
KEY_CANCEL = "D"
KEY_BACK = "*"
KEY_ENTER = "#"
KEY_HELP = "A"      # while the words are counted or typed: the whole key layout

# loaded only while a challenge or the referee holds the terminal (the referee's game
# menu with the engine's corrections, and the snapshot reader an undo needs, too)
MODE_MODULES = ("terminal.referee", "terminal.settings", "terminal.entry", "terminal.keymap",
                "terminal.letterfreq", "terminal.persist", "terminal.resume", "terminal.help",
                "terminal.referee_game", "clock.corrections", "clock.snapshot_load")
# the steps of a challenge in progress (the engine is challenging)
CHALLENGE_STATES = (COUNT, ENTRY, CONFIRM, READY, REFEREE_WAIT)

_GUARD_MS = const(1500)  # keys this soon after a verdict appears or goes are ignored
_NOTICE_MS = const(3000)

_WORD_ROWS = const(3)  # rows for the words while typing (MEDIUM)
_LIST_ROWS = const(4)  # rows for the words while confirming (MEDIUM)
_CLOCK_ROW = const(1)  # the idle screen's rows with both sides' times


class ChallengeFlow:
    def __init__(self, engine, lexicon, log, settings, problem=None, wall=None, nvs=None):
        """nvs: the esp32.NVS that keeps the referee's PIN lock across power cuts
        (terminal.pinlock), or None: in RAM only."""
        from terminal.pinlock import PinLock

        self.engine = engine
        self.log = log
        self.settings = settings
        self.wall = wall            # seconds since the epoch for the log, if the device knows
        self._screen = Screen()
        self.referee = None         # terminal.referee.Referee while the referee holds the terminal
        self.keymap = None          # terminal.keymap.KeyMap and terminal.entry.WordEntry
        self.entry = None           # during a challenge or the referee menu, with a list
        self.pin_lock = PinLock(nvs)    # wrong PINs and lockouts, across menus and cuts
        self.state = NEUTRAL
        self.since = 0              # ticks of the last state change
        self.notice = ""            # short note on the neutral screen (no challenge content)
        self.notice_t = 0
        self.guard_t = None         # keys ignored until _GUARD_MS after this tick
        self.challenger = -1
        self.log_seq = 0            # the challenge log's seq for this challenge's record
        self.log_failed = False     # the last challenge record did not reach the file
        self.page = 0
        self.wait_reason = ""       # REFEREE_WAIT: "referee_decides", "no_list", "bad_list"
        self.verdict = None         # True / False while a verdict is shown, else None
        self.outcome = None         # the engine's Outcome of that verdict
        self.verdict_by = ""        # "list" or "referee"
        self.count_without_list = 0  # words declared when there is no usable list
        self.back_state = NEUTRAL   # where CANCEL_ASK and REFEREE return to
        self.finish_side = -1       # FINISH_ASK: the player who made the last move
        self.accept_side = -1       # ACCEPT_ASK: the opponent accepting the final play
        self._drawn_mode = -1       # the engine's situation the neutral screen shows
        self.help = False           # the key layout is on screen (key A while typing)
        self.battery = ""           # set_status(): the idle screen's battery and note
        self.device_note = ""
        self.mark = ""              # and a storage fault's mark (beside the battery)
        self.set_lexicon(lexicon, problem)

    # --- wiring -------------------------------------------------------------

    def lang(self):
        return self.settings.get("lang", "de")

    def text(self, key):
        return tr("terminal", key, self.lang())

    def set_lexicon(self, lexicon, problem=None):
        """Use another image (after an upload), or none: problem "missing"/"damaged"."""
        self.lexicon = lexicon
        self.problem = problem if lexicon is None else None
        if lexicon is None and self.problem is None:
            self.problem = "missing"
        self.keymap = None
        self.entry = None
        if self.state != NEUTRAL:
            self._load_entry()
        if self.referee is not None:
            self.referee.lexicon_changed()
        self._render()

    def _load_entry(self):
        # The word entry for the list in use (none without a list).
        lexicon = self.lexicon
        if lexicon is not None and self.entry is None:
            from terminal.entry import WordEntry
            from terminal.keymap import KeyMap, tile_frequencies

            freq = tile_frequencies(lexicon.tiles, lexicon.language, lexicon.frequencies)
            self.keymap = KeyMap(lexicon.tiles, freq)
            self.entry = WordEntry(self.keymap, self.settings.get("multitap_ms", 1000))

    def _open_referee(self, t, for_verdict, back_state):
        """Enter the referee's PIN entry; back_state is where leaving returns to."""
        from terminal.referee import Referee

        self.back_state = back_state
        self._load_entry()
        referee = self.referee = Referee(self)
        referee.lexicon_changed()
        referee.open(t, for_verdict)
        self._go(t, REFEREE)
        self._render()

    def _close_referee(self):
        referee = self.referee
        if referee is not None:
            referee.flow = None
            self.referee = None

    def _unload(self):
        # Back on the neutral screen: drop the challenge and referee parts.
        loaded = self.referee is not None or self.entry is not None
        self._close_referee()
        if loaded:
            self.keymap = self.entry = None
            # freed by the display task's next collection (app.tasks.display_step), which
            # comes once the screen has changed: a collection now would hold the neutral
            # screen back (a verdict's time up is a change no key made)
            unload(MODE_MODULES, False)

    def list_id(self):
        lex = self.lexicon
        if lex is None:
            return ""
        return " ".join(part for part in (lex.language, lex.name, lex.version) if part)

    def screen(self):
        return self._screen

    def active(self):
        """True while a challenge or the referee holds the terminal."""
        return self.state != NEUTRAL

    # --- events -------------------------------------------------------------

    def start_challenge(self, t, challenger=None):
        """The challenge button, or key A on the neutral screen."""
        if self.state != NEUTRAL:
            return False
        if challenger is None:
            # the side the engine lets challenge the last play: not on_turn,
            # which is -1 after `finish` while the final play may still be
            # challenged (TSO 5.1b)
            challenger = self.engine.challenger_side()
        if challenger < 0 or not self.engine.start_challenge(t, challenger):
            self._note(t, "not_now")
            return False
        self.challenger = challenger
        self.reserve_log_seq()
        self.guard_t = None         # a new challenge is deliberate: its keys count at once
        self._load_entry()
        if self.entry is not None:
            self.entry.wipe()
        self._go(t, COUNT)
        return True

    def ask_finish(self, t, side):
        """The pause switch held long by `side`, whose clock the pause stopped:
        ask whether that was the last move (TSO 5.1b i).  Only on the neutral screen."""
        if self.state != NEUTRAL or self.engine.phase != PHASE_PLAY:
            return False
        self.finish_side = side
        self._go(t, FINISH_ASK)
        return True

    def prompting(self):
        """True while the end-of-game question (FINISH_ASK) is on screen."""
        return self.state == FINISH_ASK

    def close_prompt(self, t):
        """Leave FINISH_ASK or ACCEPT_ASK without doing anything."""
        if self.state != FINISH_ASK and self.state != ACCEPT_ASK:
            return False
        self.finish_side = -1
        self.accept_side = -1
        self._go(t, NEUTRAL)
        return True

    def key(self, ch, t):
        if self.guard_t is not None and ticks_diff(t, self.guard_t) < _GUARD_MS:
            return False
        self.guard_t = None
        state = self.state
        if state == NEUTRAL:
            if ch == KEY_CHALLENGE:
                return self.start_challenge(t)
            if ch == KEY_HOLD:
                return self._hold(t)
            if ch == KEY_ACCEPT:
                return self._accept(t)
            if ch == KEY_CANCEL:
                self._open_referee(t, False, NEUTRAL)
                return True
            return False
        if state == REFEREE:
            changed = self.referee.key(ch, t)
            self._render()
            return changed
        if state == VERDICT:
            self._leave_verdict(t)      # any key, once the guard time has passed
            return True
        if state == REFEREE_WAIT:
            if ch == KEY_CANCEL:
                self._open_referee(t, True, REFEREE_WAIT)
                return True
            return False
        if state == FINISH_ASK or state == ACCEPT_ASK:
            if ch == KEY_ENTER:
                if state == FINISH_ASK:
                    self._finish(t)
                else:
                    self._accept_final(t)
            elif ch in (KEY_CANCEL, KEY_BACK):
                self.close_prompt(t)
            else:
                return False
            return True
        if state == CANCEL_ASK:
            if ch == KEY_ENTER:
                self._cancel(t)
            elif ch == KEY_BACK:
                self._go(t, self.back_state)
            elif ch == KEY_CANCEL:
                # D once more: the referee (PIN entry); leaving it returns to the challenge
                self._open_referee(t, False, self.back_state)
            else:
                return False
            return True
        if self.help:
            self.help = False           # any key closes the key layout
            self._render()
            return True
        if ch == KEY_HELP and (state == COUNT or state == ENTRY) and self.keymap is not None:
            if self.entry is not None:
                self.entry.commit()
            self.help = True
            self._render()
            return True
        if ch == KEY_CANCEL:
            self.back_state = state
            self._go(t, CANCEL_ASK)
            return True
        if state == COUNT:
            return self._count_key(ch, t)
        if state == ENTRY:
            return self._entry_key(ch, t)
        if state == CONFIRM:
            return self._confirm_key(ch, t)
        if state == READY:
            return self._ready_key(ch, t)
        return False

    def update(self, t):
        """Timeouts: multi-tap, verdict, notices, referee menu.  True if the screen changed."""
        # Stored ticks never outlive what they time (ticks_diff turns at 2**29 ms, 6.2
        # days): the lockout, the guard after a verdict, a letter left cycling on its key
        # under a question or the referee's menu.
        self.pin_lock.age(t)
        if self.guard_t is not None and ticks_diff(t, self.guard_t) >= _GUARD_MS:
            self.guard_t = None
        state = self.state
        entry = self.entry
        if entry is not None and entry.pending_key and state != ENTRY:
            entry.expire(t)
        if state == ENTRY:
            if self.entry.expire(t):
                return self._render()
        elif state == VERDICT:
            if ticks_diff(t, self.since) >= self.settings.get("verdict_ms", 10000):
                self._leave_verdict(t)
                return True
        elif state == REFEREE:
            if self.referee.update(t):
                return self._render()
        elif state == NEUTRAL:
            if self.notice and ticks_diff(t, self.notice_t) >= _NOTICE_MS:
                self.notice = ""
                return self._render()
            if self._mode() != self._drawn_mode:
                return self._render()       # a window opened or closed, a hold, the end
        elif state == ACCEPT_ASK:
            if self.engine.challenger_side() != self.accept_side:
                self.close_prompt(t)        # the window ended meanwhile: nothing to accept
                return True
        return False

    def quiet_ms(self, now, limit):
        """ms from `now` until update() changes the screen with time alone: a typed
        letter committed, the verdict's time up, a notice gone, the referee's lockout
        second or idle exit; at most `limit`, 0 when due.  What follows the engine (a
        window's end) is the engine's (Engine.quiet_ms).  Allocates nothing."""
        state = self.state
        if state == ENTRY:
            entry = self.entry
            if not entry.pending_key:
                return limit
            n = entry.timeout_ms - ticks_diff(now, entry.pending_t)     # entry.expire
        elif state == VERDICT:
            n = self.settings.get("verdict_ms", 10000) - ticks_diff(now, self.since)
        elif state == REFEREE:
            n = self.referee.quiet_ms(now, limit)
        elif state == NEUTRAL and self.notice:
            n = _NOTICE_MS - ticks_diff(now, self.notice_t)
        else:
            return limit
        return limit if n > limit else n if n > 0 else 0

    # --- hold, accept, finish (the neutral screen's B and C, the pause switch) ---

    def _hold(self, t):
        engine = self.engine
        side = engine.challenger_side()
        if side < 0 or not engine.hold(t, side):
            self._note(t, "not_now")
            return False
        self._render()          # the screen says the hold is on (hold_on)
        return True

    def _accept(self, t):
        engine = self.engine
        side = engine.challenger_side()
        if side < 0:
            self._note(t, "not_now")
            return False
        if engine.phase == PHASE_ENDING:
            # accepting the final play ends the game: asked once more (1.4.1a)
            self.accept_side = side
            self._go(t, ACCEPT_ASK)
            return True
        if not engine.accept(t, side):
            self._note(t, "not_now")
            return False
        self._note(t, "accepted_note")
        return True

    def _accept_final(self, t):
        side = self.accept_side
        self.accept_side = -1
        ok = self.engine.challenger_side() == side and self.engine.accept(t, side)
        self._go(t, NEUTRAL)
        if not ok:
            self._note(t, "not_now")

    def _finish(self, t):
        engine = self.engine
        side = self.finish_side
        self.finish_side = -1
        ok = False
        if (engine.phase == PHASE_PLAY and not engine.challenging and side >= 0
                and engine.on_turn == side):
            # The pause that led here stopped the clock; resume and finish at the
            # same tick charge nobody for the question.
            if engine.paused:
                engine.resume(t)
            ok = engine.finish(t, side)
        self._go(t, NEUTRAL)
        if not ok:
            self._note(t, "not_now")

    def _mode(self):
        # What the neutral screen depends on in the engine, as one small int.
        engine = self.engine
        mode = engine.phase * 4
        if engine.challenger_side() >= 0:
            mode += 1
        if engine.hold_side >= 0:
            mode += 2
        return mode

    # --- per state ------------------------------------------------------------

    def _count_key(self, ch, t):
        if "1" <= ch <= "8":
            count = ord(ch) - ord("0")
            if self.lexicon is None:
                # No usable list: only the referee can decide, and needs the count.
                self.count_without_list = count
                self.wait_reason = "bad_list" if self.problem == "damaged" else "no_list"
                self._go(t, REFEREE_WAIT)
                return True
            self.entry.begin(count)
            self._go(t, ENTRY)
            return True
        return False

    def _entry_key(self, ch, t):
        entry = self.entry
        if "0" <= ch <= "9":
            changed = entry.letter_key(ch, t)
        elif ch == KEY_SEPARATE:
            changed = entry.commit()
        elif ch == KEY_BACK:
            changed = entry.backspace()
            if not changed:
                changed = entry.previous_word()
                if not changed:
                    self._go(t, COUNT)      # back before the first word: the count again
                    return True
        elif ch == KEY_ENTER:
            changed = entry.next_word()
            if not changed and entry.complete():
                self.page = 0
                self._go(t, CONFIRM)
                return True
        else:
            return False
        if changed:
            self._render()
        return changed

    def _confirm_key(self, ch, t):
        if ch == KEY_CONFIRM:
            self._go(t, READY)
            return True
        if ch == KEY_BACK:
            self._go(t, ENTRY)
            return True
        if ch == KEY_SEPARATE:
            return self._next_page()
        return False

    def _ready_key(self, ch, t):
        if ch == KEY_ENTER:
            self._check(t)
            return True
        if ch == KEY_BACK:
            self._go(t, ENTRY)
            return True
        if ch == KEY_SEPARATE:
            return self._next_page()
        return False

    def _next_page(self):
        rows = self._word_rows()
        if len(rows) <= _LIST_ROWS:
            return False
        self.page = (self.page + 1) % ((len(rows) + _LIST_ROWS - 1) // _LIST_ROWS)
        return self._render()

    # --- the check and the verdict -------------------------------------------

    def _check(self, t):
        entry = self.entry
        any_invalid = False
        beyond = False
        try:
            for i in range(entry.count):
                result = self.lexicon.lookup(entry.words[i], entry.lengths[i])
                if result == INVALID:
                    any_invalid = True
                elif result != VALID:
                    beyond = True
        except LexiconError:
            # The image failed under a lookup (flash fault): no automatic verdict.
            count = entry.count
            self.state = REFEREE_WAIT
            self.wait_reason = "bad_list"
            self.set_lexicon(None, "damaged")
            self.count_without_list = count
            self._go(t, REFEREE_WAIT)
            return
        if any_invalid:
            # One word that is not in the list decides: the play is not acceptable
            # even when another word is beyond the list (TSO 3.1.4).
            self.decide(t, False, "list")
        elif beyond:
            self.wait_reason = "referee_decides"
            self._go(t, REFEREE_WAIT)
        else:
            self.decide(t, True, "list")

    def _declared(self):
        if self.entry is not None and self.entry.count:
            return self.entry.count
        return self.count_without_list

    def decide(self, t, acceptable, by):
        """The verdict for the whole play, from the list or from the referee."""
        count = self._declared()
        outcome = self.engine.challenge_verdict(t, acceptable, count)
        self._log(t, "acceptable" if acceptable else "not_acceptable", by, outcome)
        self._forget_words()
        self.verdict = acceptable
        self.outcome = outcome
        self.verdict_by = by
        self._go(t, VERDICT)
        self.guard_t = t

    def _cancel(self, t):
        engine = self.engine
        engine.cancel_challenge(t)
        if engine.phase == PHASE_ENDING and engine.challenger_side() < 0:
            # the challenge of the final play was withdrawn: the play stands,
            # as if accepted, and the game is over (TSO 5.1b v)
            engine.end_game(t)
        self._log(t, "cancelled", "players", None)
        self._forget_words()
        self.challenger = -1
        self._go(t, NEUTRAL)

    def _leave_verdict(self, t):
        self.verdict = None
        self.outcome = None
        self._forget_words()
        self.challenger = -1
        self._go(t, NEUTRAL)
        self.guard_t = t

    def _forget_words(self):
        if self.entry is not None:
            self.entry.wipe()
        self.count_without_list = 0
        self.page = 0
        self.wait_reason = ""

    def _log(self, t, verdict, by, outcome):
        if self.log is None:
            return
        words = []
        if self.entry is not None:
            for i in range(self.entry.count):
                words.append(self.entry.text(i))
        record = {
            "at": self.wall() if self.wall is not None else None,
            "challenger": self.challenger,
            "turn": self._turn(),
            "words": words,
            "word_count": self._declared(),
            "verdict": verdict,
            "by": by,
            "penalty": outcome.penalty_points if outcome is not None else 0,
            "lost_turn": bool(outcome.lost_turn) if outcome is not None else False,
            "withdrawn": bool(outcome.withdrawn) if outcome is not None else False,
            "list": self.list_id(),
            "table": self.settings.get("table", ""),
        }
        try:
            self.log.append(record, self.log_seq)
            self.log_failed = False
        except OSError:
            self.log_failed = True      # a full or failing flash must not stop the game

    def reserve_log_seq(self):
        """The seq this challenge's record will have, from its start: saved with every
        step of it (terminal.persist), so that a verdict a cut took from the state but
        not from the file is neither written twice nor lost (terminal.resume)."""
        self.log_seq = self.log.next_seq() if self.log is not None else 0

    def replay(self, t, record):
        """The verdict (or withdrawal) of this challenge as its record in the file says:
        a cut came between the record and the state's save (terminal.resume).  The record
        is not written again (its seq is in the file)."""
        verdict = record.get("verdict")
        if verdict == "cancelled":
            self._cancel(t)
            return
        count = record.get("word_count")
        if self.entry is not None:
            self.entry.wipe()
        self.count_without_list = count if isinstance(count, int) and count > 0 else 1
        self.decide(t, verdict == "acceptable", "referee" if record.get("by") == "referee"
                    else "list")

    def _turn(self):
        # The number of finished turns so far, from the engine's game log.
        log = getattr(self.engine, "log", None)
        count = getattr(log, "turns", None)
        return count if isinstance(count, int) else None

    # --- the referee's return path --------------------------------------------

    def referee_done(self, t):
        """The referee left the menu: back to the challenge step it was opened from,
        if that challenge is still on, else the neutral screen."""
        back = self.back_state
        if back in CHALLENGE_STATES and self.engine.challenging:
            self._close_referee()
            self._go(t, back)
        else:
            self._go(t, NEUTRAL)

    # --- what a power cut must not lose ------------------------------------------

    def saved_bytes(self):
        """The terminal's part of the game state (b"" on the neutral screen): the step
        it comes back to after a cut.  A question or the referee's menu gives way to the
        step under it; the end-of-game questions to the neutral screen (the game stays
        paused)."""
        state = self.state
        if state == CANCEL_ASK or state == REFEREE:
            state = self.back_state
        if state not in CHALLENGE_STATES and state != VERDICT:
            return b""
        from terminal.persist import encode

        return encode(self, state)

    # --- drawing --------------------------------------------------------------

    def _go(self, t, state):
        self.state = state
        self.since = t
        self.help = False
        if state != NEUTRAL:
            self.notice = ""
        else:
            self._unload()
        self._render()

    def _note(self, t, key):
        self.notice = key
        self.notice_t = t
        self._render()

    def set_status(self, battery, note, mark=""):
        """What the idle screen shows of the device: the battery ("87%", "USB", the
        low-battery text), a note (a recovery, a preset for the next game; "" none) and
        a mark beside the battery that no notice or title hides (a storage fault).
        Called after any change of the settings too: the idle screen shows whether the
        referee's PIN is still the default one."""
        self.battery = battery
        self.device_note = note
        self.mark = mark
        if self.state == NEUTRAL:
            self._render()

    def relabel(self):
        """The language changed: show the screen in the new one at once."""
        if self.referee is not None:
            self.referee.note = ""
        self._render()

    def _render(self):
        state = self.state
        if self.help and state in (COUNT, ENTRY):
            from terminal.help import lines

            lines, sizes = lines(self)
            return self._screen.show(lines, sizes)
        if state == REFEREE:
            lines = self.referee.lines()
            return self._screen.show(lines)
        sizes = None
        tiles = None
        shift = False
        clocks = -1
        if state == NEUTRAL:
            lines, sizes = self._neutral_lines()
            shift = True
            if sizes is not None:
                clocks = _CLOCK_ROW
        elif state == COUNT:
            lines = [self.text("challenge"), "", self.text("how_many"), ""]
            if self.lexicon is None:
                lines += self.text("bad_list" if self.problem == "damaged"
                                   else "no_list").split("\n")
            else:
                lines += ["", "", self.text("key_help")]
        elif state == ENTRY:
            lines = self._entry_lines()
            sizes = _ENTRY_SIZES
            tiles = self.lexicon.tiles
        elif state in (CONFIRM, READY):
            lines = self._list_lines(state)
            sizes = _LIST_SIZES
            tiles = self.lexicon.tiles
        elif state == VERDICT:
            lines = self._verdict_lines()
            sizes = _VERDICT_SIZES
        elif state == REFEREE_WAIT:
            lines = self._wait_lines()
            if self.wait_reason == "referee_decides" and self._declared() <= 3:
                sizes = _WAIT_SIZES
            if self.lexicon is not None:
                tiles = self.lexicon.tiles
        elif state == FINISH_ASK or state == ACCEPT_ASK:
            lines = self.text("finish_ask" if state == FINISH_ASK else "accept_ask").split("\n")
            lines += ["", self.text("ok_back")]
        else:   # CANCEL_ASK
            lines = self.text("cancel_ask").split("\n") + ["", self.text("yes_back"), "",
                                                           self.text("key_referee")]
        return self._screen.show(lines, sizes, tiles, shift, clocks)

    def _problem_lines(self):
        return self.text("bad_list" if self.problem == "damaged" else "no_list").split("\n")

    def _neutral_lines(self):
        # The idle screen: the state (or a short notice) and the battery; both sides'
        # times and penalties (drawn by the terminal view from the engine's display
        # models, rows _CLOCK_ROW and the next); the list; a note; the keys.
        engine = self.engine
        self._drawn_mode = self._mode()
        if engine.phase == PHASE_OVER:
            return self._result_lines(), None
        if self.notice:
            title = self.text(self.notice)
        else:
            title = self.text("last_move" if engine.phase == PHASE_ENDING else "ready")
        side = self.battery
        if self.mark:
            side = self.mark + " " + side if side else self.mark
            if len(title) + 1 + len(side) > COLS:
                side = self.mark
                title = title[:COLS - 1 - len(side)]
        if side and len(title) + 1 + len(side) <= COLS:
            title += "\t" + side               # (a long notice hides it for its 3 s)
        lines = [title, self.text("short_0"), self.text("short_1")]
        if engine.challenger_side() >= 0:
            # the last play can be held, accepted or challenged now
            lines.append(self.text("key_hold") if engine.hold_side < 0 else self.text("hold_on"))
            lines.append(self.text("key_accept"))
        elif self.lexicon is None:
            lines += self._problem_lines()
        else:
            lines.append(_joined(self.lexicon.name, self.lexicon.version))
            # the PIN is still the default one: anyone can open the referee's menu
            default = str(self.settings.get("referee_pin", "0000")) == "0000"
            lines.append(self.device_note or (self.text("pin_default") if default
                                              else engine.preset["name"]))
        while len(lines) < 5:
            lines.append(self.device_note if len(lines) == 4 else "")
        lines = lines[:5]
        if engine.challenger_side() >= 0:
            lines.append(self.text("key_challenge"))  # only while there is a play to challenge
        elif engine.fresh() and not engine.duplicate:
            lines.append(self.text("start_hint"))    # nobody's clock has run yet
        else:
            lines.append("")
        lines.append(self.text("key_referee"))
        return lines, _NEUTRAL_SIZES

    def _result_lines(self):
        # The end of the game: per side the time left (negative: overtime) and the
        # overtime and challenge penalties apart (a scorekeeper adds each once), and how
        # it ended (forfeit, 5.2d).
        engine = self.engine
        result = engine.result()
        lines = [self.text("result_title")]
        if engine.duplicate:
            lines.append(self.text("moves_n") % result["moves"])
        for side in () if engine.duplicate else (0, 1):
            d = engine.display(side)
            pens = result["sides"][side]
            lines.append(self.text("short_%d" % side) + " " + bytes(d.text).decode())
            lines.append(self.text("pen_overtime") + "\t" + _points(pens["overtime_penalty"]))
            lines.append(self.text("pen_challenge") + "\t" + _points(pens["challenge_penalty"]))
        if self.notice:
            lines.append(self.text(self.notice))
        elif result["forfeit_side"] >= 0:
            lines.append(self.text("forfeit_by") % self.text("side_%d" % result["forfeit_side"]))
        elif "5.2d" in result["notes"]:
            lines.append(self.text("note_5_2d"))
        else:
            lines.append(self.text("key_referee"))
        return lines

    def _word(self, i):
        # Word i as tiles: one character per tile (a tile of several letters as
        # terminal.screen.TILE + its index), the pending tile included.
        entry = self.entry
        tiles = entry.keymap.tiles
        out = ""
        n = entry.lengths[i]
        word = entry.words[i]
        for j in range(n + (1 if i == entry.current and entry.pending_key else 0)):
            tile = word[j] if j < n else entry.pending_tile()
            out += tiles[tile] if len(tiles[tile]) == 1 else chr(TILE + tile)
        return out

    def _entry_lines(self):
        entry = self.entry
        lines = [self.text("word_n") % (entry.current + 1, entry.count)]
        first = max(0, entry.current - _WORD_ROWS + 1)
        tiles = self.lexicon.tiles
        for i in range(first, first + _WORD_ROWS):
            if i <= entry.current:
                text = self._word(i) + ("_" if i == entry.current else "")
                lines.append(_tail("%d %s" % (i + 1, text), tiles))
            else:
                lines.append("")
        lines.append(self.entry.legend())
        lines.append(self.text("entry_keys"))
        return lines

    def _word_rows(self):
        rows = []
        tiles = self.lexicon.tiles
        for i in range(self.entry.count):
            rows.append(_tail("%d %s" % (i + 1, self._word(i)), tiles))
        return rows

    def _list_lines(self, state):
        rows = self._word_rows()
        start = self.page * _LIST_ROWS
        lines = [self.text("opponent") if state == CONFIRM else self.text("confirmed")]
        lines += rows[start:start + _LIST_ROWS]
        while len(lines) < _LIST_ROWS + 1:
            lines.append("")
        lines.append(self.text("confirm_keys") if state == CONFIRM else self.text("check_key"))
        return lines

    def _verdict_lines(self):
        # The verdict in LARGE, the size its longest translation fits
        # (tests/firmware/test_texts_fit.py), then what follows from it.
        acceptable, outcome, by = self.verdict, self.outcome, self.verdict_by
        lines = [self.text("acceptable" if acceptable else "not_acceptable")]
        if outcome is not None and outcome.withdrawn:
            lines.append(self.text("withdrawn"))
        elif outcome is not None and outcome.penalty_points:
            lines.append(self.text("penalty") % outcome.penalty_points)
        elif outcome is None or not outcome.lost_turn:
            lines.append(self.text("no_penalty"))
        if outcome is not None and outcome.lost_turn:
            lines.append(self.text("lost_turn"))
        if outcome is not None and outcome.game_over:
            lines.append(self.text("game_over"))
        elif outcome is not None and outcome.runs >= 0:
            lines.append(self.text("clock_runs") % self.text("side_%d" % outcome.runs))
        elif outcome is not None and outcome.withdrawn and self.challenger >= 0:
            # TSO 3.1.4: the player takes the tiles back, then restarts the clock
            player = self.text("side_%d" % (1 - self.challenger))
            lines += (self.text("withdraw_press") % player).split("\n")
        while len(lines) < 4:
            lines.append("")
        if by == "referee":
            lines.append(self.text("menu_title"))
        elif self.lexicon is not None:
            lines.append(_joined(self.lexicon.name, self.lexicon.version))
        else:
            lines.append("")
        lines.append(self.text("any_key"))
        return lines

    def _wait_lines(self):
        lines = []
        if self.wait_reason == "referee_decides":
            lines += self.text("referee_decides").split("\n")
            rows = self._word_rows()     # the referee needs the words
            lines += rows[:5]
            while len(lines) < 5:
                lines.append("")
            lines.append(self.text("key_referee"))
            return lines
        lines += self.text(self.wait_reason).split("\n")
        lines += self.text("call_referee").split("\n")
        while len(lines) < ROWS - 1:
            lines.append("")
        lines = lines[:ROWS - 1]
        lines.append(self.text("key_referee"))
        return lines


# line sizes of the screens (terminal.screen: 0 SMALL, 1 MEDIUM, 2 LARGE)
_NEUTRAL_SIZES = b"\x00\x01\x01\x00\x00\x00\x00"
_ENTRY_SIZES = b"\x00\x01\x01\x01\x01\x00"
_LIST_SIZES = b"\x00\x01\x01\x01\x01\x00"
_VERDICT_SIZES = b"\x02\x00\x00\x00\x00\x00"
_WAIT_SIZES = b"\x00\x00\x01\x01\x01\x00"


def _points(n):
    return "-%d" % n if n else "0"


def _joined(name, version):
    # a word list's name and version on one line when they fit
    both = name + " " + version if version else name
    return both if len(both) <= COLS else name


def _tail(text, tiles):
    # A long word shows its end, where the typing happens.
    from render.typeset import MEDIUM, width

    if width(text, MEDIUM, tiles) <= 127:
        return text
    while len(text) > 2 and width("<" + text, MEDIUM, tiles) > 127:
        text = text[1:]
    return "<" + text
