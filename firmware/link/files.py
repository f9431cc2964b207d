# Link services over the device files: what LinkHandler needs from the
# runtime, built from the runtime's own objects (store.config.Config for the
# settings, the game engine for "game in progress").  The runtime may use this
# class as it is or hand the handler an object of its own with the same methods.

import binascii

from version import VERSION

LOGS = {
    "games": ("logs/games.1.jsonl", "logs/games.jsonl"),
    "challenges": ("logs/challenges.1.jsonl", "logs/challenges.jsonl"),
}


def unique_id_hex():
    try:
        import machine
        return binascii.hexlify(machine.unique_id()).decode()
    except Exception:
        return "unknown"


def _size(path):
    import os
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


class DeviceServices:
    """config: a store.config.Config (values dict, update(dict) -> (ok, message));
    game_in_progress: a function returning True while a game runs;
    on_lexicon_changed / on_release_lexicon: functions called around a swap."""

    def __init__(self, config, game_in_progress, device_id=None,
                 on_lexicon_changed=None, on_release_lexicon=None, logs=LOGS):
        self.config = config
        self._game = game_in_progress
        self.device_id = device_id or unique_id_hex()
        self._changed = on_lexicon_changed
        self._release = on_release_lexicon
        self.logs = logs
        self.lexicon_swaps = 0

    def device_info(self):
        return {"device": self.device_id, "firmware": VERSION}

    def get_config(self):
        return dict(self.config.values)

    def set_config(self, changes):
        return self.config.update(changes)

    def game_in_progress(self):
        return bool(self._game())

    def read_log(self, name, offset, size):
        """Bytes of the named log (rotated generation first) from offset; b"" at the end."""
        files = self.logs[name]
        out = b""
        pos = 0
        for path in files:
            n = _size(path)
            if offset < pos + n and len(out) < size:
                start = max(offset - pos, 0)
                with open(path, "rb") as f:
                    f.seek(start)
                    out += f.read(size - len(out))
            pos += n
        return out

    def release_lexicon(self):
        if self._release:
            self._release()

    def lexicon_changed(self):
        self.lexicon_swaps += 1
        if self._changed:
            self._changed()
