# The firmware update over the link (link/fwupdate.py), driven through the link
# handler as the host drives it, on a device folder laid out as clockctl provisions
# the reference board: boot.py, fw/slot naming fw/a, the data files beside.  The
# power-cut test cuts at every change the update makes to the filesystem, in turn, and
# checks what boot.py then starts: one whole firmware, the old or the new.

import binascii
import json
import os

import runtime_rig
from link import fwupdate
from link.handler import LinkHandler
from link.messages import ERROR, FW_BEGIN, FW_CHUNK, FW_COMMIT, REPLY

BOOT = None
OLD = {"app/__init__.mpy": b"M\x06old app" * 9, "clock/engine.mpy": b"M\x06old clock" * 40,
       "version.mpy": b"M\x06v0.1", "lib/ssd1306.mpy": b"M\x06driver" * 7}
NEW = {"app/__init__.mpy": b"M\x06new app" * 11, "clock/engine.mpy": b"M\x06new clock" * 35,
       "version.mpy": b"M\x06v0.2", "lib/ssd1306.mpy": b"M\x06driver" * 7,
       "link/fwupdate.mpy": b"M\x06more" * 300}
DATA = {"config.json": b'{"lang": "pl"}', "lexicon.dawg": b"TCLX list bytes",
        "logs/games.jsonl": b'{"seq": 0}\n'}


class Services:
    def __init__(self):
        self.game = False

    def game_in_progress(self):
        return self.game


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _boot_source():
    here = os.getcwd() if not __file__.startswith("/") else __file__.rsplit("/", 1)[0]
    with open(here + "/../../firmware/boot.py") as f:
        return f.read()


def _provisioned():
    """A fresh device folder as clockctl writes it, as the current directory."""
    global BOOT
    if BOOT is None:
        BOOT = _boot_source()
    runtime_rig.fresh_dir()
    for name in ("fw", "fw/a", "fw/a/app", "fw/a/clock", "fw/a/lib", "logs"):
        os.mkdir(name)
    for path, data in OLD.items():
        _write("fw/a/" + path, data)
    for path, data in DATA.items():
        _write(path, data)
    _write("fw/slot", b"a")
    _write("boot.py", BOOT.encode())


def _listing(files):
    return [[p, len(files[p]), binascii.crc32(files[p]) & 0xFFFFFFFF] for p in sorted(files)]


def _ok(reply, kind):
    assert reply[0] == kind | REPLY, reply
    return reply[1]


def _chunk(index, offset, data):
    crc = binascii.crc32(data) & 0xFFFFFFFF
    head = bytes((index & 0xFF, index >> 8)) + offset.to_bytes(4, "little") + crc.to_bytes(4, "little")
    return head + b"\x00" + data        # rotation 0: the bytes as they are


def _update(h, files, chunk=100, restart=False, force=False):
    listing = _listing(files)
    _ok(h.run(FW_BEGIN, json.dumps({"files": listing, "version": "0.2",
                                             "force": force}).encode()), FW_BEGIN)
    for i, (path, size, _crc) in enumerate(listing):
        data = files[path]
        for at in range(0, size, chunk):
            r = _ok(h.run(FW_CHUNK, _chunk(i, at, data[at:at + chunk])),
                    FW_CHUNK)
            assert int.from_bytes(r, "little") == min(size, at + chunk)
    return h.run(FW_COMMIT, json.dumps({"files": listing, "restart": restart}).encode())


def _tree(folder):
    out = {}
    for name in os.listdir(folder):
        path = folder + "/" + name
        if os.stat(path)[0] & 0x4000:
            for rel, data in _tree(path).items():
                out[name + "/" + rel] = data
        else:
            out[name] = _read(path)
    return out


def _booted_slot():
    """The folder boot.py puts first on the module path, as it runs at start-up."""
    import sys

    saved = list(sys.path)
    try:
        exec(BOOT, {"__name__": "__main__"})
        return sys.path[0] if sys.path != saved else None
    finally:
        sys.path[:] = saved


def _data_untouched():
    for path, data in DATA.items():
        assert _read(path) == data, path


def test_an_update_fills_the_other_slot_and_switches_with_one_rename():
    _provisioned()
    try:
        h = LinkHandler(Services())
        reply = json.loads(_ok(_update(h, NEW), FW_COMMIT))
        assert reply == {"ok": True, "slot": "b", "version": "0.2", "restart": False}
        assert _read("fw/slot") == b"b" and _booted_slot() == "fw/b"
        assert _tree("fw/b") == NEW and _tree("fw/a") == OLD
        _data_untouched()
        # and back: the next update goes to slot a, replacing what was there
        _ok(_update(h, OLD), FW_COMMIT)
        assert _booted_slot() == "fw/a" and _tree("fw/a") == OLD and _tree("fw/b") == NEW
    finally:
        runtime_rig.leave()


