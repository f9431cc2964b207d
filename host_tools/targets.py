"""The boards a clock can be built on, and what each needs from its MicroPython image.

One table, read by the image builder, `clockctl flash`, the static check of the firmware
(the stubs of each board's port at the oldest accepted version) and the simulator.  The
facts behind each entry, with the MicroPython source lines, are in docs/targets.md.

Standard library only: the bootstrap reads it before anything is installed.
"""

# The oldest MicroPython release `clockctl flash` accepts on any target; the static check
# uses the stubs of this version, so that the firmware names only what it has.
MIN_MICROPYTHON = (1, 26, 0)

DEFAULT_TARGET = "s3"

TARGETS = {
    # Reference board: ESP32-S3 module with PSRAM (N8R2 / N16R8) on the stock image.
    "s3": {
        "chip": "esp32s3",
        "board": "ESP32_GENERIC_S3",
        "image": "stock",           # the official download, unchanged
        "psram": True,              # the MicroPython heap lives in PSRAM
        "code": "littlefs",         # firmware .mpy files in the filesystem, loaded into the heap
        "hwconfig": "hwconfig.py",  # firmware/ file that becomes hwconfig on the device
        "link": "usb-cdc",          # native USB: no UART baud limit
        "stubs": "micropython-esp32-esp32_generic_s3-stubs",
    },
    # Lean alternative for clubs that own one: ESP32-WROOM-32E without PSRAM.
    "wroom": {
        "chip": "esp32",
        "board": "ESP32_GENERIC",
        "image": "custom",          # built with ROMFS enabled (docs/targets.md)
        "psram": False,
        "code": "romfs",            # firmware .mpy files in a ROMFS partition, run in place
        "hwconfig": "hwconfig_wroom.py",
        "link": "uart",             # the USB-UART bridge on UART0
        "baud": 115200,
        "stubs": "micropython-esp32-esp32_generic-stubs",
    },
}


def version_text(version=MIN_MICROPYTHON):
    return ".".join(str(part) for part in version)
