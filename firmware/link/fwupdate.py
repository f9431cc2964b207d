# Firmware update over the link (docs/link-protocol.md, section 4a).
#
# The firmware's files live in a slot folder, fw/a or fw/b; fw/slot names the one
# boot.py puts on the module path.  An update writes the other slot only: FW_BEGIN
# empties it, FW_CHUNK appends checked pieces to its files, FW_COMMIT reads every file
# back against the sizes and CRC-32s announced at FW_BEGIN and then switches by
# renaming a new fw/slot over the old one.  A cut before that rename leaves the old
# firmware in use (and the half-written slot is emptied by the next FW_BEGIN); after
# it, the new one.  Config, logs and the word list are outside fw/ and never touched.
# The running firmware keeps running from its slot until the restart that follows a
# commit.  Loaded by the handler only for these requests.

from micropython import const
import binascii
import os

from link.common import (LinkError, chunk_data, dump_json, free_bytes, load_json, pack_u32,
                         reply)
from link.messages import FW_ABORT, FW_BEGIN, FW_CHUNK, FW_COMMIT

FW_DIR = "fw"
SLOT_FILE = "fw/slot"
SLOTS = ("a", "b")
_RESTART_MS = const(300)        # the reply to a commit leaves before the restart


# Every change to the filesystem goes through the six functions below (the power-cut
# test, tests/firmware/test_link_fwupdate.py, cuts the power at each one in turn).

def _mkdir(path):
    os.mkdir(path)


def _rmdir(path):
    os.rmdir(path)


def _unlink(path):
    os.remove(path)


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _append(path, data):
    with open(path, "ab") as f:
        f.write(data)


