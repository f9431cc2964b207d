# Lockdown and the referee menu.  Outside a challenge the terminal looks up no
# word; the referee's PIN opens a menu to check words, change settings, adjust a
# player's time (TSO 7.3.2.2), reset the clock in two steps (TSO 1.4.1a) and
# correct the game (key 6: terminal/referee_game.py, loaded only when opened).
# Its fifth line is the way out of any situation: during a challenge it takes
# the challenge up again (the words typed anew) or cancels it (clocks as before,
# TSO 3.1.4); with the clocks stopped it restarts the clock of the side on turn
# (the flow's reenter, cancel and resume_clock: terminal/flow.py).
# When the list cannot decide (a word beyond it, or no usable list), the PIN
# leads straight to the referee's verdict, which offers the same two ways out.
# A preset chosen during a game is for the next game (the running one keeps its
# own), and the menu says so.

from micropython import const
from timebase import ticks_diff
from terminal.entry import WordEntry
from terminal.settings import VERDICT_CHOICES_MS
# the menu's modes (terminal.modes; terminal.referee.MENU and the rest)
from terminal.modes import (ADJ_SECS, ADJ_SIDE, CHALLENGE, CHECK, GAME, MENU, NEW_PIN, PICK,
                            PIN, RESET_ASK, SETTINGS)
from i18n import LANGUAGES

_MAX_DIGITS = const(8)
IDLE_MS = 120000    # an abandoned menu closes itself


