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

# MICROPY_HW_BOARD_NAME of the lean target's image (boards/TILECLOCK_WROOM/mpconfigboard.h)
BOARD_NAME_WROOM = "Tileclock ESP32-WROOM"

KIB = 1024
MIB = 1024 * 1024

# The least filesystem a clock is provisioned with once the word list partitions are
# placed: settings, the game and challenge logs (two generations of 32 KB each) and room
# for a small list sent over the link.
MIN_FILESYSTEM = 192 * KIB

TARGETS = {
    # Reference board: ESP32-S3 module with PSRAM (N8R2 / N16R8) on the stock image.
    "s3": {
        "chip": "esp32s3",
        "board": "ESP32_GENERIC_S3",
        "image": "stock",           # the official download, unchanged
        "psram": True,              # the MicroPython heap lives in PSRAM
        "code": "littlefs",         # firmware .mpy files in the filesystem, loaded into the heap
        "hwconfig": "hwconfig.py",  # firmware/ file that becomes hwconfig on the device
        "hall": True,               # publishes to the hall (docs/hall.md)
        "link": "usb-cdc",          # native USB: no UART baud limit
        "stubs": "micropython-esp32-esp32_generic_s3-stubs",
        # The stock images this target accepts, by the board name in their banner
        # (MICROPY_HW_BOARD_NAME), and the PSRAM each drives: the plain image quad PSRAM
        # (sdkconfig.spiram_sx), the SPIRAM_OCT variant octal PSRAM (sdkconfig.spiram_oct).
        "images": {
            "Generic ESP32S3 module": {"variant": "ESP32_GENERIC_S3", "psram": "quad"},
            "Generic ESP32S3 module with Octal-SPIRAM": {
                "variant": "ESP32_GENERIC_S3-SPIRAM_OCT", "psram": "octal"},
        },
        # The modules, by the in-package PSRAM esptool reads from the eFuses ("Embedded
        # PSRAM 2MB"): the N8R2's ESP32-S3R2 has 2 MB of quad PSRAM, the N16R8's
        # ESP32-S3R8 8 MB of octal PSRAM.
        "modules": {2 * MIB: ("N8R2", "quad"), 8 * MIB: ("N16R8", "octal")},
        "flash_size": 8 * MIB,      # the smallest module's flash (N8R2), for `clockctl image`
        # The MicroPython heap: a first area of MICROPY_GC_INITIAL_HEAP_SIZE, then new
        # areas from the system heap (PSRAM) as needed, each doubling the total
        # (MICROPY_GC_SPLIT_HEAP_AUTO).  The smallest module has 2 MB of PSRAM.
        "heap_initial": 64 * KIB,
        "heap_max": 2 * MIB,
        "fw_dir": "fw",             # firmware slots fw/a, fw/b on the filesystem (boot.py)
        # Each of the word list's two partitions, lexa and lexb, after the firmware's own
        # (host_tools/partitions.with_lexicon_slots): 1 MB, the Polish list (750 KB) and room
        # to grow; the filesystem keeps 4 MB on an N8R2.
        "lexicon_slot": 0x100000,
        "summary": "ESP32-S3 N8R2 with the stock ESP32_GENERIC_S3 image, N16R8 with its "
                   "SPIRAM_OCT variant",
    },
    # Lean alternative for clubs that own one: ESP32-WROOM-32E without PSRAM.
    "wroom": {
        "chip": "esp32",
        "board": "TILECLOCK_WROOM",
        "image": "custom",          # built from boards/TILECLOCK_WROOM (docs/targets.md)
        "psram": False,
        "code": "frozen",           # the firmware frozen into the image, run from flash
        "hwconfig": "hwconfig_wroom.py",
        "hall": False,              # no room for the hall's publisher (docs/hall.md, Memory)
        "link": "uart",             # the USB-UART bridge on UART0
        "baud": 115200,
        "stubs": "micropython-esp32-esp32_generic-stubs",
        # The board name boards/TILECLOCK_WROOM/mpconfigboard.h gives the image; a stock
        # ESP32_GENERIC image ("Generic ESP32 module") has no firmware in it.
        "images": {
            BOARD_NAME_WROOM: {"variant": "TILECLOCK_WROOM", "psram": None},
        },
        "stock_board": "Generic ESP32 module",
        "modules": {},
        "flash_size": 4 * MIB,
        # The heap the chip gives the game (56 KB at start, growing from internal RAM;
        # docs/targets.md), modelled as a fixed 96 KB: the GC benchmark's heap.  The memory
        # test holds the whole game to 80 KB of it (tests/host/test_memory_wroom.py).
        "heap_initial": 96 * KIB,
        "heap_max": 96 * KIB,
        # 800 KB per word list partition: the Polish list (750 KB) fits; after the 2.06 MB
        # factory app the filesystem keeps 320 KB (settings, logs: no code, no list).
        "lexicon_slot": 0xC8000,
        "summary": "ESP32-WROOM-32E with the TILECLOCK_WROOM image, the firmware frozen "
                   "in it (docs/targets.md)",
    },
}


def version_text(version=MIN_MICROPYTHON):
    return ".".join(str(part) for part in version)


def target(name):
    """The entry of `name`, or ValueError naming the targets there are."""
    try:
        return TARGETS[name]
    except KeyError:
        raise ValueError("unknown target %r: %s" % (name, ", ".join(sorted(TARGETS)))) from None


def supported_text():
    """What each target takes (for error messages)."""
    return "; ".join("--target %s: %s, MicroPython v%s or later"
                     % (name, t["summary"], version_text()) for name, t in sorted(TARGETS.items()))