def test_bad_requests_leave_the_firmware_as_it_is():
    _provisioned()
    try:
        h = LinkHandler(Services())

        def error(kind, payload):
            r = h.run(kind, payload)
            assert r[0] == ERROR, r
            return json.loads(r[1])["code"]

        for bad in ([["../boot.mpy", 1, 0]], [["/main.mpy", 1, 0]], [["a/./b.mpy", 1, 0]],
                    [["app.py", 1, 0]], [], [["x.mpy", -1, 0]], "files"):
            assert error(FW_BEGIN, json.dumps({"files": bad}).encode()) == "E_ARG"
        assert error(FW_CHUNK, _chunk(0, 0, b"x")) == "E_STATE"
        listing = _listing(NEW)
        _ok(h.run(FW_BEGIN, json.dumps({"files": listing}).encode()), FW_BEGIN)
        damaged = bytearray(_chunk(0, 0, b"abc"))
        damaged[-1] ^= 1
        assert error(FW_CHUNK, bytes(damaged)) == "E_CHUNK"
        assert error(FW_CHUNK, _chunk(9, 0, b"abc")) == "E_ARG"
        assert error(FW_COMMIT, json.dumps({"files": listing}).encode()) == "E_STATE"
        assert _booted_slot() == "fw/a" and _tree("fw/a") == OLD
        _data_untouched()
    finally:
        runtime_rig.leave()


def test_a_file_that_did_not_reach_the_flash_intact_is_caught_at_the_commit():
    _provisioned()
    try:
        h = LinkHandler(Services())
        listing = _listing(NEW)
        _ok(h.run(FW_BEGIN, json.dumps({"files": listing}).encode()), FW_BEGIN)
        for i, (path, size, _crc) in enumerate(listing):
            for at in range(0, size, 1000):
                _ok(h.run(FW_CHUNK, _chunk(i, at, NEW[path][at:at + 1000])),
                    FW_CHUNK)
        data = bytearray(_read("fw/b/clock/engine.mpy"))
        data[5] ^= 0x40                  # what the flash holds differs from what arrived
        _write("fw/b/clock/engine.mpy", bytes(data))
        r = h.run(FW_COMMIT, json.dumps({"files": listing}).encode())
        assert r[0] == ERROR and json.loads(r[1])["code"] == "E_VERIFY", r
        assert _read("fw/slot") == b"a" and _booted_slot() == "fw/a"
    finally:
        runtime_rig.leave()


def test_refused_during_a_game_unless_forced_and_on_a_board_without_slots():
    _provisioned()
    try:
        services = Services()
        services.game = True
        h = LinkHandler(services)
        r = h.run(FW_BEGIN, json.dumps({"files": _listing(NEW)}).encode())
        assert json.loads(r[1])["code"] == "E_GAME"
        _ok(_update(h, NEW, force=True), FW_COMMIT)
        assert _booted_slot() == "fw/b"
        # firmware in ROMFS (the lean target): nothing to switch
        os.remove("fw/slot")
        r = LinkHandler(Services()).run(FW_BEGIN,
                                        json.dumps({"files": _listing(NEW)}).encode())
        assert json.loads(r[1])["code"] == "E_LAYOUT"
    finally:
        runtime_rig.leave()


class PowerCut(BaseException):   # not caught by the handler, as a power loss is not
    pass


_REAL = {}


def _cut_at(k, counter):
    """Replace fwupdate's filesystem changes by ones that cut the power at the k-th:
    a write is torn (half of it reaches the flash), anything else does not happen."""
    if not _REAL:
        for name in ("_mkdir", "_rmdir", "_unlink", "_write", "_append", "_rename"):
            _REAL[name] = getattr(fwupdate, name)

    def wrap(name):
        real = _REAL[name]

        def step(*args):
            counter[0] += 1
            if counter[0] == k:
                if name in ("_write", "_append") and len(args[1]) > 1:
                    real(args[0], args[1][:len(args[1]) // 2])
                raise PowerCut()
            return real(*args)
        return step

    for name in _REAL:
        setattr(fwupdate, name, wrap(name))


def _restore():
    for name, func in _REAL.items():
        setattr(fwupdate, name, func)


def test_a_power_cut_at_any_change_leaves_the_old_or_the_new_firmware():
    # count the changes of a whole update first, then cut at each of them in turn
    _provisioned()
    counter = [0]
    try:
        _cut_at(-1, counter)
        _ok(_update(LinkHandler(Services()), NEW), FW_COMMIT)
    finally:
        _restore()
        runtime_rig.leave()
    total = counter[0]
    assert total > 10
    outcomes = {"fw/a": 0, "fw/b": 0}
    for k in range(1, total + 1):
        _provisioned()
        try:
            counter[0] = 0
            _cut_at(k, counter)
            try:
                reply = _update(LinkHandler(Services()), NEW)
                assert reply[0] == ERROR, (k, reply)   # the cut surfaced as an error reply
            except PowerCut:
                pass
            _restore()
            slot = _booted_slot()                      # the clock starts again
            assert slot in outcomes, (k, slot)
            assert _tree(slot) == (OLD if slot == "fw/a" else NEW), (k, slot)
            _data_untouched()
            outcomes[slot] += 1
            if slot == "fw/a":                         # and a new attempt goes through
                _ok(_update(LinkHandler(Services()), NEW), FW_COMMIT)
                assert _booted_slot() == "fw/b" and _tree("fw/b") == NEW
        finally:
            _restore()
            runtime_rig.leave()
    # every cut but the last ones (after the switch) leaves the old firmware
    assert outcomes["fw/a"] > 0 and outcomes["fw/a"] + outcomes["fw/b"] == total
