# A fake of the ESP32 port's `esp32` module for the unix port of MicroPython
# (and CPython): NVS and flash partitions backed by files in the simulated
# device's folder (sim_device.device_dir()).  See docs/fakes.md.

import json
import os

import sim_device

try:
    from binascii import hexlify, unhexlify
except ImportError:  # pragma: no cover
    from ubinascii import hexlify, unhexlify

HEAP_DATA = 4
HEAP_EXEC = 1
WAKEUP_ALL_LOW = False
WAKEUP_ANY_HIGH = True

# ESP-IDF error codes, raised as OSError(-code, name) like the port does.
ESP_ERR_INVALID_ARG = 0x102
ESP_ERR_INVALID_SIZE = 0x104
ESP_ERR_NVS_NOT_FOUND = 0x1102
ESP_ERR_NVS_TYPE_MISMATCH = 0x1103
ESP_ERR_NVS_INVALID_NAME = 0x1106
ESP_ERR_NVS_KEY_TOO_LONG = 0x1109
ESP_ERR_NVS_INVALID_LENGTH = 0x110C
_ERR_NAMES = {
    ESP_ERR_INVALID_ARG: "ESP_ERR_INVALID_ARG",
    ESP_ERR_INVALID_SIZE: "ESP_ERR_INVALID_SIZE",
    ESP_ERR_NVS_NOT_FOUND: "ESP_ERR_NVS_NOT_FOUND",
    ESP_ERR_NVS_TYPE_MISMATCH: "ESP_ERR_NVS_TYPE_MISMATCH",
    ESP_ERR_NVS_INVALID_NAME: "ESP_ERR_NVS_INVALID_NAME",
    ESP_ERR_NVS_KEY_TOO_LONG: "ESP_ERR_NVS_KEY_TOO_LONG",
    ESP_ERR_NVS_INVALID_LENGTH: "ESP_ERR_NVS_INVALID_LENGTH",
}


def _esp_err(code):
    return OSError(-code, _ERR_NAMES.get(code, "ESP_FAIL"))


def raw_temperature():
    """The ESP32's internal sensor, in degrees Fahrenheit (as the chip reports)."""
    return 128


def idf_heap_info(capabilities):
    return [(113840, 83000, 65536, 78000)]


# ---------------------------------------------------------------------------
# NVS: one file (nvs.json) in the device folder, written atomically on commit.

NVS_FILE = "nvs.json"
_NVS_KEY_MAX = 15
_nvs = {"committed": None, "live": None}


def _nvs_path():
    return sim_device.path_in_device(NVS_FILE)


def _nvs_load():
    if _nvs["committed"] is None:
        data = {}
        try:
            with open(_nvs_path()) as f:
                data = json.load(f)
        except OSError:
            pass
        except ValueError:
            data = {}  # a torn file cannot happen (rename), but never crash on it
        _nvs["committed"] = data
        live = {}
        for ns in data:
            live[ns] = dict(data[ns])
        _nvs["live"] = live
    return _nvs["live"]


def sim_nvs_forget():
    """Drop the in-memory NVS state (as a power cut does): the next access
    reads the file again.  Uncommitted changes are lost."""
    _nvs["committed"] = None
    _nvs["live"] = None


class NVS:
    def __init__(self, namespace):
        if not isinstance(namespace, str) or not 0 < len(namespace) <= _NVS_KEY_MAX:
            raise _esp_err(ESP_ERR_NVS_INVALID_NAME)
        self._ns = namespace

    def _table(self):
        return _nvs_load().setdefault(self._ns, {})

    def _check_key(self, key):
        if len(key) > _NVS_KEY_MAX:
            raise _esp_err(ESP_ERR_NVS_KEY_TOO_LONG)
        if not key:
            raise _esp_err(ESP_ERR_NVS_INVALID_NAME)

    def _get(self, key, kind):
        self._check_key(key)
        entry = self._table().get(key)
        if entry is None:
            raise _esp_err(ESP_ERR_NVS_NOT_FOUND)
        if entry[0] != kind:
            raise _esp_err(ESP_ERR_NVS_TYPE_MISMATCH)
        return entry[1]

    def set_i32(self, key, value):
        self._check_key(key)
        if not -0x80000000 <= value <= 0x7FFFFFFF:
            raise OverflowError("overflow converting long int to machine word")
        self._table()[key] = ["i32", value]

    def get_i32(self, key):
        return self._get(key, "i32")

    def set_blob(self, key, value):
        self._check_key(key)
        self._table()[key] = ["blob", hexlify(bytes(value)).decode()]

    def get_blob(self, key, buffer):
        data = unhexlify(self._get(key, "blob"))
        if len(buffer) < len(data):
            raise _esp_err(ESP_ERR_NVS_INVALID_LENGTH)
        buffer[0:len(data)] = data
        return len(data)

    def erase_key(self, key):
        self._check_key(key)
        table = self._table()
        if key not in table:
            raise _esp_err(ESP_ERR_NVS_NOT_FOUND)
        del table[key]

    def commit(self):
        live = _nvs_load()
        committed = _nvs["committed"]
        committed[self._ns] = dict(live.get(self._ns, {}))
        path = _nvs_path()
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(json.dumps(committed))
        os.rename(tmp, path)


