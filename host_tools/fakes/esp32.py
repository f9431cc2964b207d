# A fake of the ESP32 port's `esp32` module for the unix port of MicroPython
# (and CPython): NVS and flash partitions backed by files in the simulated
# device's folder (sim_device.device_dir()).  See docs/fakes.md.
# The partitions are in esp32_flash.py, loaded on first use (below).

import json
import os

import sim_device

from binascii import hexlify as _hexlify
from binascii import unhexlify as _unhexlify

HEAP_DATA = 4
HEAP_EXEC = 1
WAKEUP_ALL_LOW = False
WAKEUP_ANY_HIGH = True

# ESP-IDF error codes, raised as OSError(-code, name) like the port does (the port
# does not export them: private names here).
_ESP_ERR_INVALID_ARG = 0x102
_ESP_ERR_INVALID_SIZE = 0x104
_ESP_ERR_NVS_NOT_FOUND = 0x1102
_ESP_ERR_NVS_TYPE_MISMATCH = 0x1103
_ESP_ERR_NVS_INVALID_NAME = 0x1106
_ESP_ERR_NVS_KEY_TOO_LONG = 0x1109
_ESP_ERR_NVS_INVALID_LENGTH = 0x110C
_ERR_NAMES = {
    _ESP_ERR_INVALID_ARG: "ESP_ERR_INVALID_ARG",
    _ESP_ERR_INVALID_SIZE: "ESP_ERR_INVALID_SIZE",
    _ESP_ERR_NVS_NOT_FOUND: "ESP_ERR_NVS_NOT_FOUND",
    _ESP_ERR_NVS_TYPE_MISMATCH: "ESP_ERR_NVS_TYPE_MISMATCH",
    _ESP_ERR_NVS_INVALID_NAME: "ESP_ERR_NVS_INVALID_NAME",
    _ESP_ERR_NVS_KEY_TOO_LONG: "ESP_ERR_NVS_KEY_TOO_LONG",
    _ESP_ERR_NVS_INVALID_LENGTH: "ESP_ERR_NVS_INVALID_LENGTH",
}


def _esp_err(code):
    return OSError(-code, _ERR_NAMES.get(code, "ESP_FAIL"))


def raw_temperature():
    """The ESP32's internal sensor, in degrees Fahrenheit (as the chip reports)."""
    return 128


def idf_heap_info(capabilities):
    return [(113840, 83000, 65536, 78000)]


# ---------------------------------------------------------------------------
# NVS: one file (nvs.json) in the device folder.  Every set_*/erase_key is on flash
# when it returns, as on the chip: ESP-IDF's nvs_set_* write the entry at once and
# nvs_commit() is a no-op ("no-op for now, to be used when intermediate cache is
# added", components/nvs_flash/src/nvs_api.cpp; NVSHandleSimple::commit() returns
# ESP_OK), which the port's NVS.commit() calls (ports/esp32/esp32_nvs.c:126-132).
# The file is replaced by rename, so a power cut leaves the old or the new value.

_NVS_FILE = "nvs.json"
_NVS_KEY_MAX = 15
_nvs = {"data": None}


def _nvs_path():
    return sim_device.path_in_device(_NVS_FILE)


def _nvs_load():
    if _nvs["data"] is None:
        data = {}
        try:
            with open(_nvs_path()) as f:
                data = json.load(f)
        except OSError:
            pass
        except ValueError:
            data = {}  # a torn file cannot happen (rename), but never crash on it
        _nvs["data"] = data
    return _nvs["data"]


def _nvs_store():
    path = _nvs_path()
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps(_nvs["data"]))
    os.rename(tmp, path)


def sim_nvs_forget():
    """Drop the in-memory copy (as a power cut does): the next access reads the
    file again.  Nothing is lost: every set_* was stored when it returned."""
    _nvs["data"] = None


class NVS:
    def __init__(self, namespace):
        if not isinstance(namespace, str) or not 0 < len(namespace) <= _NVS_KEY_MAX:
            raise _esp_err(_ESP_ERR_NVS_INVALID_NAME)
        self._ns = namespace

    def _table(self):
        return _nvs_load().setdefault(self._ns, {})

    def _check_key(self, key):
        if len(key) > _NVS_KEY_MAX:
            raise _esp_err(_ESP_ERR_NVS_KEY_TOO_LONG)
        if not key:
            raise _esp_err(_ESP_ERR_NVS_INVALID_NAME)

    def _get(self, key, kind):
        self._check_key(key)
        entry = self._table().get(key)
        if entry is None:
            raise _esp_err(_ESP_ERR_NVS_NOT_FOUND)
        if entry[0] != kind:
            raise _esp_err(_ESP_ERR_NVS_TYPE_MISMATCH)
        return entry[1]

    def set_i32(self, key, value):
        self._check_key(key)
        if not -0x80000000 <= value <= 0x7FFFFFFF:
            raise OverflowError("overflow converting long int to machine word")
        self._table()[key] = ["i32", value]
        _nvs_store()

    def get_i32(self, key):
        return self._get(key, "i32")

    def set_blob(self, key, value):
        self._check_key(key)
        self._table()[key] = ["blob", _hexlify(bytes(value)).decode()]
        _nvs_store()

    def get_blob(self, key, buffer):
        data = _unhexlify(self._get(key, "blob"))
        if len(buffer) < len(data):
            raise _esp_err(_ESP_ERR_NVS_INVALID_LENGTH)
        buffer[0:len(data)] = data
        return len(data)

    def erase_key(self, key):
        self._check_key(key)
        table = self._table()
        if key not in table:
            raise _esp_err(_ESP_ERR_NVS_NOT_FOUND)
        del table[key]
        _nvs_store()

    def commit(self):
        # A no-op in ESP-IDF (see above): the values are on flash already.
        pass


# ---------------------------------------------------------------------------
# Deep sleep wake-up sources (ports/esp32/modesp32.c, v1.26.0): ext0 on the
# ESP32 and the ESP32-S3 (SOC_PM_SUPPORT_EXT0_WAKEUP), one RTC-capable pin
# (modesp32.h RTC_VALID_EXT_PINS); pin None switches it off.  machine.deepsleep()
# reads what was set here (sim_wake_ext0).

_RTC_EXT_PINS = {
    "esp32": (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39),
    "esp32s3": tuple(range(22)),
}
_ext0 = [None]


def wake_on_ext0(pin, level):
    if pin is None:
        _ext0[0] = None
        return
    gpio = pin if isinstance(pin, int) else pin._id       # a Pin or its number, as the port
    import machine

    if gpio not in _RTC_EXT_PINS[machine.sim_chip()]:
        raise ValueError("invalid pin")
    _ext0[0] = (gpio, bool(level))


def sim_wake_ext0():
    """(gpio, level) of the ext0 wake-up source, or None."""
    return _ext0[0]


# Flash partitions (Partition, sim_partition_file, the partition table) live in
# esp32_flash.py, imported on first use.
_LAZY = ("Partition", "sim_partition_file", "sim_flash_timing")


def __getattr__(name):
    if name in _LAZY:
        import esp32_flash

        return getattr(esp32_flash, name)
    raise AttributeError(name)
