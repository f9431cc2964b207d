# The flash partitions of the `esp32` fake (see esp32.py): esp32.Partition and
# sim_partition_file.  esp32's module __getattr__ imports this module on the
# first use of those names, so a run that never opens a partition keeps them
# out of the heap.

import os

import sim_device
from esp32 import sim_esp_error


# ---------------------------------------------------------------------------
# Flash partitions: the device folder's partitions.csv (ESP-IDF format) or the
# MicroPython ESP32 default table; each data partition is a file
# flash-<label>.bin, read as 0xFF (erased) where it has not been written.

_BLOCK = 4096

# Time the SPI NOR flash takes, charged when TILECLOCK_FLASH_TIMING is set (the push
# benchmark): typical figures of the Winbond W25Q-JV family used on ESP32 modules
# (W25Q128JV datasheet, AC electrical characteristics: tSE sector erase (4 KB) 45 ms
# typical, 400 ms max; tPP page program 0.4 ms typical, 3 ms max; 256-byte pages).
# Reads at 80 MHz QIO are not charged (about 40 MB/s).
_T_SECTOR_ERASE_US = 45000
_T_PAGE_PROGRAM_US = 400
_PAGE = 256
_timing = [None]
# The chip erases and programs from C without taking heap; the fake works through these
# two page buffers, made once at import (they count with the chip's share of the heap),
# so that the memory tests see no allocation the chip would not make.
_ERASED = b"\xff" * _PAGE
_SCRATCH = bytearray(_PAGE)


def _charge(us):
    if _timing[0] is None:
        _timing[0] = bool(os.getenv("TILECLOCK_FLASH_TIMING"))
    if _timing[0]:
        import time

        time.sleep_us(us) if hasattr(time, "sleep_us") else time.sleep(us / 1e6)


def _program_time(start, length):
    pages = (start + length + _PAGE - 1) // _PAGE - start // _PAGE
    return pages * _T_PAGE_PROGRAM_US


def _write_at(f, offset, data):
    """data at offset of the open file f, erased bytes (0xFF) filling any gap before it."""
    end = f.seek(0, 2)
    while end < offset:
        end += f.write(memoryview(_ERASED)[:min(_PAGE, offset - end)])
    f.seek(offset)
    f.write(data)


def sim_flash_timing(on):
    """Charge the flash's erase and program times (or not)."""
    _timing[0] = bool(on)
_TYPES = {"app": 0, "data": 1}
_SUBTYPES = {"factory": 0x00, "ota_0": 0x10, "ota_1": 0x11, "ota": 0x00, "phy": 0x01,
             "nvs": 0x02, "coredump": 0x03, "nvs_keys": 0x04, "efuse": 0x05,
             "undefined": 0x06, "esphttpd": 0x80, "fat": 0x81, "spiffs": 0x82,
             "littlefs": 0x83}
_DEFAULT_TABLE = (
    ("nvs", 1, 0x02, 0x9000, 0x6000),
    ("phy_init", 1, 0x01, 0xF000, 0x1000),
    ("factory", 0, 0x00, 0x10000, 0x1F0000),
    ("vfs", 1, 0x81, 0x200000, 0x200000),
)
_PARTITION_CSV = "partitions.csv"


def _num(text):
    text = text.strip().lower()
    if text.endswith("k"):
        return _num(text[:-1]) * 1024
    if text.endswith("m"):
        return _num(text[:-1]) * 1024 * 1024
    return int(text, 16) if text.startswith("0x") else int(text)


def _table():
    path = sim_device.path_in_device(_PARTITION_CSV)
    if not sim_device.file_exists(path):
        return _DEFAULT_TABLE
    rows = []
    offset = 0x9000
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            cells = [c.strip() for c in line.split(",")]
            name, ptype, sub = cells[0], cells[1], cells[2]
            ptype = _TYPES[ptype] if ptype in _TYPES else _num(ptype)
            sub = _SUBTYPES[sub] if sub in _SUBTYPES else _num(sub)
            if len(cells) > 3 and cells[3]:
                offset = _num(cells[3])
            elif ptype == 0 and offset % 0x10000:
                offset += 0x10000 - offset % 0x10000
            size = _num(cells[4])
            rows.append((name, ptype, sub, offset, size))
            offset += size
    return tuple(rows)


def sim_partition_file(label):
    return sim_device.path_in_device("flash-" + label + ".bin")


