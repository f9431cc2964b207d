# Command dispatch of the host link and the word list transfer
# (docs/link-protocol.md, sections 3 and 4).
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
# The word list arrives in `lexicon.new`; `lexicon.job` remembers what is being
# received (size and CRC of the whole image).  Only a complete file whose CRCs
# match the announced ones and its own header, every page checked, replaces
# `lexicon.dawg`, by one rename; that full check is recorded in `lexicon.ok`, so
# that the runtime opens the new list by its header alone.  Until then the old
# list stays in use.  A list in a word list partition (lexicon/slots.py) is in use
# while the selector names it.  On a clock whose partition table has those partitions
# the upload goes into the one not in use instead of lexicon.new (link/lexpart.py;
# lexicon.job then names it and the bytes read back), is checked there as LEX_ADOPT
# (link/lexslot.py) checks what esptool wrote, and the selector is switched to it; on
# a clock without them the list installed as lexicon.dawg removes the selector.

from micropython import const
import json
import os
import binascii

from lexicon import slots
from lexicon.reader import forget_record, write_record
from link import imagecheck
from link.frame import ERROR, error_payload  # noqa: F401 (the replies' error type, for callers)

INFO = 0x01
CONFIG_GET = 0x02
CONFIG_SET = 0x03
LOG_READ = 0x04
RESET = 0x06         # a fresh game between rounds (0x05 is BAUD, link/server.py)
LEX_BEGIN = 0x10
LEX_CHUNK = 0x11
LEX_COMMIT = 0x12
LEX_ABORT = 0x13
LEX_SLOT = 0x14      # 0x14, 0x15: a list written by esptool into a partition, link/lexslot.py
LEX_ADOPT = 0x15
FW_BEGIN = 0x20      # 0x20-0x23: firmware update, link/fwupdate.py
FW_ABORT = 0x23
REPLY = 0x80

LEXICON = "lexicon.dawg"
NEW = "lexicon.new"
JOB = "lexicon.job"
VERIFIED = "lexicon.ok"      # digest of lexicon.dawg's full check (docs/wordlist-format.md, 6)

# lexicon.new stays open while chunks arrive and is synced and read back every
# CHECK_BYTES (and at the end): LittleFS copies a file's partly written last block to a
# fresh block (a 4 KB erase, 45 ms on the modules' flash) on every sync or reopen, so
# syncing each 1 KB chunk made the flash, not the link, set the pace (docs/host-tools.md).
# After a reset the upload resumes from the last sync (LEX_BEGIN reads the file's length).
CHECK_BYTES = 65536

# Payload limits: a chunk of word list data, a piece of a log.
_CHUNK_MAX = const(1024)
_LOG_PIECE = const(1024)


class LinkError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


def _u32(b, o):
    return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)


def _pack_u32(v):
    return bytes((v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF))


def _unrotate(payload, start, k):
    # Chunk bytes travel rotated by k (byte + k mod 256), k chosen by the host so
    # that few of them need escaping (docs/link-protocol.md, section 4.2).
    if not k:
        return memoryview(payload)[start:]
    data = bytearray(memoryview(payload)[start:])
    k = 256 - k
    for i in range(len(data)):
        data[i] = (data[i] + k) & 0xFF
    return data


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _json(obj):
    return json.dumps(obj).encode()


def _load(payload):
    if not payload:
        return {}
    try:
        obj = json.loads(payload)
    except Exception:
        raise LinkError("E_ARG", "payload is not JSON")
    if not isinstance(obj, dict):
        raise LinkError("E_ARG", "payload is not a JSON object")
    return obj


def _int(obj, key, lo=0, hi=0xFFFFFFFF):
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
        raise LinkError("E_ARG", "bad or missing '%s'" % key)
    return v


