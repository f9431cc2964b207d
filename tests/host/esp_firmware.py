"""MicroPython firmware .bin files in the real format, made with esptool's own commands.

No chip and no download here, so the tests make what micropython.org ships: an ELF
file with the sections an ESP-IDF application has (the app descriptor first in the
flash-mapped data, read-only data holding MicroPython's banner, code in IRAM and in
flash), turned into an application image by `esptool elf2image`, a bootloader image
the same way, the partition table of the port's CSV, and the three joined by
`esptool merge-bin` at the chip's offsets (firmware.bin of ports/esp32).

    firmware(kind, cache_dir) -> Path of a cached .bin
    KINDS: "s3" (ESP32_GENERIC_S3 v1.26.0), "s3-oct" (its SPIRAM_OCT variant),
           "wroom" (TILECLOCK_WROOM: the firmware frozen in it, its names in the image as
           frozen_content.c has them), "wroom-old" (the same, one module short),
           "esp32-stock" (ESP32_GENERIC),
           "s3-old" (ESP32_GENERIC_S3 v1.25.0), "c3" (another chip)
"""

from __future__ import annotations

import hashlib
import os
import struct
import subprocess
import sys
from pathlib import Path

from host_tools import image, partitions
from host_tools.partitions import Partition
from host_tools.targets import BOARD_NAME_WROOM

# Memory map of each chip (ESP-IDF soc/soc.h): where flash-mapped data (DROM) and
# code (IROM), internal RAM code (IRAM) and data (DRAM) live.
MEMORY = {
    "esp32": {"drom": 0x3F400020, "irom": 0x400D0020, "iram": 0x40080000, "dram": 0x3FFB0000,
              "boot_iram": 0x40078000, "boot_dram": 0x3FFF0000, "boot_at": 0x1000},
    "esp32s3": {"drom": 0x3C000020, "irom": 0x42000020, "iram": 0x40378000, "dram": 0x3FC88000,
                "boot_iram": 0x403C8700, "boot_dram": 0x3FCEB700, "boot_at": 0x0},
    "esp32c3": {"drom": 0x3C000020, "irom": 0x42000020, "iram": 0x40380000, "dram": 0x3FC7C000,
                "boot_iram": 0x403CE000, "boot_dram": 0x3FCD5000, "boot_at": 0x0},
}
EM_XTENSA, EM_RISCV = 0x5E, 0xF3

# The port's partition tables (ports/esp32/partitions-*.csv at v1.26.0).
TABLE_4MIB_PLUS = [
    Partition("nvs", 1, 0x02, 0x9000, 0x6000),
    Partition("phy_init", 1, 0x01, 0xF000, 0x1000),
    Partition("factory", 0, 0x00, 0x10000, 0x1F0000),
]
TABLE_4MIB_ROMFS = [
    Partition("nvs", 1, 0x02, 0x9000, 0x6000),
    Partition("phy_init", 1, 0x01, 0xF000, 0x1000),
    Partition("factory", 0, 0x00, 0x10000, 0x1D0000),
    Partition("romfs", 1, 0x8F, 0x1E0000, 0x20000),
]

# The lean target's own table (boards/TILECLOCK_WROOM/partitions-tileclock.csv), read
# from the file its board definition builds into the image.
BOARD_TABLE = Path(__file__).resolve().parents[2] / "boards" / "TILECLOCK_WROOM" / \
    "partitions-tileclock.csv"
_TYPES = {"app": 0, "data": 1}
_SUBTYPES = {"factory": 0x00, "nvs": 0x02, "phy": 0x01, "fat": 0x81}


def read_csv(path: Path) -> list[Partition]:
    """An ESP-IDF partition CSV with explicit offsets (what gen_esp32part.py reads)."""
    parts = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, kind, sub, offset, size = [f.strip() for f in line.split(",")[:5]]
        parts.append(Partition(name, _TYPES[kind], _SUBTYPES[sub] if sub in _SUBTYPES else int(sub, 0),
                               int(offset, 0), int(size, 0)))
    return parts


TABLE_TILECLOCK_WROOM = read_csv(BOARD_TABLE)

KINDS = {
    "s3": ("esp32s3", "1.26.0", "Generic ESP32S3 module", "ESP32S3", TABLE_4MIB_PLUS),
    "s3-oct": ("esp32s3", "1.26.0", "Generic ESP32S3 module with Octal-SPIRAM", "ESP32S3",
               TABLE_4MIB_PLUS),
    "s3-old": ("esp32s3", "1.25.0", "Generic ESP32S3 module", "ESP32S3", TABLE_4MIB_PLUS),
    "wroom": ("esp32", "1.26.0", BOARD_NAME_WROOM, "ESP32", TABLE_TILECLOCK_WROOM),
    "wroom-old": ("esp32", "1.26.0", BOARD_NAME_WROOM, "ESP32", TABLE_TILECLOCK_WROOM),
    "esp32-stock": ("esp32", "1.26.0", "Generic ESP32 module", "ESP32", TABLE_4MIB_PLUS),
    "c3": ("esp32c3", "1.26.0", "ESP32C3 module", "ESP32C3", TABLE_4MIB_PLUS),
}