def _rename(old, new):
    os.rename(old, new)


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _is_dir(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0
    except OSError:
        return False


def _remove_tree(path):
    if _is_dir(path):
        for name in os.listdir(path):
            _remove_tree(path + "/" + name)
        _rmdir(path)
    elif _exists(path):
        _unlink(path)


def _makedirs(path):
    built = ""
    for part in path.split("/"):
        built = part if not built else built + "/" + part
        if not _is_dir(built):
            _mkdir(built)


def current_slot():
    """The slot fw/slot names, or None (firmware in ROMFS, or not installed by slot)."""
    try:
        with open(SLOT_FILE) as f:
            slot = f.read().strip()
    except OSError:
        return None
    return slot if slot in SLOTS else None


def _check_path(path):
    # Only module files below the slot: no absolute paths, no climbing out of it.
    if not isinstance(path, str) or not path.endswith(".mpy") or path.startswith("/"):
        return False
    for part in path.split("/"):
        if part in ("", ".", ".."):
            return False
    return True


def _manifest(obj):
    files = obj.get("files")
    if not isinstance(files, list) or not files:
        raise LinkError("E_ARG", "bad or missing 'files'")
    out = []
    for item in files:
        if (not isinstance(item, list) or len(item) != 3 or not _check_path(item[0])
                or not isinstance(item[1], int) or not isinstance(item[2], int)
                or item[1] < 0 or item[2] < 0):
            raise LinkError("E_ARG", "bad file entry %r" % (item,))
        out.append((item[0], item[1], item[2]))
    return out


def _crc_file(path):
    crc = 0
    size = 0
    buf = bytearray(512)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            crc = binascii.crc32(memoryview(buf)[:n], crc)
            size += n
    return size, crc & 0xFFFFFFFF


def _restart_soon():
    # Leave time for the reply to go out; the runtime saves a game after every
    # event, so the restart recovers one that was forced through.
    import asyncio

    async def later():
        await asyncio.sleep_ms(_RESTART_MS)
        import machine

        machine.reset()

    asyncio.create_task(later())


class Update:
    """One transfer: the manifest and how far each file has come."""

    def __init__(self, files, slot, version, force):
        self.files = files                  # [(path, size, crc)]
        self.slot = slot
        self.version = version
        self.force = force
        self.have = [0] * len(files)
        self.run = [0] * len(files)

    def path(self, i):
        return "%s/%s/%s" % (FW_DIR, self.slot, self.files[i][0])


def _begin(handler, payload):
    obj = load_json(payload)
    files = _manifest(obj)
    force = bool(obj.get("force"))
    handler.refuse_during_game(force)
    current = current_slot()
    if current is None:
        raise LinkError("E_LAYOUT", "this clock's firmware is not in a filesystem slot "
                        "(frozen into its image: write a new image with clockctl flash)")
    slot = SLOTS[1] if current == SLOTS[0] else SLOTS[0]
    total = 0
    for item in files:
        total += item[1]
    target = "%s/%s" % (FW_DIR, slot)
    try:
        _remove_tree(target)        # what an earlier, unfinished update left
    except OSError as e:
        raise LinkError("E_WRITE", "emptying slot %s failed: %s" % (slot, e))
    free = free_bytes()
    if free is not None and total + 16 * 4096 > free:   # + room for LittleFS metadata
        raise LinkError("E_SPACE", "firmware of %d bytes, %d free" % (total, free))
    try:
        _makedirs(target)
        made = {}
        for path, _size, _crc in files:
            folder = path.rpartition("/")[0]
            if folder and folder not in made:
                _makedirs(target + "/" + folder)
                made[folder] = True
            _write(target + "/" + path, b"")
    except OSError as e:
        raise LinkError("E_WRITE", "preparing slot %s failed: %s" % (slot, e))
    version = obj.get("version")
    handler.firmware_update = Update(files, slot, version if isinstance(version, str) else "",
                                     force)
    return reply(FW_BEGIN, dump_json({"slot": slot, "from": current, "chunk": handler.chunk}))


def _chunk(handler, payload):
    u = handler.firmware_update
    if u is None:
        raise LinkError("E_STATE", "no firmware transfer in progress (send FW_BEGIN)")
    if len(payload) < 11:
        raise LinkError("E_ARG", "chunk too short")
    handler.refuse_during_game(u.force)
    index = payload[0] | (payload[1] << 8)
    if index >= len(u.files):
        raise LinkError("E_ARG", "no file %d" % index)
    offset, data = chunk_data(payload, 2, handler.chunk)
    n = len(data)
    have = u.have[index]
    if offset != have or n == 0:
        return reply(FW_CHUNK, pack_u32(have))     # a repeat or a gap
    if offset + n > u.files[index][1]:
        raise LinkError("E_ARG", "chunk ends past the file's size")
    try:
        _append(u.path(index), data)
    except OSError as e:
        handler.firmware_update = None
        raise LinkError("E_WRITE", "writing %s failed: %s" % (u.files[index][0], e))
    u.have[index] = have + n
    u.run[index] = binascii.crc32(data, u.run[index]) & 0xFFFFFFFF
    return reply(FW_CHUNK, pack_u32(u.have[index]))


def _commit(handler, payload):
    obj = load_json(payload)
    u = handler.firmware_update
    if u is None:
        raise LinkError("E_STATE", "no firmware transfer in progress")
    if _manifest(obj) != u.files:
        raise LinkError("E_STATE", "the commit names other files than FW_BEGIN")
    for i in range(len(u.files)):
        if u.have[i] != u.files[i][1]:
            raise LinkError("E_STATE", "incomplete: %s has %d of %d bytes"
                            % (u.files[i][0], u.have[i], u.files[i][1]))
    handler.refuse_during_game(u.force or bool(obj.get("force")))
    # Read every file back from the filesystem: what counts is what a restart loads.
    for i in range(len(u.files)):
        path, size, crc = u.files[i]
        try:
            got = _crc_file(u.path(i))
        except OSError as e:
            handler.firmware_update = None
            raise LinkError("E_VERIFY", "reading back %s failed: %s" % (path, e))
        if got != (size, crc):
            handler.firmware_update = None
            raise LinkError("E_VERIFY", "%s differs from what was sent" % path)
        yield None
    # The switch: a complete fw/slot.tmp, then one rename over fw/slot.
    try:
        _write(SLOT_FILE + ".tmp", u.slot.encode())
        try:
            _rename(SLOT_FILE + ".tmp", SLOT_FILE)
        except OSError:
            # A filesystem that does not rename over a file: boot.py reads the
            # complete .tmp while fw/slot is missing.
            _unlink(SLOT_FILE)
            _rename(SLOT_FILE + ".tmp", SLOT_FILE)
    except OSError as e:
        raise LinkError("E_WRITE", "switching to slot %s failed: %s" % (u.slot, e))
    handler.firmware_update = None
    restart = obj.get("restart", True) is not False
    done = {"ok": True, "slot": u.slot, "version": u.version, "restart": restart}
    if restart:
        _restart_soon()
    yield reply(FW_COMMIT, dump_json(done))


def handle(handler, kind, payload):
    """The reply to a firmware request (a tuple, or a generator for FW_COMMIT)."""
    if kind == FW_BEGIN:
        return _begin(handler, payload)
    if kind == FW_CHUNK:
        return _chunk(handler, payload)
    if kind == FW_COMMIT:
        return handler.guard(_commit(handler, payload))
    handler.firmware_update = None
    return reply(FW_ABORT, b'{"ok": true}')
