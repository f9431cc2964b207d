"""Provisioning a clock: MicroPython's official ESP32 firmware plus our LittleFS image,
written with esptool at the offsets the firmware's own partition table gives.

The user supplies the firmware .bin from https://micropython.org/download/ESP32_GENERIC/
(v1.24 or later: .mpy format 6).  That file starts with the bootloader and is written at
0x1000 on the ESP32; its partition table (at flash offset 0x8000) names the `vfs`
partition, whose offset and size our filesystem image takes exactly.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from host_tools import partitions

MIN_MICROPYTHON = (1, 24)


class FlashError(RuntimeError):
    pass


@dataclass
class Layout:
    chip: str
    firmware_offset: int
    table: list[partitions.Partition]
    vfs: partitions.Partition
    firmware_flash_size: int | None


def read_layout(firmware: bytes, chip: str = "esp32") -> Layout:
    """Where things go, read from the firmware image itself."""
    if not firmware or firmware[0] != 0xE9:
        raise FlashError("not an ESP32 firmware image (no 0xE9 bootloader header): pass the "
                         "MicroPython .bin from micropython.org/download/ESP32_GENERIC")
    base = partitions.FIRMWARE_OFFSET.get(chip)
    if base is None:
        raise FlashError(f"unsupported chip {chip!r}")
    try:
        table = partitions.from_firmware(firmware, base)
        vfs = partitions.find_vfs(table)
    except partitions.PartitionError as e:
        raise FlashError(f"firmware image: {e}") from None
    app = [p for p in table if p.type == partitions.TYPE_APP]
    if app and base + len(firmware) > vfs.offset:
        raise FlashError("firmware image runs into the filesystem partition")
    return Layout(chip, base, table, vfs, partitions.firmware_flash_size(firmware))


_VERSION = re.compile(rb"v(\d+)\.(\d+)(?:\.(\d+))?(?:-[\w.]+)? on \d{4}-\d\d-\d\d")


def micropython_version(firmware: bytes) -> tuple[int, int] | None:
    """The MicroPython version named in the firmware's banner string, if found."""
    m = _VERSION.search(firmware)
    return (int(m.group(1)), int(m.group(2))) if m else None


def check_version(firmware: bytes):
    v = micropython_version(firmware)
    if v is not None and v < MIN_MICROPYTHON:
        raise FlashError("MicroPython %d.%d is too old: v%d.%d or later is needed (.mpy format 6)"
                         % (v + MIN_MICROPYTHON))


def esptool_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "esptool", *args]


def write_args(port: str, layout: Layout, firmware_path: str, fs_path: str,
               baud: int = 460800) -> list[str]:
    """esptool arguments that write both images (esptool verifies them after writing)."""
    return ["--chip", layout.chip, "--port", port, "--baud", str(baud), "write-flash",
            "--flash-size", "keep", hex(layout.firmware_offset), firmware_path,
            hex(layout.vfs.offset), fs_path]


def merge_args(out: str, layout: Layout, firmware_path: str, fs_path: str) -> list[str]:
    return ["--chip", layout.chip, "merge-bin", "-o", out, hex(layout.firmware_offset),
            firmware_path, hex(layout.vfs.offset), fs_path]


_PROGRESS = re.compile(r"(\d+(?:\.\d+)?)\s*%")


def run_esptool(args: list[str], progress: Callable[[str, int, int], None] | None = None,
                phase: str = "flash", timeout: float = 600) -> str:
    """Run esptool in its own process (fleets flash in parallel); returns its output."""
    proc = subprocess.Popen(esptool_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, bufsize=1)
    out = []
    assert proc.stdout is not None
    for line in proc.stdout:
        out.append(line)
        m = _PROGRESS.search(line)
        if progress and m:
            progress(phase, int(float(m.group(1))), 100)
    code = proc.wait(timeout=timeout)
    text = "".join(out)
    if code != 0:
        raise FlashError("esptool failed: " + text.strip()[-400:])
    return text


def build_fs(layout: Layout, lexicon: bytes | None, config: dict | None) -> bytes:
    from host_tools import image

    return image.build_image(layout.vfs.size, lexicon=lexicon, config=config)


def merge(out: str | Path, firmware_path: str | Path, fs_image: bytes, chip: str = "esp32") -> Layout:
    """One flashable file of the whole flash (esptool merge-bin)."""
    fw = Path(firmware_path).read_bytes()
    layout = read_layout(fw, chip)
    if len(fs_image) != layout.vfs.size:
        raise FlashError("filesystem image does not match the vfs partition size")
    with tempfile.TemporaryDirectory() as tmp:
        fs_path = Path(tmp) / "fs.bin"
        fs_path.write_bytes(fs_image)
        run_esptool(merge_args(str(out), layout, str(firmware_path), str(fs_path)))
    return layout


def provision(port: str, firmware_path: str | Path, lexicon: bytes | None = None,
              config: dict | None = None, chip: str = "esp32", baud: int = 460800,
              progress: Callable[[str, int, int], None] | None = None,
              fs_image: bytes | None = None) -> dict:
    """Flash one device: detect its flash, check the layout fits, write and verify."""
    fw = Path(firmware_path).read_bytes()
    check_version(fw)
    layout = read_layout(fw, chip)
    if progress:
        progress("detect", 0, 0)
    flash = partitions.detect_flash_size(port, chip)
    try:
        partitions.check_fits(layout.table, flash)
    except partitions.PartitionError as e:
        raise FlashError(str(e)) from None
    if progress:
        progress("image", 0, 0)
    data = fs_image if fs_image is not None else build_fs(layout, lexicon, config)
    if len(data) != layout.vfs.size:
        raise FlashError("filesystem image does not match the vfs partition size")
    with tempfile.TemporaryDirectory() as tmp:
        fs_path = Path(tmp) / "fs.bin"
        fs_path.write_bytes(data)
        run_esptool(write_args(port, layout, str(firmware_path), str(fs_path), baud), progress)
    return {"flash": flash, "vfs_offset": layout.vfs.offset, "vfs_size": layout.vfs.size}
