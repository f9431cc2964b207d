"""Partition tables, the flash layout read from the firmware, and esptool's merge-bin
producing the whole flash, read back and checked (no chip needed)."""

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from host_tools import flashing, image, partitions
from host_tools.partitions import Partition, PartitionError
from tests.host.linkrig import micropython_binary

REPO = Path(__file__).resolve().parents[2]
BANNER = b"MicroPython v1.24.1 on 2024-11-29; Generic ESP32 module with ESP32"


def synthetic_firmware(table=partitions.MICROPYTHON_4MB, banner=BANNER, app_size=0x30000):
    """What micropython.org ships for ESP32_GENERIC, in shape: bootloader at 0x1000,
    partition table at 0x8000, application at 0x10000 (file offsets 0x1000 lower)."""
    boot = bytes([0xE9, 0x03, 0x02, 0x20]) + bytes(range(256)) * 16
    fw = bytearray(b"\xff" * (0x10000 - 0x1000))
    fw[:len(boot)] = boot
    fw[0x7000:0x7000 + partitions.TABLE_MAX] = partitions.build(table)
    app = bytearray(os.urandom(app_size))
    app[:4] = bytes([0xE9, 0x05, 0x02, 0x20])
    app[0x1000:0x1000 + len(banner)] = banner
    return bytes(fw + app)


def test_partition_table_round_trip_and_md5():
    data = partitions.build(partitions.MICROPYTHON_4MB)
    assert len(data) == 0xC00
    assert data[:2] == b"\xaa\x50" and data[128:130] == b"\xeb\xeb"
    assert data[144:160] == hashlib.md5(data[:128]).digest()
    assert partitions.parse(data) == partitions.MICROPYTHON_4MB
    vfs = partitions.find_vfs(partitions.parse(data))
    assert (vfs.offset, vfs.size) == (0x200000, 0x200000)
    broken = bytearray(data)
    broken[20] ^= 1
    with pytest.raises(PartitionError, match="MD5"):
        partitions.parse(bytes(broken))
    overlap = [Partition("a", 1, 2, 0x9000, 0x6000), Partition("b", 1, 0x81, 0xA000, 0x1000)]
    with pytest.raises(PartitionError, match="overlap"):
        partitions.parse(partitions.build(overlap))
    with pytest.raises(PartitionError):
        partitions.parse(b"\x00" * 64)
    no_fs = [Partition("factory", 0, 0, 0x10000, 0x100000)]
    with pytest.raises(PartitionError, match="vfs"):
        partitions.find_vfs(no_fs)


def test_flash_size_from_esptool_output():
    out = ("esptool v5.6.0\nConnected to ESP32 on /dev/ttyUSB0:\nChip type: ESP32-D0WD-V3\n"
           "Flash Memory Information:\n=========================\nManufacturer: 20\n"
           "Device: 4016\nDetected flash size: 4MB\nFlash voltage set by eFuse: 3.3V\n")
    assert partitions.parse_flash_size(out) == 4 << 20
    assert partitions.parse_flash_size("Detected flash size: 16MB") == 16 << 20
    with pytest.raises(PartitionError):
        partitions.parse_flash_size("Detected flash size: Unknown")
    big = partitions.MICROPYTHON_4MB + [Partition("data", 1, 0x83, 0x400000, 0x100000)]
    with pytest.raises(PartitionError, match="flash"):
        partitions.check_fits(big, 4 << 20)
    partitions.check_fits(big, 8 << 20)


def test_layout_and_version_are_read_from_the_firmware():
    fw = synthetic_firmware()
    layout = flashing.read_layout(fw)
    assert layout.firmware_offset == 0x1000 and layout.vfs.offset == 0x200000
    assert layout.firmware_flash_size == 4 << 20
    assert flashing.micropython_version(fw) == (1, 24)
    flashing.check_version(fw)
    with pytest.raises(flashing.FlashError, match="1.24"):
        flashing.check_version(synthetic_firmware(banner=b"MicroPython v1.19.1 on 2022-06-18; ESP32"))
    with pytest.raises(flashing.FlashError, match="ESP32"):
        flashing.read_layout(b"PK\x03\x04 a zip file")
    # a custom table with the filesystem elsewhere is followed, not assumed
    custom = [Partition("nvs", 1, 2, 0x9000, 0x6000), Partition("factory", 0, 0, 0x10000, 0x180000),
              Partition("vfs", 1, 0x81, 0x190000, 0x270000)]
    layout = flashing.read_layout(synthetic_firmware(custom))
    assert (layout.vfs.offset, layout.vfs.size) == (0x190000, 0x270000)
    args = flashing.write_args("/dev/ttyUSB3", layout, "fw.bin", "fs.bin")
    assert args[args.index("write-flash") + 1:] == ["--flash-size", "keep", "0x1000", "fw.bin",
                                                    "0x190000", "fs.bin"]
    assert args[:4] == ["--chip", "esp32", "--port", "/dev/ttyUSB3"]


def test_merge_bin_gives_the_whole_flash_with_table_and_filesystem(tmp_path):
    from wordlist_packer.normalise import Profile
    from wordlist_packer.pipeline import build_from_lines

    lex = build_from_lines(["dom", "kot", "las"], Profile.builtin("pl"), name="mini", version="2",
                           date=1700000000)
    fw_path = tmp_path / "ESP32_GENERIC-20241129-v1.24.1.bin"
    fw_path.write_bytes(synthetic_firmware())
    layout = flashing.read_layout(fw_path.read_bytes())
    fs = image.build_image(layout.vfs.size, lexicon=lex, config={"lang": "nb"})
    merged_path = tmp_path / "merged.bin"
    flashing.merge(merged_path, fw_path, fs)
    merged = merged_path.read_bytes()
    assert len(merged) == 0x400000
    assert merged[:0x1000] == b"\xff" * 0x1000     # nothing below the bootloader
    assert merged[0x1000:0x1000 + len(fw_path.read_bytes())] == fw_path.read_bytes()
    table = partitions.parse(merged[0x8000:0x8000 + 0xC00])
    vfs = partitions.find_vfs(table)
    assert merged[vfs.offset:vfs.end] == fs
    files = image.list_image(merged[vfs.offset:vfs.end])
    assert files["lexicon.dawg"] == lex and files["main.py"].startswith(b"#")
    assert all(v[:2] == b"M\x06" for k, v in files.items() if k.endswith(".mpy"))  # .mpy format 6
    # and MicroPython mounts the filesystem cut out of the merged flash
    part = tmp_path / "vfs.bin"
    part.write_bytes(merged[vfs.offset:vfs.end])
    proc = subprocess.run([micropython_binary(), str(REPO / "tests" / "host" / "image_boot.py"),
                           str(part), "link.handler"], capture_output=True, text=True,
                          env=dict(os.environ, MICROPYPATH=".frozen"), cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "IMPORTED link.handler /flash/link/handler.mpy" in proc.stdout