# ---------------------------------------------------------------------------
# Flash partitions: the device folder's partitions.csv (ESP-IDF format) or the
# MicroPython ESP32 default table; each data partition is a file
# flash-<label>.bin, read as 0xFF (erased) where it has not been written.

_BLOCK = 4096
_TYPES = {"app": 0, "data": 1}
_SUBTYPES = {"factory": 0x00, "ota_0": 0x10, "ota_1": 0x11, "ota": 0x00, "phy": 0x01,
             "nvs": 0x02, "coredump": 0x03, "nvs_keys": 0x04, "efuse": 0x05,
             "undefined": 0x06, "esphttpd": 0x80, "fat": 0x81, "spiffs": 0x82,
             "littlefs": 0x83}
DEFAULT_TABLE = (
    ("nvs", 1, 0x02, 0x9000, 0x6000),
    ("phy_init", 1, 0x01, 0xF000, 0x1000),
    ("factory", 0, 0x00, 0x10000, 0x1F0000),
    ("vfs", 1, 0x81, 0x200000, 0x200000),
)
PARTITION_CSV = "partitions.csv"


def _num(text):
    text = text.strip().lower()
    if text.endswith("k"):
        return _num(text[:-1]) * 1024
    if text.endswith("m"):
        return _num(text[:-1]) * 1024 * 1024
    return int(text, 16) if text.startswith("0x") else int(text)


def _table():
    path = sim_device.path_in_device(PARTITION_CSV)
    if not sim_device.file_exists(path):
        return DEFAULT_TABLE
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
            raise _esp_err(ESP_ERR_INVALID_SIZE)

    def _read(self, offset, buf):
        n = len(buf)
        mv = memoryview(buf)
        got = 0
        path = self._path()
        if sim_device.file_exists(path):
            with open(path, "rb") as f:
                f.seek(offset)
                got = f.readinto(mv) or 0
        for i in range(got, n):
            mv[i] = 0xFF

    def _write_raw(self, offset, data):
        path = self._path()
        if not sim_device.file_exists(path):
            with open(path, "wb"):
                pass
        with open(path, "r+b") as f:
            end = f.seek(0, 2)
            if end < offset:
                f.write(b"\xff" * (offset - end))
            f.seek(offset)
            f.write(data)

    def readblocks(self, block_num, buf, offset=0):
        start = block_num * self._bs + offset
        self._check_range(start, len(buf))
        self._read(start, buf)

    def writeblocks(self, block_num, buf, offset=None):
        start = block_num * self._bs
        data = bytes(buf)
        if offset is None:
            # A simple write: the port erases the range first.
            if len(data) % _BLOCK or start % _BLOCK:
                raise _esp_err(ESP_ERR_INVALID_SIZE)
            self._check_range(start, len(data))
            self._write_raw(start, data)
            return
        start += offset
        self._check_range(start, len(data))
        # NOR flash: programming can only clear bits.
        old = bytearray(len(data))
        self._read(start, old)
        for i in range(len(data)):
            old[i] &= data[i]
        self._write_raw(start, old)

    def erase(self, block_num, count=1):
        start = block_num * self._bs
        self._check_range(start, count * self._bs)
        self._write_raw(start, b"\xff" * (count * self._bs))

    def ioctl(self, cmd, arg=None):
        if cmd in (1, 2, 3):  # init, deinit, sync
            return 0
        if cmd == 4:
            return self._row[4] // self._bs
        if cmd == 5:
            return self._bs
        if cmd == 6:
            self.erase(arg)
            return 0
        return None

    def set_boot(self):
        if self._row[1] != 0:
            raise _esp_err(ESP_ERR_INVALID_ARG)

    def get_next_update(self):
        raise OSError(2, "ENOENT")

    @classmethod
    def mark_app_valid_cancel_rollback(cls):
        pass
