"""ESP32 partition tables (binary form) and flash size detection.

Binary format (ESP-IDF): at flash offset 0x8000, up to 0xC00 bytes of 32-byte entries
`AA 50, type, subtype, offset (u32 LE), size (u32 LE), label (16 bytes, NUL padded),
flags (u32 LE)`, then optionally an MD5 entry `EB EB, 14 x FF, MD5 of all entries
before it`, then FF bytes.
"""

from __future__ import annotations

import hashlib
import re
import struct
import subprocess
import sys
from dataclasses import dataclass

TABLE_OFFSET = 0x8000
TABLE_MAX = 0xC00
ENTRY = struct.Struct("<2sBBII16sI")
MAGIC = b"\xaa\x50"
MD5_MAGIC = b"\xeb\xeb"
TYPE_APP, TYPE_DATA = 0x00, 0x01
SUBTYPE_FAT, SUBTYPE_SPIFFS, SUBTYPE_LITTLEFS = 0x81, 0x82, 0x83
SUBTYPE_ROMFS = 0x8F       # what ports/esp32/partitions-4MiB-romfs.csv gives its "romfs"
SUBTYPE_UNDEFINED = 0x06   # ESP-IDF's data subtype for data of the application's own kind
# The word list's two raw partitions (docs/host-tools.md, "flash-lexicon"): one holds the
# list in use, esptool writes the other; the firmware switches after its check.
LEXICON_SLOTS = ("lexa", "lexb")
SECTOR = 0x1000            # the flash's erase unit: partitions start and end on one
# Where the official MicroPython ESP32 .bin starts (bootloader offset on the ESP32).
FIRMWARE_OFFSET = {"esp32": 0x1000, "esp32s2": 0x1000, "esp32s3": 0x0, "esp32c3": 0x0}
# Flash size codes in byte 3 (high nibble) of an ESP32 image header.
FLASH_SIZES = {0: 1 << 20, 1: 2 << 20, 2: 4 << 20, 3: 8 << 20, 4: 16 << 20, 5: 32 << 20,
               6: 64 << 20, 7: 128 << 20}


class PartitionError(ValueError):
    pass


@dataclass(frozen=True)
class Partition:
    label: str
    type: int
    subtype: int
    offset: int
    size: int
    flags: int = 0

    @property
    def end(self) -> int:
        return self.offset + self.size


def parse(data: bytes) -> list[Partition]:
    """The partitions of a binary table; checks the MD5 entry when there is one."""
    parts = []
    for pos in range(0, min(len(data), TABLE_MAX) - ENTRY.size + 1, ENTRY.size):
        raw = data[pos:pos + ENTRY.size]
        if raw[:2] == MAGIC:
            _, ptype, sub, off, size, label, flags = ENTRY.unpack(raw)
            parts.append(Partition(label.rstrip(b"\0").decode("ascii", "replace"), ptype, sub,
                                   off, size, flags))
        elif raw[:2] == MD5_MAGIC:
            if hashlib.md5(data[:pos]).digest() != raw[16:32]:
                raise PartitionError("partition table MD5 mismatch")
            break
        elif raw == b"\xff" * ENTRY.size:
            break
        else:
            raise PartitionError(f"not a partition table entry at +0x{pos:x}")
    if not parts:
        raise PartitionError("no partition table entries")
    for a in parts:
        for b in parts:
            if a is not b and a.offset < b.end and b.offset < a.end:
                raise PartitionError(f"partitions {a.label} and {b.label} overlap")
    return parts


def build(parts: list[Partition], md5: bool = True) -> bytes:
    """The binary table (0xC00 bytes) for the given partitions."""
    out = b"".join(ENTRY.pack(MAGIC, p.type, p.subtype, p.offset, p.size,
                              p.label.encode("ascii"), p.flags) for p in parts)
    if md5:
        out += MD5_MAGIC + b"\xff" * 14 + hashlib.md5(out).digest()
    if len(out) > TABLE_MAX:
        raise PartitionError("partition table too long")
    return out + b"\xff" * (TABLE_MAX - len(out))


# The layout of MicroPython's ESP32_GENERIC build up to v1.25 (a fixed "vfs" partition).
MICROPYTHON_4MB = [
    Partition("nvs", TYPE_DATA, 0x02, 0x9000, 0x6000),
    Partition("phy_init", TYPE_DATA, 0x01, 0xF000, 0x1000),
    Partition("factory", TYPE_APP, 0x00, 0x10000, 0x1F0000),
    Partition("vfs", TYPE_DATA, SUBTYPE_FAT, 0x200000, 0x200000),
]


