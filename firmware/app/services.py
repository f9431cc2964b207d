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
        d = self.device
        return {"device": "tileclock", "firmware": VERSION,
                "battery_mv": d.board.battery.mv if d.board.battery is not None else -1,
                "battery": d.battery_level, "preset": d.engine.preset["name"],
                "recovered": d.recovered}

    def get_config(self):
        return dict(self.device.config.values)

    def set_config(self, changes):
        return self.device.config.update(changes)

    def game_in_progress(self):
        from clock.engine import PHASE_PLAY, PHASE_ENDING

        return self.device.engine.phase in (PHASE_PLAY, PHASE_ENDING)

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
            flow.set_lexicon(lex, problem)
            self.device._update_status()

    def result_json(self):
        return json.dumps(self.device.engine.result())
