# What the host link asks of the runtime (docs/link-protocol.md, section 5).

import json

from version import VERSION

LOGS = {
    "games": "logs/games.jsonl",
    "games.1": "logs/games.1.jsonl",
    "challenges": "logs/challenges.jsonl",
    "challenges.1": "logs/challenges.1.jsonl",
}


class Services:
    def __init__(self, device, open_lexicon):
        self.device = device
        self._open_lexicon = open_lexicon     # () -> (lexicon or None, problem)

    def device_info(self):
        from link.files import unique_id_hex

        d = self.device
        e = d.engine
        now = d.clock.ticks_ms()
        battery = d.board.battery
        return {"device": unique_id_hex(), "firmware": VERSION,
                "table": d.config.get("table"),
                "battery_mv": battery.mv if battery is not None else -1,
                "battery_percent": battery.percent() if battery is not None else -1,
                "battery": d.battery_level, "preset": e.preset["name"],
                "next_preset": d.config.get("preset"), "recovered": d.recovered,
                # a storage fault ("", "log_full", "not_saving") and what it cost so far
                "storage": d.storage, "lines_lost": d.lines_lost,
                "save_failures": d.save_failures,
                # the hall (docs/hall.md): network status, messages sent, results waiting
                "hall": d.hall.info() if d.hall is not None else None,
                # the game's clock as the device counts it: ms charged to each side
                # up to `ticks` (what a host can check the accounting against)
                "clock": {"ticks": now, "used_ms": [e.used_ms(0, now), e.used_ms(1, now)],
                          "phase": e.phase, "on_turn": e.on_turn, "paused": e.paused,
                          "challenging": e.challenging}}

    def get_config(self):
        # the Wi-Fi password and the event's key only as "(set)": they go in, never out
        return self.device.config.masked()

    def config_conflict(self, changes):
        """"" or why `changes` would alter what the running game needs (its preset):
        the link refuses that unless asked to keep it for the next game or forced."""
        d = self.device
        if not _game_on(d) or ("preset" not in changes and "preset_edits" not in changes):
            return ""
        try:
            new = d.config.preset(changes)
        except ValueError:
            return ""           # not a valid preset: the configuration check says why
        running = d.engine.preset
        if new == running:
            return ""
        return ("a game is in progress with preset %s; a new preset takes effect only with "
                "the next game" % running["name"])

    def set_config(self, changes, force=False):
        """Apply changes (all or none); a new preset during a game is kept for the next
        game, and the reply says so; with force the running game ends first (its result
        and the reason go to the game log)."""
        d = self.device
        running = d.engine.preset["name"]
        conflict = self.config_conflict(changes)
        ok, message = d.config.update(changes)
        if not ok or not conflict:
            return ok, message
        new = d.config.get("preset")
        if force and _end_game(d, d.clock.ticks_ms(), "preset"):
            return True, "the game in progress (%s) was ended; %s takes effect with the next game" \
                % (running, new)
        return True, "%s takes effect with the next game; the game in progress keeps %s" \
            % (new, running)

    def game_in_progress(self):
        return _game_on(self.device)

    def set_time(self, t):
        """The host's wall-clock time (year, month, day, hours, minutes, seconds), sent on
        every connection: the logs' records carry it from now on."""
        import hal_rtc

        hal_rtc.set_time(t)

    def reset_game(self, force=False):
        """A fresh game with the configured preset (between rounds).  (ok, message);
        a game in progress is ended first only with force (its result goes to the log)."""
        d = self.device
        now = d.clock.ticks_ms()
        running = _game_on(d)
        if running and not force:
            return False, "a game is in progress"
        if running:
            _end_game(d, now, "reset")
        flow = d.flow
        if flow is not None and flow.active():
            flow.cancel(now)
            flow.close_prompt(now)
        engine = d.engine
        engine.confirm_reset(engine.request_reset(), d.config.preset())
        d.preset_pending = False
        d.recovered = False
        d.recovery_note = ""
        d.commit(now)
        d.update_status()
        return True, ("the game in progress was ended; " if running else "") + \
            "a new game with preset %s" % engine.preset["name"]

    def read_log(self, name, offset, size):
        path = LOGS[name]
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                return f.read(size)
        except OSError:
            return b""

    def release_lexicon(self):
        flow = self.device.flow
        if flow is not None:
            lex = flow.lexicon
            flow.set_lexicon(None, "missing")
            close = getattr(lex, "close", None)
            if close:
                close()

    def lexicon_changed(self):
        flow = self.device.flow
        if flow is not None:
            lex, problem = self._open_lexicon()
            try:
                flow.set_lexicon(lex, problem)
            except Exception:
                # the terminal cannot take the list (its tiles): unusable, never an
                # error that stops the link or the clock
                if lex is not None:
                    lex.close()
                flow.set_lexicon(None, "damaged")
            self.device.update_status()

    def result_json(self):
        return json.dumps(self.device.engine.result())


def _game_on(dev):
    """A game is being played (its clock, its rules): what the link must not change
    under it without force."""
    from clock.engine import PHASE_ENDING, PHASE_PLAY

    return dev.engine.phase == PHASE_PLAY or dev.engine.phase == PHASE_ENDING


def _end_game(dev, now, reason):
    """End the running game from outside (a forced preset change over the link): a
    challenge in progress is cancelled (clocks as before it), the clocks stop, the game
    log says why and holds the result; the next game gets the configured preset."""
    from clock import gamelog as gl

    engine = dev.engine
    if not _game_on(dev):
        return False
    flow = dev.flow
    if engine.challenging:
        if flow is not None:
            flow.cancel(now)
        else:
            engine.cancel_challenge(now)
    if flow is not None:
        flow.close_prompt(now)
    engine.log_note(gl.ENDED, now, reason)
    if not engine.paused and (engine.display(0).running or engine.display(1).running):
        engine.pause(now)            # no 5.2d excuse: the clock was not left running
    engine.end_game(now)
    dev.commit(now)
    return True
