"""The whole SPI flash of a simulated chip, as the ROM loader sees it, kept in the same
files the firmware's fake flash uses (host_tools/fakes/esp32_flash.py): each data
partition of the device folder's table is `flash-<label>.bin`, read as 0xFF where it
was never written; the rest of the flash (bootloader, partition table, application)
is one sparse file `flash-rest.bin`.  So a simulated clock boots on what esptool wrote.

The partition table at 0x8000 is the folder's partitions.csv (or MicroPython's default
table) in ESP-IDF's binary form until something writes that sector.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from host_tools import partitions

SECTOR = 4096
REST = "flash-rest.bin"

# What the fake flash uses when the folder has no partitions.csv (esp32_flash._DEFAULT_TABLE).
DEFAULT_TABLE = partitions.MICROPYTHON_4MB

_TYPES = {"app": partitions.TYPE_APP, "data": partitions.TYPE_DATA}
_SUBTYPES = {"factory": 0x00, "phy": 0x01, "nvs": 0x02, "fat": 0x81, "spiffs": 0x82,
             "littlefs": 0x83}


def _number(text: str) -> int:
    text = text.strip().lower()
    scale = {"k": 1024, "m": 1024 * 1024}.get(text[-1:], 1)
    text = text[:-1] if scale > 1 else text
    return int(text, 0) * scale


def read_table(folder: Path) -> list[partitions.Partition]:
    """The partitions of the folder's partitions.csv (the fake flash's rules)."""
    path = Path(folder) / "partitions.csv"
    if not path.exists():
        return list(DEFAULT_TABLE)
    rows, offset = [], 0x9000
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.split("#", 1)[0].split(",")]
        if len(cells) < 5:
            continue
        ptype = _TYPES.get(cells[1], None)
        ptype = _number(cells[1]) if ptype is None else ptype
        sub = _SUBTYPES.get(cells[2], None)
        sub = _number(cells[2]) if sub is None else sub
        if cells[3]:
            offset = _number(cells[3])
        elif ptype == partitions.TYPE_APP and offset % 0x10000:
            offset += 0x10000 - offset % 0x10000
        size = _number(cells[4])
        rows.append(partitions.Partition(cells[0], ptype, sub, offset, size))
        offset += size
    return rows


class ChipFlash:
    def __init__(self, folder: Path, size: int = 4 << 20):
        self.folder = Path(folder)
        self.size = size
        self.table = read_table(self.folder)
        self.data_parts = [p for p in self.table if p.type == partitions.TYPE_DATA]

    def _pieces(self, addr: int, length: int):
        """(path, offset in the file, length, offset in the request) covering the range."""
        pos = addr
        end = addr + length
        while pos < end:
            part = next((p for p in self.data_parts if p.offset <= pos < p.end), None)
            if part is not None:
                n = min(end, part.end) - pos
                yield self.folder / ("flash-%s.bin" % part.label), pos - part.offset, n, pos - addr
            else:
                nxt = min([p.offset for p in self.data_parts if p.offset > pos] + [end])
                n = nxt - pos
                yield self.folder / REST, pos, n, pos - addr
            pos += n

    def read(self, addr: int, length: int) -> bytes:
        if addr < 0 or addr + length > self.size:
            raise ValueError("read outside the flash")
        out = bytearray(b"\xff" * length)
        for path, off, n, at in self._pieces(addr, length):
            if path.exists():
                with open(path, "rb") as f:
                    f.seek(off)
                    got = f.read(n)
                out[at:at + len(got)] = got
        table = partitions.TABLE_OFFSET
        if addr < table + partitions.TABLE_MAX and addr + length > table \
                and not self._written(table):
            blob = partitions.build(self.table)
            for i in range(max(addr, table), min(addr + length, table + len(blob))):
                out[i - addr] = blob[i - table]
        return bytes(out)

    def _written(self, addr: int) -> bool:
        path = self.folder / REST
        if not path.exists() or path.stat().st_size <= addr:
            return False
        with open(path, "rb") as f:
            f.seek(addr)
            return f.read(SECTOR) != b"\x00" * SECTOR

    def _put(self, addr: int, data: bytes) -> None:
        for path, off, n, at in self._pieces(addr, len(data)):
            mode = "r+b" if path.exists() else "w+b"
            with open(path, mode) as f:
                end = f.seek(0, 2)
                if end < off:
                    # a gap in a partition file reads as erased flash, in the rest file as
                    # never written (zeros of a sparse file)
                    f.write((b"\x00" if path.name == REST else b"\xff") * (off - end))
                f.seek(off)
                f.write(data[at:at + n])

    def erase(self, addr: int, length: int) -> None:
        self._put(addr, b"\xff" * length)

    def program(self, addr: int, data: bytes) -> None:
        """NOR flash: programming only clears bits."""
        old = self.read(addr, len(data))
        n = len(data)
        both = int.from_bytes(old, "little") & int.from_bytes(data, "little")
        self._put(addr, both.to_bytes(n, "little"))

    def md5(self, addr: int, length: int) -> bytes:
        return hashlib.md5(self.read(addr, length)).digest()
