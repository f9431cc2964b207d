# Command dispatch of the host link (docs/link-protocol.md, sections 3 and 5).
#
# LinkHandler(services) answers one request at a time.  `services` is the
# runtime's object (see docs/link-protocol.md, section 5):
#   device_info() -> dict with at least "device" and "firmware"
#   get_config() -> dict
#   set_config(dict) -> (ok, message)
#   game_in_progress() -> bool
#   read_log(name, offset, size) -> bytes (b"" at the end; KeyError: no such log)
#   lexicon_changed() -> None, called after a new list was swapped in
#   release_lexicon() -> None (optional), called just before the swap
#
# The word list sent over the link is link/lexupload.py's; a list esptool wrote into a
# partition, link/lexslot.py's; the firmware update, link/fwupdate.py's (these two
# loaded only when asked).  The message types: link/messages.py.

from micropython import const

from lexicon import slots
from link import imagecheck
from link.common import (LEXICON, LinkError, dump_json, int_field, load_json, pack_u32,
                         reply)
from link.frame import error_payload
from link.lexupload import Upload
from link.messages import (CONFIG_GET, CONFIG_SET, ERROR, FW_ABORT, FW_BEGIN, INFO,
                           LEX_ABORT, LEX_ADOPT, LEX_BEGIN, LEX_CHUNK, LEX_COMMIT, LEX_SLOT,
                           LOG_READ, RESET)

# Payload limits: a chunk of word list data, a piece of a log.
_CHUNK_MAX = const(1024)
_LOG_PIECE = const(1024)