class LinkHandler:
    def __init__(self, services, chunk=_CHUNK_MAX, log_piece=_LOG_PIECE):
        self.services = services
        self.chunk = min(chunk, _CHUNK_MAX)
        self.log_piece = log_piece
        # What the device shows: None, or (phase, done, total) with phase one of
        # "receive", "verify", "done", "failed".
        self.progress = None
        self._job = None          # {"size", "crc", "have", "run", "force", "checked", "span",
        #                            "slot", "part"}: slot None for the file lexicon.new
        self._out = None          # lexicon.new, open for appending while chunks arrive
        self._lex_info = None     # cached header of lexicon.dawg
        self._last_commit = None  # (size, crc) of the last list swapped in
        self.last_adopt = None    # (slot, size, crc) of the last list adopted from a partition
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
                return self._reply(kind, _json(self.info()))
            if kind == RESET:
                return self._reset(payload)
            if kind == CONFIG_GET:
                return self._reply(kind, _json(self.services.get_config()))
            if kind == CONFIG_SET:
                return self._config_set(payload)
            if kind == LOG_READ:
                return self._log_read(payload)
            if kind == LEX_BEGIN:
                return self._guard(self._lex_begin(payload))
            if kind == LEX_CHUNK:
                return self._lex_chunk(payload)
            if kind == LEX_COMMIT:
                return self._guard(self._lex_commit(payload))
            if kind == LEX_ABORT:
                self.abort()
                return self._reply(kind, _json({"ok": True}))
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

    def _reply(self, kind, payload):
        return (kind | REPLY, payload)

    def _guard(self, gen):
        # Turn exceptions raised while a generator works into error replies.
        try:
            for item in gen:
                yield item
        except LinkError as e:
            yield self.error(e.code, e.msg)
        except Exception as e:
            yield self.error("E_INTERNAL", "%s: %s" % (type(e).__name__, e))

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

    def lexicon_changed_now(self):
        """The list in use changed: forget its header, have the runtime open it again."""
        self._lex_info = None
        self.services.lexicon_changed()

    def info(self):
        d = dict(self.services.device_info())
        d["proto"] = 1
        d["game"] = bool(self.services.game_in_progress())
        if "lexicon" not in d:
            d["lexicon"] = self.lexicon_info()
        d["chunk"] = self.chunk
        j = self._job
        d["transfer"] = None if j is None else {"have": j["have"], "size": j["size"]}
        d["dropped"] = 0 if self.link is None else self.link.dropped
        return d

    def _set_time(self, payload):
        # INFO may carry the host's wall-clock time: {"time": [Y, M, D, h, m, s]}
        if not payload:
            return
        t = _load(payload).get("time")
        setter = getattr(self.services, "set_time", None)
        if setter is None or not isinstance(t, list) or len(t) != 6:
            return
        for v in t:
            if not isinstance(v, int) or isinstance(v, bool):
                return
        if 2000 <= t[0] <= 2099:
            setter(t)

    def _reset(self, payload):
        obj = _load(payload)
        reset = getattr(self.services, "reset_game", None)
        if reset is None:
            raise LinkError("E_TYPE", "this device cannot reset its game over the link")
        ok, msg = reset(obj.get("force") is True)
        if not ok:
            raise LinkError("E_GAME", msg + " (force: end it now)")
        return self._reply(RESET, _json({"ok": True, "msg": msg}))

    def _config_set(self, payload):
        # {"key": value, ...}, plus "next_game": true or "force": true for a change of
        # what the running game needs (services.config_conflict, optional): refused
        # without either, kept for the next game with next_game, and with force the
        # running game is ended first.  The reply's msg says what happened.
        obj = _load(payload)
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
        return self._reply(CONFIG_SET, _json({"ok": True, "msg": msg or ""}))

    def _log_read(self, payload):
        obj = _load(payload)
        name = obj.get("name")
        if not isinstance(name, str):
            raise LinkError("E_ARG", "bad or missing 'name'")
        offset = _int(obj, "offset")
        try:
            data = self.services.read_log(name, offset, self.log_piece)
        except KeyError:
            raise LinkError("E_LOG", "no log named '%s'" % name)
        return self._reply(LOG_READ, _pack_u32(offset) + bytes(data))

    # -- word list transfer -------------------------------------------------------------

    def _refuse_during_game(self, force):
        if not force and self.services.game_in_progress():
            raise LinkError("E_GAME", "a game is in progress (use force to override)")

    def _read_job(self):
        try:
            with open(JOB) as f:
                return json.loads(f.read())
        except Exception:
            return None

    def _close_new(self):
        out, self._out = self._out, None
        if out is not None:
            try:
                out.close()
            except OSError:
                pass

    def _start_job(self, size, crc):
        self._close_new()
        _remove(NEW)
        with open(JOB, "w") as f:
            f.write(json.dumps({"size": size, "crc": crc}))
        # An empty lexicon.new marks the start of the file.
        with open(NEW, "wb"):
            pass

    def _free_bytes(self):
        try:
            st = os.statvfs(".")
            return st[0] * st[4]
        except Exception:
            return None

    def _lex_begin(self, payload):
        obj = _load(payload)
        size = _int(obj, "size", 1)
        crc = _int(obj, "crc")
        force = bool(obj.get("force"))
        restart = bool(obj.get("restart"))
        self._refuse_during_game(force)
        j = self._job
        if restart or j is None or j["size"] != size or j["crc"] != crc:
            self._close_new()
            label = part = None
            if slots.partition(slots.LABELS[0]) is not None:
                label, part, have, run = yield from self._begin_in_slot(size, crc, restart)
            else:
                have, run = yield from self._begin_in_file(size, crc, restart)
            j = {"size": size, "crc": crc, "have": have, "run": run, "checked": have, "span": 0,
                 "slot": label, "part": part}
            self._job = j
        j["force"] = force
        self.progress = ("receive", j["have"], size)
        yield self._reply(LEX_BEGIN, _json({"have": j["have"], "crc": j["run"],
                                            "chunk": self.chunk}))

    def _begin_in_file(self, size, crc, restart):
        disk = self._read_job()
        have = imagecheck.file_size(NEW)
        if (not restart and disk and disk.get("size") == size and disk.get("crc") == crc
                and 0 <= have <= size):
            # Resume what an earlier session (or boot) left in lexicon.new.
            run = 0
            for item in imagecheck.prefix_crc_steps(NEW, have):
                if item is None:
                    yield None
                else:
                    run = item
        else:
            free = self._free_bytes()
            if free is not None:
                free += max(imagecheck.file_size(NEW), 0)
                if size > free:
                    raise LinkError("E_SPACE", "image of %d bytes, %d free" % (size, free))
            self._start_job(size, crc)
            have, run = 0, 0
        return have, run

    def _begin_in_slot(self, size, crc, restart):
        from link import lexpart

        point = None if restart else lexpart.resumable(self._read_job(), size, crc)
        if point:
            # Resume what an earlier boot left in the partition, from a sector start.
            label, have = point
            part = slots.partition(label)
            run = 0
            for item in lexpart.crc_steps(part, 0, have):
                if item is None:
                    yield None
                else:
                    run = item
            return label, part, have, run
        label = slots.free_slot()
        part = slots.partition(label)
        if part is None:
            raise LinkError("E_SLOT", "this clock's partition table has no %s partition" % label)
        room = lexpart.capacity(part)
        if size > room:
            raise LinkError("E_SPACE", "image of %d bytes, the %s partition holds %d"
                            % (size, label, room))
        _remove(NEW)
        lexpart.save(JOB, size, crc, label, 0)
        return label, part, 0, 0

    def _fail(self, code, msg):
        # Drop the upload; the old list stays as it is.
        self._close_new()
        self._job = None
        _remove(NEW)
        _remove(JOB)
        self.progress = ("failed", 0, 0)
        raise LinkError(code, msg)

    def _lex_chunk(self, payload):
        j = self._job
        if j is None:
            raise LinkError("E_STATE", "no transfer in progress (send LEX_BEGIN)")
        if len(payload) < 9:
            raise LinkError("E_ARG", "chunk too short")
        self._refuse_during_game(j.get("force"))
        offset = _u32(payload, 0)
        ccrc = _u32(payload, 4)
        data = _unrotate(payload, 9, payload[8])
        n = len(data)
        if n > self.chunk:
            raise LinkError("E_ARG", "chunk of %d bytes, at most %d" % (n, self.chunk))
        if binascii.crc32(data) & 0xFFFFFFFF != ccrc:
            raise LinkError("E_CHUNK", "chunk checksum mismatch at %d" % offset)
        have = j["have"]
        if offset != have or n == 0:
            # A repeat or a gap: the reply says where to go on.
            return self._reply(LEX_CHUNK, _pack_u32(have))
        if offset + n > j["size"]:
            raise LinkError("E_ARG", "chunk ends past the announced size")
        try:
            if j["slot"]:
                from link import lexpart

                lexpart.write(j["slot"], j["part"], have, data)
            else:
                if self._out is None:
                    self._out = open(NEW, "ab")
                if self._out.write(data) != n:
                    raise OSError("short write")
        except OSError as e:
            self._fail("E_WRITE", "writing %s failed: %s" % (j["slot"] or NEW, e))
        j["have"] = have + n
        j["run"] = binascii.crc32(data, j["run"]) & 0xFFFFFFFF
        j["span"] = binascii.crc32(data, j["span"]) & 0xFFFFFFFF
        if j["have"] - j["checked"] >= CHECK_BYTES or j["have"] == j["size"]:
            self._check_written(j)
        self.progress = ("receive", j["have"], j["size"])
        return self._reply(LEX_CHUNK, _pack_u32(j["have"]))

    def _check_written(self, j):
        """Sync lexicon.new and read back what came since the last check."""
        self._close_new()
        start, end = j["checked"], j["have"]
        if j["slot"]:
            self._check_slot(j, start, end)
            return
        buf = bytearray(512)
        crc = 0
        try:
            with open(NEW, "rb") as f:
                f.seek(start)
                left = end - start
                while left > 0:
                    got = f.readinto(memoryview(buf)[:min(left, len(buf))])
                    if not got:
                        break
                    crc = binascii.crc32(memoryview(buf)[:got], crc)
                    left -= got
        except OSError as e:
            self._fail("E_WRITE", "reading back lexicon.new failed: %s" % e)
        if left or crc & 0xFFFFFFFF != j["span"]:
            self._fail("E_WRITE", "read-back of lexicon.new differs between %d and %d"
                       % (start, end))
        j["checked"] = end
        j["span"] = 0

    def _check_slot(self, j, start, end):
        # Read back the partition since the last check, then record the progress.
        from link import lexpart

        try:
            if lexpart.crc_of(j["part"], start, end) != j["span"]:
                self._fail("E_WRITE", "read-back of %s differs between %d and %d"
                           % (j["slot"], start, end))
            lexpart.save(JOB, j["size"], j["crc"], j["slot"], end)
        except OSError as e:
            self._fail("E_WRITE", "reading back %s failed: %s" % (j["slot"], e))
        j["checked"] = end
        j["span"] = 0

    def _lex_commit(self, payload):
        obj = _load(payload)
        size = _int(obj, "size", 1)
        crc = _int(obj, "crc")
        force = bool(obj.get("force"))
        j = self._job
        if j is None and self._last_commit == (size, crc):
            # The reply to an earlier commit was lost: it is done already.
            yield self._reply(LEX_COMMIT, _json({"ok": True, "lexicon": self.lexicon_info()}))
            return
        if j is None or j["size"] != size or j["crc"] != crc:
            raise LinkError("E_STATE", "no transfer of this image in progress")
        if j["have"] != size:
            raise LinkError("E_STATE", "incomplete: %d of %d bytes" % (j["have"], size))
        self._refuse_during_game(force or j.get("force"))
        if j["checked"] != j["have"]:
            self._check_written(j)
        if j["run"] != crc:
            self._fail("E_VERIFY", "received bytes do not match the announced CRC")
        slot = j["slot"]
        if slot and slot == slots.selected():
            self._fail("E_STATE", "%s holds the list in use now: push again" % slot)
        hdr = None
        try:
            if slot:
                # the check LEX_ADOPT makes of a list esptool wrote (link/lexslot.py)
                steps = imagecheck.verify_partition_steps(j["part"], crc, size)
            else:
                steps = imagecheck.verify_steps(NEW, crc, size)
            for item in steps:
                if isinstance(item, tuple):
                    self.progress = ("verify", item[0], item[1])
                    yield None
                else:
                    hdr = item
        except imagecheck.ImageError as e:
            self._fail("E_VERIFY", "image rejected: %s" % e)
        except OSError as e:
            self._fail("E_VERIFY", "reading %s failed: %s" % (slot or NEW, e))
        except Exception as e:      # anything else: refused, the old list stays
            self._fail("E_VERIFY", "image rejected: %s: %s" % (type(e).__name__, e))
        # The game may have started while the image was being checked.
        self._refuse_during_game(force or j.get("force"))
        release = getattr(self.services, "release_lexicon", None)
        if release:
            release()
        forget_record(VERIFIED)
        if slot:
            try:
                write_record(VERIFIED, hdr["digest"])    # checked in full just now
                slots.select(slot)      # one rename: the partition's list is in use
            except OSError as e:
                self._lex_info = None
                self.services.lexicon_changed()
                self._fail("E_WRITE", "switching to %s failed: %s" % (slot, e))
        else:
            try:
                os.rename(NEW, LEXICON)
            except OSError as e:
                self._lex_info = None
                self.services.lexicon_changed()
                self._fail("E_WRITE", "swap failed: %s" % e)
            try:
                write_record(VERIFIED, hdr["digest"])    # checked in full just now
            except OSError:
                pass
            slots.select(None)          # the file is the list in use, not a partition's
        _remove(JOB)
        self._job = None
        self._lex_info = hdr
        self._last_commit = (size, crc)
        self.progress = ("done", size, size)
        self.services.lexicon_changed()
        yield self._reply(LEX_COMMIT, _json({"ok": True, "lexicon": self.lexicon_info()}))

    def push_slot(self):
        """The partition the upload in progress writes, or None (none, or the file)."""
        return self._job["slot"] if self._job else None

    def abort(self):
        self._close_new()
        self._job = None
        _remove(NEW)
        _remove(JOB)
        self.progress = None