class Referee:
    def __init__(self, flow):
        self.flow = flow
        self.mode = PIN
        self.digits = ""
        self.shown_lock_s = -1
        self.for_verdict = False
        self.last_t = 0
        self.check_entry = None
        self.check_line = ""
        self.note = ""
        self.adj_side = 0
        self.adj_negative = False
        self.reset_token = None

    def lexicon_changed(self):
        flow = self.flow
        self.check_entry = None
        if flow.keymap is not None:
            self.check_entry = WordEntry(flow.keymap, flow.settings.get("multitap_ms", 1000))

    def open(self, t, for_verdict):
        self.for_verdict = for_verdict
        self.last_t = t
        self.switch_to(PIN)
        left = self.flow.pin_lock.left_ms(t)
        self.shown_lock_s = (left + 999) // 1000 if left else -1

    def switch_to(self, mode):
        """Show menu `mode` (terminal.states), with nothing typed and no note."""
        self.mode = mode
        self.digits = ""
        self.note = ""
        self.check_line = ""
        if self.check_entry is not None:
            self.check_entry.wipe()

    def _exit(self, t):
        self.switch_to(PIN)
        self.reset_token = None
        self.flow.referee_done(t)

    def _locked(self, t):
        # the lock's wrong PINs and lockouts (terminal.pinlock) outlive this menu and
        # power cuts
        return self.flow.pin_lock.left_ms(t) > 0

    # --- keys ---------------------------------------------------------------

    def key(self, ch, t):
        self.last_t = t
        mode = self.mode
        if mode >= GAME:
            from terminal import referee_game

            return referee_game.key(self, ch, t)
        if mode == PIN:
            return self._pin_key(ch, t)
        if mode == PICK:
            if ch == "1" or ch == "2":
                self.switch_to(PIN)
                self.flow.decide(t, ch == "1", "referee")
                return True
            if ch == "3":
                return self.flow.reenter(t)
            if ch == "4":
                return self.flow.cancel(t)
            if ch == "D":
                self._exit(t)
                return True
            return False
        if mode == CHALLENGE:
            if ch == "1":
                return self.flow.reenter(t)
            if ch == "2":
                return self.flow.cancel(t)
            if ch == "D":
                self.switch_to(MENU)
                return True
            return False
        if mode == MENU:
            return self._menu_key(ch, t)
        if mode == CHECK:
            return self._check_key(ch, t)
        if mode == SETTINGS:
            return self._settings_key(ch, t)
        if mode == NEW_PIN:
            return self._new_pin_key(ch, t)
        if mode == ADJ_SIDE:
            if ch == "1" or ch == "2":
                self.adj_side = ord(ch) - ord("1")
                self.adj_negative = False
                self.switch_to(ADJ_SECS)
                return True
            if ch == "D":
                self.switch_to(MENU)
                return True
            return False
        if mode == ADJ_SECS:
            return self._adjust_key(ch, t)
        if mode == RESET_ASK:
            if ch == "#":
                ok = self.flow.engine.confirm_reset(self.reset_token)
                self.reset_token = None
                self.switch_to(MENU)
                self.note = "done" if ok else "rejected"
                return True
            if ch == "D":
                self.reset_token = None
                self.switch_to(MENU)
                return True
            return False
        return False

    def _pin_key(self, ch, t):
        if ch == "D":
            self._exit(t)
            return True
        if self._locked(t):
            return False
        if "0" <= ch <= "9":
            if len(self.digits) < _MAX_DIGITS:
                self.digits += ch
                self.note = ""
                return True
            return False
        if ch == "*":
            self.digits = self.digits[:-1]
            return True
        if ch == "#":
            lock = self.flow.pin_lock
            if self.digits == str(self.flow.settings.get("referee_pin", "0000")):
                lock.right()
                self.switch_to(PICK if self.for_verdict else MENU)
                return True
            self.digits = ""
            self.note = "pin_wrong"
            if lock.wrong(t):
                self.shown_lock_s = (lock.left_ms(t) + 999) // 1000
            return True
        return False

    def _menu_key(self, ch, t):
        if ch == "1":
            if self.check_entry is None:
                self.note = "no_list"
                return True
            self.switch_to(CHECK)
            self.check_entry.begin(1)
            return True
        if ch == "2":
            self.switch_to(SETTINGS)
            return True
        if ch == "3":
            self.switch_to(ADJ_SIDE)
            return True
        if ch == "4":
            self.switch_to(RESET_ASK)
            self.reset_token = self.flow.engine.request_reset()
            return True
        if ch == "5":
            engine = self.flow.engine
            if engine.challenging:
                self.switch_to(CHALLENGE)
                return True
            if self.flow.resume_clock(t):      # leaves the menu: the clock runs
                return True
            return False
        if ch == "6":
            self.switch_to(GAME)
            return True
        if ch == "D":
            self._exit(t)
            return True
        return False

    def _fifth_line(self):
        # what key 5 does now: the challenge, the clock of the side on turn, or nothing
        engine = self.flow.engine
        text = self.flow.text
        if engine.challenging:
            return text("menu_challenge")
        if engine.paused:
            side = engine.on_turn
            return text("menu_resume") % (text("side_%d" % side) if side >= 0 else "")
        return ""

    def _check_key(self, ch, t):
        entry = self.check_entry
        if ch == "D":
            self.switch_to(MENU)
            return True
        if "0" <= ch <= "9":
            if not entry.lengths[0] and not entry.pending_key:
                self.check_line = ""     # a new word: the last answer goes
            return entry.letter_key(ch, t)
        if ch == "B":
            return entry.commit()
        if ch == "*":
            return entry.backspace()
        if ch == "#":
            entry.commit()
            n = entry.lengths[0]
            if not n:
                return False
            from lexicon.reader import VALID, INVALID, LexiconError

            try:
                result = self.flow.lexicon.lookup(entry.words[0], n)
            except LexiconError:
                self.flow.set_lexicon(None, "damaged")
                self.switch_to(MENU)
                self.note = "bad_list"
                return True
            answer = "valid" if result == VALID else ("invalid" if result == INVALID else "too_long")
            self.check_line = entry.text(0) + "\n" + self.flow.text(answer)
            entry.begin(1)
            return True
        return False

    def _settings_key(self, ch, t):
        settings = self.flow.settings
        if ch == "D":
            self.switch_to(MENU)
            return True
        if ch == "1":
            lang = settings.get("lang", "de")
            i = LANGUAGES.index(lang) if lang in LANGUAGES else -1
            return self._set("lang", LANGUAGES[(i + 1) % len(LANGUAGES)])
        if ch == "2":
            ms = settings.get("verdict_ms", 10000)
            i = VERDICT_CHOICES_MS.index(ms) if ms in VERDICT_CHOICES_MS else -1
            return self._set("verdict_ms", VERDICT_CHOICES_MS[(i + 1) % len(VERDICT_CHOICES_MS)])
        if ch == "3":
            self.switch_to(NEW_PIN)
            return True
        if ch == "4":
            names = _preset_names()
            if not names:
                return False
            name = settings.get("preset", names[0])
            i = names.index(name) if name in names else -1
            edits = settings.get("preset_edits") or {}
            if "move_ms" in edits:
                # a move time set for a duplicate game is no edit of the next preset
                edits = dict(edits)
                del edits["move_ms"]
                settings.set("preset_edits", edits)
            return self._set("preset", names[(i + 1) % len(names)])
        move = self._move_ms()
        if ch == "5" and move:
            # a duplicate game's time per move: 1:00 to 3:00 in steps of 30 s
            edits = dict(settings.get("preset_edits") or {})
            edits["move_ms"] = move + 30000 if move < 180000 else 60000
            return self._set("preset_edits", edits)
        return False

    def _move_ms(self):
        # the time per move of the configured preset if it is a duplicate game, else 0
        try:
            from clock.presets import edit_preset, get_preset

            settings = self.flow.settings
            preset = edit_preset(get_preset(settings.get("preset", "")),
                                 settings.get("preset_edits") or {})
        except (ImportError, KeyError, ValueError):
            return 0
        return preset["move_ms"]

    def _set(self, key, value):
        ok, message = self.flow.settings.set(key, value)
        self.note = "saved" if ok else "rejected"
        if ok and key in ("preset", "preset_edits") and not self.flow.engine.fresh():
            # the running game keeps its preset (clock.snapshot): this is the next one's
            self.note = "next_game"
        return True

    def _new_pin_key(self, ch, t):
        if ch == "D":
            self.switch_to(SETTINGS)
            return True
        if "0" <= ch <= "9":
            if len(self.digits) < _MAX_DIGITS:
                self.digits += ch
                return True
            return False
        if ch == "*":
            self.digits = self.digits[:-1]
            return True
        if ch == "#":
            ok, message = self.flow.settings.set("referee_pin", self.digits)
            self.switch_to(SETTINGS if ok else NEW_PIN)
            self.note = "saved" if ok else "rejected"
            return True
        return False

    def _adjust_key(self, ch, t):
        # The side's time as mm:ss, typed from the right ("2530" = 25:30); * for a time
        # in overtime (shown with a minus, as the panels show it); # sets it.
        if ch == "D":
            self.switch_to(MENU)
            return True
        if "0" <= ch <= "9":
            if len(self.digits) < 4:
                self.digits += ch
                return True
            return False
        if ch == "*":
            self.adj_negative = not self.adj_negative
            return True
        if ch == "#":
            if not self.digits:
                return False
            value = int(self.digits)
            seconds = (value // 100) * 60 + value % 100
            ok = value % 100 < 60
            if ok:
                engine = self.flow.engine
                side = engine.result(t)["sides"][self.adj_side]
                now_ms = side["remaining_ms"] - side["overtime_ms"]
                target = -seconds * 1000 if self.adj_negative else seconds * 1000
                ok = engine.adjust(t, self.adj_side, target - now_ms)
            self.switch_to(MENU)
            self.note = "done" if ok else "rejected"
            return True
        return False

    # --- time ---------------------------------------------------------------

    def update(self, t):
        """True if the screen needs redrawing."""
        if ticks_diff(t, self.last_t) >= IDLE_MS:
            self._exit(t)
            return True
        if self.mode == CHECK and self.check_entry is not None:
            return self.check_entry.expire(t)
        if self.mode == PIN:
            left = (self.flow.pin_lock.left_ms(t) + 999) // 1000
            if left != (self.shown_lock_s if self.shown_lock_s > 0 else 0):
                self.shown_lock_s = left if left > 0 else -1
                return True
        return False

    def quiet_ms(self, now, limit):
        """ms from `now` until update() changes the screen with time alone (the idle
        exit, the word check's multi-tap letter, the PIN lockout's next second)."""
        n = IDLE_MS - ticks_diff(now, self.last_t)
        if n < limit:
            limit = n if n > 0 else 0
        entry = self.check_entry
        if self.mode == CHECK and entry is not None and entry.pending_key:
            n = entry.timeout_ms - ticks_diff(now, entry.pending_t)    # entry.expire
            if n < limit:
                limit = n if n > 0 else 0
        elif self.mode == PIN and self.flow.pin_lock.locked_t is not None:
            n = self.flow.pin_lock.left_ms(now)     # shown in whole seconds, up
            n = (n - 1) % 1000 + 1 if n > 0 else 0
            if n < limit:
                limit = n
        return limit

    # --- drawing ------------------------------------------------------------

    def lines(self):
        flow = self.flow
        text = flow.text
        mode = self.mode
        if mode >= GAME:
            from terminal import referee_game

            return referee_game.lines(self)
        note = text(self.note).split("\n")[0] if self.note else ""
        if mode == PIN:
            lines = [text("menu_title"), "", text("pin") + " " + "*" * len(self.digits), ""]
            if self.shown_lock_s > 0:
                lines.append(text("locked") % self.shown_lock_s)
            else:
                lines.append(note)
            return lines + ["", "", text("menu_exit")]
        if mode == PICK:
            return [text("menu_title"), text("ref_accept"), text("ref_reject"),
                    text("ref_reenter"), text("ref_cancel"), "", "", text("menu_exit")]
        if mode == CHALLENGE:
            return [text("menu_challenge")[2:], "", text("chal_reenter"), text("chal_cancel"),
                    "", note, "", text("menu_back")]
        if mode == MENU:
            # a note (what the last key did) takes the title's line
            return [note or text("menu_title"), text("menu_check"), text("menu_settings"),
                    text("menu_time"), text("menu_reset"), self._fifth_line(),
                    text("menu_game"), text("menu_exit")]
        if mode == CHECK:
            entry = self.check_entry
            answer = (self.check_line + "\n").split("\n")
            return [text("menu_check")[2:], "", entry.text(0) + "_", "", answer[0], answer[1],
                    entry.legend(), text("menu_exit")]
        if mode == SETTINGS:
            settings = flow.settings
            move = self._move_ms()
            return [text("menu_settings")[2:],
                    text("set_lang") % settings.get("lang", "de"),
                    text("set_verdict") % (settings.get("verdict_ms", 10000) // 1000),
                    text("set_pin"),
                    text("set_preset") % settings.get("preset", "-") if _preset_names() else "",
                    text("set_move") % (move // 60000, move // 1000 % 60) if move else "",
                    note, text("menu_exit")]
        if mode == NEW_PIN:
            return [text("set_pin")[2:], "", text("new_pin") + " " + self.digits, "", note,
                    "", "", text("menu_exit")]
        if mode == ADJ_SIDE:
            return [text("menu_time")[2:], "", text("adj_side"), "", "", "", "", text("menu_exit")]
        if mode == ADJ_SECS:
            side = text("side_%d" % self.adj_side)
            value = int(self.digits) if self.digits else 0
            typed = "%s%02d:%02d" % ("-" if self.adj_negative else " ", value // 100, value % 100)
            return [text("menu_time")[2:], side, text("adj_secs"), typed, "",
                    text("adj_keys"), "", text("menu_exit")]
        # RESET_ASK
        return [text("menu_reset")[2:], "", text("reset_ask"), "", text("yes_no"), "", "", ""]


def _preset_names():
    try:
        from clock.presets import PRESET_NAMES
    except ImportError:
        return ()
    return PRESET_NAMES