class Partition:
    BOOT = 0
    RUNNING = 1
    TYPE_APP = 0
    TYPE_DATA = 1

    def __init__(self, id, block_size=_BLOCK):
        row = None
        for r in _table():
            if (isinstance(id, str) and r[0] == id) or (id in (0, 1) and r[1] == 0
                                                        and not isinstance(id, str)):
                row = r
                break
        if row is None:
            raise OSError(2, "ENOENT")  # ENOENT
        if block_size < 1 or block_size & (block_size - 1):
            raise ValueError("invalid block size")
        self._row = row
        self._bs = block_size

    @staticmethod
    def find(type=TYPE_APP, subtype=0xFF, label=None):
        found = []
        for r in _table():
            if r[1] != type:
                continue
            if subtype != 0xFF and r[2] != subtype:
                continue
            if label is not None and r[0] != label:
                continue
            found.append(Partition(r[0]))
        return found

    def info(self):
        name, ptype, sub, addr, size = self._row
        return (ptype, sub, addr, size, name, False)

    def __repr__(self):
        name, ptype, sub, addr, size = self._row
        return "<Partition type=%d, subtype=%d, address=%d, size=%d, label=%s, encrypted=0>" % (
            ptype, sub, addr, size, name)

    def _path(self):
        return sim_partition_file(self._row[0])

    def _check_range(self, offset, length):
        if offset < 0 or offset + length > self._row[4]:
            raise sim_esp_error("ESP_ERR_INVALID_SIZE")

    def _read(self, offset, buf):
        n = len(buf)
        f = getattr(self, "_f", None)
        if f is None:
            path = self._path()
            if sim_device.file_exists(path):
                f = open(path, "r+b")
                self._f = f
        got = 0
        if f is not None:
            f.seek(offset)
            got = f.readinto(buf) or 0
        if got < n:
            mv = memoryview(buf)
            for i in range(got, n):
                mv[i] = 0xFF

    def _write_raw(self, offset, data):
        f = getattr(self, "_f", None)
        if f is not None:
            _write_at(f, offset, data)
            f.flush()
            return
        path = self._path()
        if not sim_device.file_exists(path):
            with open(path, "wb"):
                pass
        with open(path, "r+b") as f:
            _write_at(f, offset, data)

    def readblocks(self, block_num, buf, offset=0):
        start = block_num * self._bs + offset
        self._check_range(start, len(buf))
        self._read(start, buf)

    def writeblocks(self, block_num, buf, offset=None):
        start = block_num * self._bs
        n = len(buf)
        if offset is None:
            # A simple write: the port erases the range first.
            if n % _BLOCK or start % _BLOCK:
                raise sim_esp_error("ESP_ERR_INVALID_SIZE")
            self._check_range(start, n)
            _charge(n // _BLOCK * _T_SECTOR_ERASE_US + _program_time(start, n))
            self._write_raw(start, buf)
            return
        start += offset
        self._check_range(start, n)
        _charge(_program_time(start, n))
        # NOR flash: programming can only clear bits; a page at a time through _SCRATCH.
        src = memoryview(buf)
        for at in range(0, n, _PAGE):
            k = min(_PAGE, n - at)
            old = memoryview(_SCRATCH)[:k]
            self._read(start + at, old)
            for i in range(k):
                old[i] &= src[at + i]
            self._write_raw(start + at, old)

    def _erase(self, block_num):
        # ioctl(6): one 4 KB sector (esp_partition_erase_range, esp32_partition.c:264-270)
        start = block_num * self._bs
        self._check_range(start, self._bs)
        _charge(_T_SECTOR_ERASE_US)
        for at in range(start, start + self._bs, _PAGE):
            self._write_raw(at, _ERASED)

    def ioctl(self, cmd, arg=None):
        if cmd in (1, 2, 3):  # init, deinit, sync
            return 0
        if cmd == 4:
            return self._row[4] // self._bs
        if cmd == 5:
            return self._bs
        if cmd == 6:
            self._erase(arg)
            return 0
        return None

    def set_boot(self):
        if self._row[1] != 0:
            raise sim_esp_error("ESP_ERR_INVALID_ARG")

    def get_next_update(self):
        raise OSError(2, "ENOENT")

    @classmethod
    def mark_app_valid_cancel_rollback(cls):
        pass