class LinkHandler:
    def __init__(self, services, chunk=_CHUNK_MAX, log_piece=_LOG_PIECE):
        self.services = services
        self.chunk = min(chunk, _CHUNK_MAX)
        self.log_piece = log_piece
        # What the device shows: None, or (phase, done, total) with phase one of
        # "receive", "verify", "done", "failed".
        self.progress = None
        self.upload = Upload(self)     # the word list sent over the link
        self._lex_info = None     # cached header of the list in use
        self.last_adopt = None    # (slot, size, crc) of the last list adopted from a partition
        self.firmware_update = None     # the firmware transfer in progress (link/fwupdate.py)
        self.requests = 0
        self.errors = 0
        self.link = None          # the link's Sender (link/server.py): replies dropped

    # -- dispatch ---------------------------------------------------------------------

    def handle(self, kind, payload):
        """Answer one request.  Returns (type, payload) at once, or a generator that
        yields None while it works (the caller lets other tasks run in between)
        and finally yields (type, payload)."""
        self.requests += 1
        try:
            if kind == INFO:
                self._set_time(payload)
                return reply(kind, dump_json(self.info()))
            if kind == RESET:
                return self._reset(payload)
            if kind == CONFIG_GET:
                return reply(kind, dump_json(self.services.get_config()))
            if kind == CONFIG_SET:
                return self._config_set(payload)
            if kind == LOG_READ:
                return self._log_read(payload)
            if kind == LEX_BEGIN:
                return self.guard(self.upload.begin(payload))
            if kind == LEX_CHUNK:
                return self.upload.chunk(payload)
            if kind == LEX_COMMIT:
                return self.guard(self.upload.commit(payload))
            if kind == LEX_ABORT:
                self.upload.abort()
                return reply(kind, dump_json({"ok": True}))
            if kind == LEX_SLOT or kind == LEX_ADOPT:
                from link import lexslot    # loaded only for clockctl flash-lexicon

                return lexslot.handle(self, kind, payload)
            if FW_BEGIN <= kind <= FW_ABORT:
                from link import fwupdate   # loaded only for a firmware update

                return fwupdate.handle(self, kind, payload)
            raise LinkError("E_TYPE", "unknown request type 0x%02x" % kind)
        except LinkError as e:
            return self.error(e.code, e.msg)
        except Exception as e:
            return self.error("E_INTERNAL", "%s: %s" % (type(e).__name__, e))

    def run(self, kind, payload):
        """handle() run to the end (tests and simple callers)."""
        r = self.handle(kind, payload)
        if isinstance(r, tuple):
            return r
        for item in r:
            if item is not None:
                return item
        return self.error("E_INTERNAL", "no reply")

    def error(self, code, msg):
        self.errors += 1
        return (ERROR, error_payload(code, msg))

    def guard(self, gen):
        """The generator `gen` of a request that works in steps, its exceptions turned
        into error replies."""
        try:
            for item in gen:
                yield item
        except LinkError as e:
            yield self.error(e.code, e.msg)
        except Exception as e:
            yield self.error("E_INTERNAL", "%s: %s" % (type(e).__name__, e))

    def checking(self, steps):
        """Run an image check (link/imagecheck.py's steps), its progress shown: a
        generator that yields None between the steps; returns the checked header."""
        hdr = None
        for item in steps:
            if isinstance(item, tuple):
                self.progress = ("verify", item[0], item[1])
                yield None
            else:
                hdr = item
        return hdr

    # -- info, config, logs -------------------------------------------------------------

    def lexicon_info(self):
        """The header of the list in use (the file, or the partition the selector
        names: "slot"), or None."""
        label = slots.selected()
        if self._lex_info is None:
            if label is None:
                self._lex_info = imagecheck.info(LEXICON) or {}
            else:
                part = slots.partition(label)
                self._lex_info = (imagecheck.info_partition(part) if part else None) or {}
        i = self._lex_info
        if not i:
            return None
        return {"name": i["name"], "version": i["version"], "language": i["language"],
                "crc": i["crc"], "size": i["size"], "words": i["words"], "slot": label}

    def lexicon_changed_now(self, header=None):
        """The list in use changed: forget its header (or take `header`, the one just
        checked: imagecheck's dict), have the runtime open it again."""
        self._lex_info = header
        self.services.lexicon_changed()

    def info(self):
        d = dict(self.services.device_info())
        d["proto"] = 1
        d["game"] = bool(self.services.game_in_progress())
        if "lexicon" not in d:
            d["lexicon"] = self.lexicon_info()
        d["chunk"] = self.chunk
        d["transfer"] = self.upload.transfer()
        d["dropped"] = 0 if self.link is None else self.link.dropped
        return d

    def _set_time(self, payload):
        # INFO may carry the host's wall-clock time: {"time": [Y, M, D, h, m, s]}
        if not payload:
            return
        t = load_json(payload).get("time")
        setter = getattr(self.services, "set_time", None)
        if setter is None or not isinstance(t, list) or len(t) != 6:
            return
        for v in t:
            if not isinstance(v, int) or isinstance(v, bool):
                return
        if 2000 <= t[0] <= 2099:
            setter(t)

    def _reset(self, payload):
        obj = load_json(payload)
        reset = getattr(self.services, "reset_game", None)
        if reset is None:
            raise LinkError("E_TYPE", "this device cannot reset its game over the link")
        ok, msg = reset(obj.get("force") is True)
        if not ok:
            raise LinkError("E_GAME", msg + " (force: end it now)")
        return reply(RESET, dump_json({"ok": True, "msg": msg}))

    def _config_set(self, payload):
        # {"key": value, ...}, plus "next_game": true or "force": true for a change of
        # what the running game needs (services.config_conflict, optional): refused
        # without either, kept for the next game with next_game, and with force the
        # running game is ended first.  The reply's msg says what happened.
        obj = load_json(payload)
        force = obj.pop("force", False) is True
        later = obj.pop("next_game", False) is True
        conflict = getattr(self.services, "config_conflict", None)
        why = conflict(obj) if conflict is not None else ""
        if why:
            if not force and not later:
                raise LinkError("E_GAME", why + " (next_game: set it for the next game; "
                                "force: end the game in progress now)")
            ok, msg = self.services.set_config(obj, force)
        else:
            ok, msg = self.services.set_config(obj)
        if not ok:
            raise LinkError("E_CONFIG", msg or "configuration refused")
        return reply(CONFIG_SET, dump_json({"ok": True, "msg": msg or ""}))

    def _log_read(self, payload):
        obj = load_json(payload)
        name = obj.get("name")
        if not isinstance(name, str):
            raise LinkError("E_ARG", "bad or missing 'name'")
        offset = int_field(obj, "offset")
        try:
            data = self.services.read_log(name, offset, self.log_piece)
        except KeyError:
            raise LinkError("E_LOG", "no log named '%s'" % name)
        return reply(LOG_READ, pack_u32(offset) + bytes(data))

    def refuse_during_game(self, force):
        """LinkError E_GAME while a game runs, unless `force`."""
        if not force and self.services.game_in_progress():
            raise LinkError("E_GAME", "a game is in progress (use force to override)")