def find_vfs(parts: list[Partition]) -> Partition:
    """The filesystem partition MicroPython mounts: label "vfs", else the first data
    partition of a filesystem subtype."""
    for p in parts:
        if p.label == "vfs" and p.type == TYPE_DATA:
            return p
    for p in parts:
        if p.type == TYPE_DATA and p.subtype in (SUBTYPE_FAT, SUBTYPE_SPIFFS, SUBTYPE_LITTLEFS):
            return p
    raise PartitionError("no filesystem (vfs) partition in the table")


def filesystem(parts: list[Partition], flash_size: int) -> Partition:
    """The filesystem partition MicroPython mounts on a chip with `flash_size` bytes.

    From v1.26 the port's tables (partitions-4MiBplus.csv, partitions-4MiB-romfs.csv)
    hold no filesystem: at start-up, when the table has neither "vfs" nor "ffat",
    ports/esp32/main.c registers a "vfs" partition from the end of the last partition
    to the end of the flash (docs/targets.md).  Older tables name "vfs" themselves."""
    for p in parts:
        if p.type == TYPE_DATA and p.label in ("vfs", "ffat"):
            check_fits(parts, flash_size)
            return p
    end = max(p.end for p in parts)
    if flash_size <= end:
        raise PartitionError("no room for a filesystem: the partitions end at 0x%x, the "
                             "flash at 0x%x" % (end, flash_size))
    return Partition("vfs", TYPE_DATA, SUBTYPE_FAT, end, flash_size - end)


def lexicon_slots(parts: list[Partition]) -> list[Partition]:
    """The word list partitions of a table (none on a table of the older layout)."""
    return [p for label in LEXICON_SLOTS for p in parts
            if p.label == label and p.type == TYPE_DATA]


def with_lexicon_slots(parts: list[Partition], slot_size: int) -> list[Partition]:
    """The table with the word list partitions `lexa` and `lexb`, `slot_size` bytes each,
    after its last partition (the filesystem then starts after them, partitions.filesystem).
    A table that names both already is kept as it is."""
    have = lexicon_slots(parts)
    if len(have) == len(LEXICON_SLOTS):
        return list(parts)
    if have:
        raise PartitionError("the partition table has %s but not %s" % (
            have[0].label, " or ".join(l for l in LEXICON_SLOTS if l != have[0].label)))
    if slot_size <= 0 or slot_size % SECTOR:
        raise PartitionError("word list partitions of 0x%x bytes: not whole sectors" % slot_size)
    if any(p.label in ("vfs", "ffat") for p in parts):
        raise PartitionError("the partition table names its filesystem itself: there is no "
                             "room after it for the word list partitions")
    at = max(p.end for p in parts)
    at += -at % SECTOR
    out = list(parts)
    for label in LEXICON_SLOTS:
        out.append(Partition(label, TYPE_DATA, SUBTYPE_UNDEFINED, at, slot_size))
        at += slot_size
    return out


def patch_firmware(firmware: bytes, parts: list[Partition], base: int) -> bytes:
    """The firmware .bin (written at `base`) with `parts` as its partition table."""
    start = TABLE_OFFSET - base
    return firmware[:start] + build(parts) + firmware[start + TABLE_MAX:]


def from_firmware(firmware: bytes, base: int = 0x1000) -> list[Partition]:
    """The partition table inside a MicroPython firmware .bin written at `base`."""
    start = TABLE_OFFSET - base
    if start < 0 or len(firmware) < start + ENTRY.size:
        raise PartitionError("firmware image too short to hold a partition table at 0x8000")
    return parse(firmware[start:start + TABLE_MAX])


def firmware_flash_size(firmware: bytes) -> int | None:
    """The flash size the firmware's bootloader header was built for, if it has one."""
    if len(firmware) >= 4 and firmware[0] == 0xE9:
        return FLASH_SIZES.get(firmware[3] >> 4)
    return None


_SIZE = re.compile(r"(?:Detected flash size|Flash size)\s*:\s*(\d+)\s*([KM])B", re.I)


def parse_flash_size(esptool_output: str) -> int:
    """Bytes of flash from `esptool flash-id` output."""
    m = _SIZE.search(esptool_output)
    if not m:
        raise PartitionError("esptool did not report a flash size")
    return int(m.group(1)) << (20 if m.group(2).upper() == "M" else 10)


def detect_flash_size(port: str, chip: str = "esp32", timeout: float = 60) -> int:
    """Ask the chip on `port` for its flash size (esptool flash-id)."""
    cmd = [sys.executable, "-m", "esptool", "--chip", chip, "--port", port, "flash-id"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise PartitionError("esptool flash-id failed: " + (proc.stderr or proc.stdout).strip()[-300:])
    return parse_flash_size(proc.stdout)


def check_fits(parts: list[Partition], flash_size: int):
    end = max(p.end for p in parts)
    if end > flash_size:
        raise PartitionError(f"partition table needs 0x{end:x} bytes of flash, chip has 0x{flash_size:x}")
