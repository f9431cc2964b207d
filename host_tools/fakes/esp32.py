# A fake of the ESP32 port's `esp32` module for the unix port of MicroPython
# (and CPython): NVS and flash partitions backed by files in the simulated
# device's folder (sim_device.device_dir()).  See docs/fakes.md.
# The partitions are in esp32_flash.py, loaded on first use (below).

import os
import struct

import sim_device


HEAP_DATA = 4
HEAP_EXEC = 1
WAKEUP_ALL_LOW = False
WAKEUP_ANY_HIGH = True

# ESP-IDF error codes by name, raised as OSError(-code, name) as the port raises them
# (sim_esp_error; the port exports no such names: the table is private, the function a
# sim_ name for the flash's fake, esp32_flash.py).
_ESP_ERRORS = {
    "ESP_ERR_INVALID_ARG": 0x102,
    "ESP_ERR_INVALID_SIZE": 0x104,
    "ESP_ERR_NVS_NOT_FOUND": 0x1102,
    "ESP_ERR_NVS_TYPE_MISMATCH": 0x1103,
    "ESP_ERR_NVS_INVALID_NAME": 0x1106,
    "ESP_ERR_NVS_KEY_TOO_LONG": 0x1109,
    "ESP_ERR_NVS_INVALID_LENGTH": 0x110C,
}


def sim_esp_error(name):
    """The OSError the port raises for the ESP-IDF error `name` ("ESP_ERR_INVALID_SIZE")."""
    return OSError(-_ESP_ERRORS[name], name)


def raw_temperature():
    """The ESP32's internal sensor, in degrees Fahrenheit (as the chip reports)."""
    return 128


def idf_heap_info(capabilities):
    return [(113840, 83000, 65536, 78000)]


# ---------------------------------------------------------------------------
# NVS: one file per entry in the device folder's nvs/.  Every set_*/erase_key is on flash
# when it returns, as on the chip: ESP-IDF's nvs_set_* write the entry at once and
# nvs_commit() is a no-op ("no-op for now, to be used when intermediate cache is
# added", components/nvs_flash/src/nvs_api.cpp; NVSHandleSimple::commit() returns
# ESP_OK), which the port's NVS.commit() calls (ports/esp32/esp32_nvs.c:126-132).
# An entry's file is replaced by rename, so a power cut leaves the old or the new value.

_NVS_DIR = "nvs"           # one file per entry: <namespace>.<key>, its kind, then its value
_NVS_KEY_MAX = 15
_KIND_I32 = b"I"
_KIND_BLOB = b"B"


def _nvs_path(ns, key):
    return sim_device.path_in_device(_NVS_DIR + "/" + ns + "." + key)


def _nvs_write(path, kind, value):
    # Durable when set_* returns, as the chip's nvs_set_* (written to flash at once):
    # a temporary file renamed over the entry.  The value is written from the caller's
    # buffer as it is: NVS is C on the chip and takes nothing from the MicroPython heap,
    # so the fake keeps its own allocations small too.
    try:
        os.mkdir(sim_device.path_in_device(_NVS_DIR))
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(kind)
        f.write(value)
    os.rename(tmp, path)


def sim_nvs_forget():
    """A power cut: nothing is kept in memory (every set_* was on flash when it returned,
    each get_* reads it), so there is nothing to drop."""


class NVS:
    def __init__(self, namespace):
        if not isinstance(namespace, str) or not 0 < len(namespace) <= _NVS_KEY_MAX:
            raise sim_esp_error("ESP_ERR_NVS_INVALID_NAME")
        self._ns = namespace

    def _check_key(self, key):
        if len(key) > _NVS_KEY_MAX:
            raise sim_esp_error("ESP_ERR_NVS_KEY_TOO_LONG")
        if not key:
            raise sim_esp_error("ESP_ERR_NVS_INVALID_NAME")

    def _open(self, key, kind):
        """The entry's file, positioned at its value, and the value's length."""
        self._check_key(key)
        path = _nvs_path(self._ns, key)
        try:
            size = os.stat(path)[6] - 1
            f = open(path, "rb")
        except OSError:
            raise sim_esp_error("ESP_ERR_NVS_NOT_FOUND") from None
        if f.read(1) != kind:
            f.close()
            raise sim_esp_error("ESP_ERR_NVS_TYPE_MISMATCH")
        return f, size

    def set_i32(self, key, value):
        self._check_key(key)
        if not -0x80000000 <= value <= 0x7FFFFFFF:
            raise OverflowError("overflow converting long int to machine word")
        _nvs_write(_nvs_path(self._ns, key), _KIND_I32, struct.pack("<i", value))

    def get_i32(self, key):
        f, _ = self._open(key, _KIND_I32)
        with f:
            return struct.unpack("<i", f.read(4))[0]

    def set_blob(self, key, value):
        self._check_key(key)
        _nvs_write(_nvs_path(self._ns, key), _KIND_BLOB, value)

    def get_blob(self, key, buffer):
        f, size = self._open(key, _KIND_BLOB)
        with f:
            if len(buffer) < size:
                raise sim_esp_error("ESP_ERR_NVS_INVALID_LENGTH")
            if size:
                f.readinto(memoryview(buffer)[:size])
        return size

    def erase_key(self, key):
        self._check_key(key)
        try:
            os.remove(_nvs_path(self._ns, key))
        except OSError:
            raise sim_esp_error("ESP_ERR_NVS_NOT_FOUND") from None

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
    import machine

    gpio = machine.sim_pin_id(pin)       # a Pin or its number, as the port takes
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