def _elf(machine: int, entry: int, sections: list[tuple[str, int, bytes]]) -> bytes:
    """A 32-bit little-endian ELF with PROGBITS sections at the given addresses."""
    names = b"\0" + b"".join(n.encode() + b"\0" for n, _, _ in sections) + b".shstrtab\0"
    body = b""
    headers = [b"\0" * 40]                        # the null section
    offset = 52
    name_at = 1
    for name, addr, data in sections:
        headers.append(struct.pack("<10I", name_at, 1, 0x2 | 0x4, addr, offset + len(body),
                                   len(data), 0, 0, 4, 0))
        body += data + b"\0" * (-len(data) % 4)
        name_at += len(name) + 1
    strtab_at = offset + len(body)
    headers.append(struct.pack("<10I", name_at, 3, 0, 0, strtab_at, len(names), 0, 0, 1, 0))
    body += names + b"\0" * (-len(names) % 4)
    shoff = offset + len(body)
    ident = b"\x7fELF" + bytes([1, 1, 1]) + b"\0" * 9
    head = struct.pack("<16sHHIIIIIHHHHHH", ident, 2, machine, 1, entry, 0, shoff, 0, 52, 32,
                       0, 40, len(headers), len(headers) - 1)
    return head + body + b"".join(headers)


def app_descriptor(idf="v5.4.1", date="Aug  9 2025", time="12:00:00") -> bytes:
    """esp_app_desc_t as a MicroPython build leaves it: CONFIG_APP_EXCLUDE_PROJECT_VER_VAR
    and _NAME_VAR (boards/sdkconfig.base) keep version and project name empty."""
    return struct.pack("<II8s32s32s16s16s32s32sHHB3s72s", 0xABCD5432, 0, b"", b"", b"",
                       time.encode(), date.encode(), idf.encode(), b"\0" * 32, 0, 0, 16,
                       b"", b"")


def _esptool(*args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "esptool", *args], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise RuntimeError("esptool %s failed: %s" % (args[:3], proc.stdout + proc.stderr))


def build(kind: str, out: Path) -> Path:
    chip, version, board, mcu, table = KINDS[kind]
    mem = MEMORY[chip]
    machine = EM_RISCV if chip == "esp32c3" else EM_XTENSA
    seed = hashlib.sha256(kind.encode()).digest()
    filler = (seed * (0x4000 // len(seed)))
    banner = ("MicroPython v%s on 2025-08-09; %s with %s" % (version, board, mcu)).encode()
    rodata = b"Type \"help()\" for more information.\0" + banner + b"\0" + frozen(kind) + filler
    app_elf = _elf(machine, mem["iram"], [
        (".flash.appdesc", mem["drom"], app_descriptor()),
        (".flash.rodata", mem["drom"] + 0x100, rodata),
        (".iram0.text", mem["iram"], filler[:0x2000]),
        (".dram0.data", mem["dram"], filler[:0x800]),
        (".flash.text", mem["irom"], filler),
    ])
    boot_elf = _elf(machine, mem["boot_iram"], [
        (".iram_loader.text", mem["boot_iram"], filler[:0x1000]),
        (".dram0.rodata", mem["boot_dram"], filler[:0x400]),
    ])
    work = out.parent / (out.name + ".parts")
    work.mkdir(parents=True, exist_ok=True)
    (work / "app.elf").write_bytes(app_elf)
    (work / "boot.elf").write_bytes(boot_elf)
    (work / "table.bin").write_bytes(partitions.build(table))
    _esptool("--chip", chip, "elf2image", "--flash-mode", "dio", "--flash-size", "4MB",
             "-o", str(work / "app.bin"), str(work / "app.elf"))
    _esptool("--chip", chip, "elf2image", "--flash-mode", "dio", "--flash-size", "4MB",
             "-o", str(work / "boot.bin"), str(work / "boot.elf"))
    _esptool("--chip", chip, "merge-bin", "-o", str(out), "--target-offset",
             hex(mem["boot_at"]), hex(mem["boot_at"]), str(work / "boot.bin"), "0x8000",
             str(work / "table.bin"), hex(table[2].offset), str(work / "app.bin"))
    for f in work.iterdir():
        f.unlink()
    work.rmdir()
    return out


def frozen(kind: str) -> bytes:
    """The names of the frozen modules as frozen_content.c lists them (mp_frozen_names:
    the port's, then the firmware's, each ending in a NUL), for an image with the firmware
    frozen in it (the firmware/ of now); else nothing."""
    if kind not in ("wroom", "wroom-old"):
        return b""
    names = ["_boot.py", "inisetup.py", "asyncio/core.py"] + image.frozen_names("wroom")
    if kind == "wroom-old":                 # built before the engine was a module of its own
        names.remove("clock/engine.py")
    return b"".join(name.encode() + b"\0" for name in names)


def firmware(kind: str, cache_dir: Path) -> Path:
    """The firmware .bin of `kind`, built once into cache_dir."""
    chip, version, *_ = KINDS[kind]
    name = {"s3": "ESP32_GENERIC_S3", "s3-oct": "ESP32_GENERIC_S3-SPIRAM_OCT",
            "s3-old": "ESP32_GENERIC_S3", "wroom": "TILECLOCK_WROOM",
            "wroom-old": "TILECLOCK_WROOM-old",
            "esp32-stock": "ESP32_GENERIC", "c3": "ESP32_GENERIC_C3"}[kind]
    # the table's digest in the name: a changed table is a new image, not a stale one
    # (and of the frozen modules' names: an image of a firmware with other modules too)
    table = hashlib.sha256(partitions.build(KINDS[kind][4]) + frozen(kind)).hexdigest()[:8]
    out = Path(cache_dir) / ("%s-20250809-v%s-%s.bin" % (name, version, table))
    if not out.exists():
        from tests.shared import cache_lock

        with cache_lock(out.parent):
            if not out.exists():
                part = out.with_name(out.name + ".%d" % os.getpid())
                build(kind, part)
                os.replace(part, out)
    return out
