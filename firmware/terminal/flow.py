# The challenge flow (TSO 3.1.4 d i) as a state machine without hardware.
#
# Keys and time come in (key(ch, t), update(t)), the clock engine is called, and
# screen() gives the text the runtime draws.  Every state change redraws the
# whole screen from the state (terminal/view.py; the steps' numbers are in
# terminal/states.py), and the words are wiped as soon as the verdict is known, so
# the neutral screen holds nothing of a challenge.
#
# Everything of a challenge that matters after a power cut (the step, the
# challenger, the words typed so far, a verdict on screen) is part of the game
# state the runtime saves after every key (saved_bytes with terminal.persist;
# terminal.resume reads it back at start-up).  Whatever the screen, the referee's
# key D reaches the PIN entry in at most two presses, and the referee's menu can
# resume the clock of the side on turn, take the challenge up again or cancel it
# (reenter, cancel, resume_clock: the link cancels a challenge the same way).
#
# Once a game on two clocks is over, the flow asks for the players' scores from their
# sheets (terminal.scores: typed, confirmed by the opponent, logged, shown with the
# clock's penalties; kept in the game state record until the next game).
#
# The word steps, the word entry and the referee menu (terminal.wordsteps, .entry,
# .referee, ...) are imported when a challenge or the referee's PIN entry first
# needs them; the objects of a challenge (the typed words, the menu) go when the
# terminal is back on the neutral screen, and the word steps' modules with them
# (lazy.DROPPED["challenge"], with the figure that keeps it so).

from micropython import const
from i18n import tr
from timebase import ticks_diff
from lazy import unload
from clock.engine import PHASE_ENDING, PHASE_OVER, PHASE_PLAY
# (the steps' names are the flow's too: terminal.flow.CONFIRM and the rest)
from terminal.states import (ACCEPT_ASK, CANCEL_ASK, CHALLENGE_STATES, CONFIRM, COUNT, ENTRY,
                             FINISH_ASK, KEY_ACCEPT, KEY_BACK, KEY_CANCEL, KEY_CHALLENGE,
                             KEY_ENTER, KEY_HELP, KEY_HOLD, KEY_SCORES, NEUTRAL, READY, REFEREE,
                             REFEREE_WAIT, SCORE, SCORE_CONFIRM, VERDICT)
from terminal.view import FlowView

_GUARD_MS = const(1500)  # keys this soon after a verdict appears or goes are ignored
_NOTICE_MS = const(3000)


