# The word list sent over the link: LEX_BEGIN, LEX_CHUNK, LEX_COMMIT, LEX_ABORT
# (docs/link-protocol.md, section 4).
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

import binascii
import json
import os

from lexicon import slots
from lexicon.reader import forget_record, write_record
from link import imagecheck
from link.common import (LEXICON, VERIFIED, LinkError, chunk_data, dump_json, free_bytes,
                         int_field, load_json, pack_u32, remove, reply)
from link.messages import LEX_BEGIN, LEX_CHUNK, LEX_COMMIT

NEW = "lexicon.new"
JOB = "lexicon.job"

# lexicon.new stays open while chunks arrive and is synced and read back every
# CHECK_BYTES (and at the end): LittleFS copies a file's partly written last block to a
# fresh block (a 4 KB erase, 45 ms on the modules' flash) on every sync or reopen, so
# syncing each 1 KB chunk made the flash, not the link, set the pace (docs/host-tools.md).
# After a reset the upload resumes from the last sync (LEX_BEGIN reads the file's length).
CHECK_BYTES = 65536


def _read_job():
    try:
        with open(JOB) as f:
            return json.loads(f.read())
    except Exception:
        return None


class Upload:
    """The upload of a word list through `handler` (link/handler.py's LinkHandler: its
    chunk size, its services, its `progress`, the header of the list in use)."""

    def __init__(self, handler):
        self.handler = handler
        self._job = None          # {"size", "crc", "have", "run", "force", "checked", "span",
        #                            "slot", "part"}: slot None for the file lexicon.new
        self._out = None          # lexicon.new, open for appending while chunks arrive
        self._last_commit = None  # (size, crc) of the last list swapped in

    def transfer(self):
        """INFO's "transfer": {"have", "size"} of the upload in progress, or None."""
        j = self._job
        return None if j is None else {"have": j["have"], "size": j["size"]}

    def slot(self):
        """The partition the upload in progress writes, or None (none, or the file)."""
        return self._job["slot"] if self._job else None

    def abort(self):
        self._close_new()
        self._job = None
        remove(NEW)
        remove(JOB)
        self.handler.progress = None

    def _close_new(self):
        out, self._out = self._out, None
        if out is not None:
            try:
                out.close()
            except OSError:
                pass

    def _start_job(self, size, crc):
        self._close_new()
        remove(NEW)
        with open(JOB, "w") as f:
            f.write(json.dumps({"size": size, "crc": crc}))
        # An empty lexicon.new marks the start of the file.
        with open(NEW, "wb"):
            pass

    def _fail(self, code, msg):
        # Drop the upload; the old list stays as it is.
        self._close_new()
        self._job = None
        remove(NEW)
        remove(JOB)
        self.handler.progress = ("failed", 0, 0)
        raise LinkError(code, msg)

    # -- LEX_BEGIN --------------------------------------------------------------------

    def begin(self, payload):
        """A generator (yields None while it reads back what it resumes), then the reply."""
        h = self.handler
        obj = load_json(payload)
        size = int_field(obj, "size", 1)
        crc = int_field(obj, "crc")
        force = bool(obj.get("force"))
        restart = bool(obj.get("restart"))
        h.refuse_during_game(force)
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
        h.progress = ("receive", j["have"], size)
        yield reply(LEX_BEGIN, dump_json({"have": j["have"], "crc": j["run"],
                                          "chunk": h.chunk}))

    def _begin_in_file(self, size, crc, restart):
        disk = _read_job()
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
            free = free_bytes()
            if free is not None:
                free += max(imagecheck.file_size(NEW), 0)
                if size > free:
                    raise LinkError("E_SPACE", "image of %d bytes, %d free" % (size, free))
            self._start_job(size, crc)
            have, run = 0, 0
        return have, run

    def _begin_in_slot(self, size, crc, restart):
        from link import lexpart

        point = None if restart else lexpart.resumable(_read_job(), size, crc)
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
        remove(NEW)
        lexpart.save(JOB, size, crc, label, 0)
        return label, part, 0, 0

    # -- LEX_CHUNK --------------------------------------------------------------------

    def chunk(self, payload):
        """The reply to a chunk (at once)."""
        j = self._job
        if j is None:
            raise LinkError("E_STATE", "no transfer in progress (send LEX_BEGIN)")
        if len(payload) < 9:
            raise LinkError("E_ARG", "chunk too short")
        self.handler.refuse_during_game(j.get("force"))
        offset, data = chunk_data(payload, 0, self.handler.chunk)
        n = len(data)
        have = j["have"]
        if offset != have or n == 0:
            # A repeat or a gap: the reply says where to go on.
            return reply(LEX_CHUNK, pack_u32(have))
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
        self.handler.progress = ("receive", j["have"], j["size"])
        return reply(LEX_CHUNK, pack_u32(j["have"]))

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

    # -- LEX_COMMIT -------------------------------------------------------------------

    def commit(self, payload):
        """A generator: yields None while it checks the image, then the reply."""
        h = self.handler
        obj = load_json(payload)
        size = int_field(obj, "size", 1)
        crc = int_field(obj, "crc")
        force = bool(obj.get("force"))
        j = self._job
        if j is None and self._last_commit == (size, crc):
            # The reply to an earlier commit was lost: it is done already.
            yield reply(LEX_COMMIT, dump_json({"ok": True, "lexicon": h.lexicon_info()}))
            return
        if j is None or j["size"] != size or j["crc"] != crc:
            raise LinkError("E_STATE", "no transfer of this image in progress")
        if j["have"] != size:
            raise LinkError("E_STATE", "incomplete: %d of %d bytes" % (j["have"], size))
        h.refuse_during_game(force or j.get("force"))
        if j["checked"] != j["have"]:
            self._check_written(j)
        if j["run"] != crc:
            self._fail("E_VERIFY", "received bytes do not match the announced CRC")
        slot = j["slot"]
        if slot and slot == slots.selected():
            self._fail("E_STATE", "%s holds the list in use now: push again" % slot)
        try:
            if slot:
                # the check LEX_ADOPT makes of a list esptool wrote (link/lexslot.py)
                steps = imagecheck.verify_partition_steps(j["part"], crc, size)
            else:
                steps = imagecheck.verify_steps(NEW, crc, size)
            hdr = yield from h.checking(steps)
        except imagecheck.ImageError as e:
            self._fail("E_VERIFY", "image rejected: %s" % e)
        except OSError as e:
            self._fail("E_VERIFY", "reading %s failed: %s" % (slot or NEW, e))
        except Exception as e:      # anything else: refused, the old list stays
            self._fail("E_VERIFY", "image rejected: %s: %s" % (type(e).__name__, e))
        # The game may have started while the image was being checked.
        h.refuse_during_game(force or j.get("force"))
        release = getattr(h.services, "release_lexicon", None)
        if release:
            release()
        forget_record(VERIFIED)
        if slot:
            try:
                write_record(VERIFIED, hdr["digest"])    # checked in full just now
                slots.select(slot)      # one rename: the partition's list is in use
            except OSError as e:
                h.lexicon_changed_now()
                self._fail("E_WRITE", "switching to %s failed: %s" % (slot, e))
        else:
            try:
                os.rename(NEW, LEXICON)
            except OSError as e:
                h.lexicon_changed_now()
                self._fail("E_WRITE", "swap failed: %s" % e)
            try:
                write_record(VERIFIED, hdr["digest"])    # checked in full just now
            except OSError:
                pass
            slots.select(None)          # the file is the list in use, not a partition's
        remove(JOB)
        self._job = None
        self._last_commit = (size, crc)
        h.progress = ("done", size, size)
        h.lexicon_changed_now(hdr)
        yield reply(LEX_COMMIT, dump_json({"ok": True, "lexicon": h.lexicon_info()}))