class ChallengeFlow:
    def __init__(self, engine, lexicon, log, settings, problem=None, wall=None, nvs=None):
        """nvs: the esp32.NVS that keeps the referee's PIN lock across power cuts
        (terminal.pinlock), or None: in RAM only."""
        from terminal.pinlock import PinLock

        self.engine = engine
        self.log = log
        self.settings = settings
        self.wall = wall            # seconds since the epoch for the log, if the device knows
        self.view = FlowView()      # the lines each step shows (terminal.view)
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
        self.help = False           # the key layout is on screen (key A while typing)
        self.scores = None          # terminal.scores.Scores from a game's end to the next game
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
            self.load_entry()
        if self.referee is not None:
            self.referee.lexicon_changed()
        self.render()

    def load_entry(self):
        """Make the word entry for the list in use, if there is none yet (none without
        a list)."""
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
        self.load_entry()
        referee = self.referee = Referee(self)
        referee.lexicon_changed()
        referee.open(t, for_verdict)
        self.go(t, REFEREE)
        self.render()

    def _close_referee(self):
        referee = self.referee
        if referee is not None:
            referee.flow = None
            self.referee = None

    def _neutral(self):
        # Back on the neutral screen: the challenge's and the referee's objects go, and
        # the challenge's modules with them (lazy.DROPPED).
        loaded = self.entry is not None
        self._close_referee()
        self.keymap = self.entry = None
        if loaded:
            # freed by the display task's next collection (app.tasks.display_step), which
            # comes once the screen has changed: a collection now would hold the neutral
            # screen back (a verdict's time up is a change no key made)
            unload("challenge", False)

    def list_id(self):
        lex = self.lexicon
        if lex is None:
            return ""
        return " ".join(part for part in (lex.language, lex.name, lex.version) if part)

    def screen(self):
        return self.view.screen

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
            self.note(t, "not_now")
            return False
        self.challenger = challenger
        self.reserve_log_seq()
        self.guard_t = None         # a new challenge is deliberate: its keys count at once
        self.load_entry()
        if self.entry is not None:
            self.entry.wipe()
        self.go(t, COUNT)
        return True

    def ask_finish(self, t, side):
        """The pause switch held long by `side`, whose clock the pause stopped:
        ask whether that was the last move (TSO 5.1b i).  Only on the neutral screen."""
        if self.state != NEUTRAL or self.engine.phase != PHASE_PLAY:
            return False
        self.finish_side = side
        self.go(t, FINISH_ASK)
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
        self.go(t, NEUTRAL)
        return True

    def key(self, ch, t):
        if self.guard_t is not None and ticks_diff(t, self.guard_t) < _GUARD_MS:
            return False
        self.guard_t = None
        state = self.state
        if state == NEUTRAL:
            if ch == KEY_SCORES and self.scores is not None and self.engine.phase == PHASE_OVER:
                from terminal import scores

                return scores.reopen(self, t)
            if ch == KEY_CHALLENGE:
                return self.start_challenge(t)
            if ch == KEY_HOLD:
                from terminal import lastplay

                return lastplay.hold(self, t)
            if ch == KEY_ACCEPT:
                from terminal import lastplay

                return lastplay.accept(self, t)
            if ch == KEY_CANCEL:
                self._open_referee(t, False, NEUTRAL)
                return True
            return False
        if state == REFEREE:
            changed = self.referee.key(ch, t)
            self.render()
            return changed
        if state == VERDICT:
            self._leave_verdict(t)      # any key, once the guard time has passed
            return True
        if state == SCORE or state == SCORE_CONFIRM:
            if ch == KEY_CANCEL:
                # the referee: the entry stays as it is (A on the result screen resumes it)
                self._open_referee(t, False, NEUTRAL)
                return True
            from terminal import scores

            return scores.key(self, state, ch, t)
        if state == REFEREE_WAIT:
            if ch == KEY_CANCEL:
                self._open_referee(t, True, REFEREE_WAIT)
                return True
            return False
        if state == FINISH_ASK or state == ACCEPT_ASK:
            if ch == KEY_ENTER:
                from terminal import lastplay

                if state == FINISH_ASK:
                    lastplay.finish(self, t)
                else:
                    lastplay.accept_final(self, t)
            elif ch in (KEY_CANCEL, KEY_BACK):
                self.close_prompt(t)
            else:
                return False
            return True
        if state == CANCEL_ASK:
            if ch == KEY_ENTER:
                self._call_off(t)
            elif ch == KEY_BACK:
                self.go(t, self.back_state)
            elif ch == KEY_CANCEL:
                # D once more: the referee (PIN entry); leaving it returns to the challenge
                self._open_referee(t, False, self.back_state)
            else:
                return False
            return True
        if self.help:
            self.help = False           # any key closes the key layout
            self.render()
            return True
        if ch == KEY_HELP and (state == COUNT or state == ENTRY) and self.keymap is not None:
            if self.entry is not None:
                self.entry.commit()
            self.help = True
            self.render()
            return True
        if ch == KEY_CANCEL:
            self.back_state = state
            self.go(t, CANCEL_ASK)
            return True
        from terminal import wordsteps

        return wordsteps.key(self, state, ch, t)

    def update(self, t):
        """Timeouts: multi-tap, verdict, notices, referee menu.  True if the screen changed."""
        # Stored ticks never outlive what they time (ticks_diff turns at 2**29 ms, 6.2
        # days): the lockout, the guard after a verdict, a letter left cycling on its key
        # under a question or the referee's menu.
        self.pin_lock.age(t)
        if self.guard_t is not None and ticks_diff(t, self.guard_t) >= _GUARD_MS:
            self.guard_t = None
        state = self.state
        if self.scores is not None and self.engine.phase != PHASE_OVER:
            # the game goes on (the referee took the end back) or a new one begins: the
            # scores were of no game
            self.scores = None
            if state == SCORE or state == SCORE_CONFIRM:
                self.go(t, NEUTRAL)
                return True
        entry = self.entry
        if entry is not None and entry.pending_key and state != ENTRY:
            entry.expire(t)
        if state == ENTRY:
            if self.entry.expire(t):
                return self.render()
        elif state == VERDICT:
            if ticks_diff(t, self.since) >= self.settings.get("verdict_ms", 10000):
                self._leave_verdict(t)
                return True
        elif state == REFEREE:
            if self.referee.update(t):
                return self.render()
        elif state == NEUTRAL:
            if self.notice and ticks_diff(t, self.notice_t) >= _NOTICE_MS:
                self.notice = ""
                return self.render()
            if self.scores is None and self.engine.phase == PHASE_OVER:
                from terminal import scores

                if scores.wanted(self.engine):
                    scores.begin(self, t)       # the game is over: its scores
                    return True
            if self.view.stale(self.engine):
                return self.render()       # a window opened or closed, a hold, the end
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

    # --- the verdict -------------------------------------------------------------

    def declared(self):
        """How many words the challenged play has: as typed, or as declared without
        a usable list."""
        if self.entry is not None and self.entry.count:
            return self.entry.count
        return self.count_without_list

    def decide(self, t, acceptable, by):
        """The verdict for the whole play, from the list or from the referee."""
        count = self.declared()
        outcome = self.engine.challenge_verdict(t, acceptable, count)
        self._log(t, "acceptable" if acceptable else "not_acceptable", by, outcome)
        self._forget_words()
        self.verdict = acceptable
        self.outcome = outcome
        self.verdict_by = by
        self.go(t, VERDICT)
        self.guard_t = t

    def _call_off(self, t):
        # The challenge is cancelled (the players' yes to CANCEL_ASK, cancel(), a
        # cancellation replayed from the log): the clocks as before it.
        engine = self.engine
        engine.cancel_challenge(t)
        if engine.phase == PHASE_ENDING and engine.challenger_side() < 0:
            # the challenge of the final play was withdrawn: the play stands,
            # as if accepted, and the game is over (TSO 5.1b v)
            engine.end_game(t)
        self._log(t, "cancelled", "players", None)
        self._forget_words()
        self.challenger = -1
        self.go(t, NEUTRAL)

    def _leave_verdict(self, t):
        self.verdict = None
        self.outcome = None
        self._forget_words()
        self.challenger = -1
        self.go(t, NEUTRAL)
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
            "word_count": self.declared(),
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
            self._call_off(t)
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

    # --- the way out: the referee's menu (its fifth line, its verdict), the link -------

    def referee_done(self, t):
        """The referee left the menu: back to the challenge step it was opened from,
        if that challenge is still on, else the neutral screen."""
        back = self.back_state
        if back in CHALLENGE_STATES and self.engine.challenging:
            self._close_referee()
            self.go(t, back)
        else:
            self.go(t, NEUTRAL)

    def reenter(self, t):
        """Take the challenge in progress up again: the words from the count on.
        False if there is none."""
        engine = self.engine
        if not engine.challenging:
            return False
        self._close_referee()
        self.challenger = engine.challenge_by()
        self._forget_words()
        self.load_entry()
        self.go(t, COUNT)
        return True

    def cancel(self, t):
        """Cancel the challenge in progress: the clocks as before it (TSO 3.1.4), its
        record in the challenge log.  False if there is none."""
        engine = self.engine
        if not engine.challenging:
            return False
        if self.challenger < 0:
            self.challenger = engine.challenge_by()
        self._call_off(t)
        return True

    def resume_clock(self, t):
        """Restart the clock of the side on turn (after a pause, a power cut, a finish
        question left open); False if no clock is stopped or a challenge is on."""
        engine = self.engine
        if not engine.paused or engine.challenging:
            return False
        side = engine.on_turn
        ok = engine.resume(t, side) if side >= 0 else engine.resume(t)
        if ok:
            self.go(t, NEUTRAL)
        return ok

    # --- what a power cut must not lose ------------------------------------------

    def saved_bytes(self):
        """The terminal's part of the game state (b"" on the neutral screen, but for a
        finished game's scores: terminal.scores): the step it comes back to after a cut.  A question or the referee's menu gives way to the
        step under it; the end-of-game questions to the neutral screen (the game stays
        paused)."""
        state = self.state
        if state == CANCEL_ASK or state == REFEREE:
            state = self.back_state
        if state not in CHALLENGE_STATES and state != VERDICT:
            if self.scores is not None:
                from terminal.scores import encode as scores_part

                return scores_part(self)    # a finished game's scores (terminal.scores)
            return b""
        from terminal.persist import encode

        return encode(self, state)

    def sheet_scores(self):
        """The scores [left, right] the players confirmed for the game just over, or
        None (not entered, not confirmed yet, or no game over)."""
        scores = self.scores
        return scores.values() if scores is not None else None

    # --- drawing --------------------------------------------------------------

    def go(self, t, state):
        """Show step `state` (terminal.states) from tick t."""
        self.state = state
        self.since = t
        self.help = False
        if state != NEUTRAL:
            self.notice = ""
        else:
            self._neutral()
        self.render()

    def note(self, t, key):
        """A short notice (a text key) on the neutral screen, for _NOTICE_MS."""
        self.notice = key
        self.notice_t = t
        self.render()

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
            self.render()

    def relabel(self):
        """The language changed: show the screen in the new one at once."""
        if self.referee is not None:
            self.referee.note = ""
        self.render()

    def render(self):
        """Draw the screen anew from the state; True if it changed."""
        return self.view.draw(self)
