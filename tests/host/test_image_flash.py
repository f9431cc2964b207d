"""Provisioning: the firmware .bin read and checked against the target (chip, app
descriptor, MicroPython version and board, the frozen firmware's modules), the chip asked what it is
(chip, PSRAM, flash), and one plan of every byte that `clockctl image` writes to files
and `clockctl flash` writes to the chip.  The firmware files are real ESP-IDF images,
made by esptool's own elf2image and merge-bin (tests/host/esp_firmware.py); no chip is
needed."""

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import appimage, cli, flashing, image, partitions
from host_tools.partitions import Partition, PartitionError
from tests.host import esp_firmware

REPO = Path(__file__).resolve().parents[2]
MIB = 1 << 20


@pytest.fixture(scope="module")
def fw(tmp_path_factory):
    cache = REPO / "build" / "firmware"
    return {kind: esp_firmware.firmware(kind, cache) for kind in esp_firmware.KINDS}


def probe_output(chip="ESP32-S3", psram=None, flash="8MB"):
    """What `esptool flash-id` prints (esptool v5), for a chip with this PSRAM."""
    features = "Wi-Fi, BT 5 (LE), Dual Core + LP Core, 240MHz"
    if psram:
        features += ", Embedded PSRAM %dMB (AP_3v3)" % psram
    return ("esptool v5.6.0\nConnected to %s on /dev/ttyACM0:\nChip type:          %s (QFN56) "
            "(revision v0.2)\nFeatures:           %s\nCrystal frequency:  40MHz\n"
            "MAC:                f4:12:fa:00:00:01\n\nFlash Memory Information:\n"
            "=========================\nManufacturer: 20\nDevice: 4017\n"
            "Detected flash size: %s\n" % (chip, chip, features, flash))


def test_partition_table_round_trip_and_md5():
    data = partitions.build(esp_firmware.TABLE_4MIB_ROMFS)
    assert len(data) == 0xC00
    assert data[:2] == b"\xaa\x50" and data[128:130] == b"\xeb\xeb"
    assert data[144:160] == hashlib.md5(data[:128]).digest()
    assert partitions.parse(data) == esp_firmware.TABLE_4MIB_ROMFS
    broken = bytearray(data)
    broken[20] ^= 1
    with pytest.raises(PartitionError, match="MD5"):
        partitions.parse(bytes(broken))
    overlap = [Partition("a", 1, 2, 0x9000, 0x6000), Partition("b", 1, 0x81, 0xA000, 0x1000)]
    with pytest.raises(PartitionError, match="overlap"):
        partitions.parse(partitions.build(overlap))
    with pytest.raises(PartitionError):
        partitions.parse(b"\x00" * 64)


def test_the_filesystem_is_the_flash_after_the_last_partition_from_v1_26():
    # ports/esp32/main.c (v1.26.0): no "vfs"/"ffat" in the table -> one from the end of
    # the last partition to the end of the flash
    vfs = partitions.filesystem(esp_firmware.TABLE_4MIB_PLUS, 8 * MIB)
    assert (vfs.label, vfs.offset, vfs.size) == ("vfs", 0x200000, 6 * MIB)
    vfs = partitions.filesystem(esp_firmware.TABLE_4MIB_ROMFS, 4 * MIB)
    assert (vfs.offset, vfs.size) == (0x200000, 2 * MIB)
    # an older table that names its filesystem keeps it
    assert partitions.filesystem(partitions.MICROPYTHON_4MB, 4 * MIB).offset == 0x200000
    with pytest.raises(PartitionError, match="no room"):
        partitions.filesystem(esp_firmware.TABLE_4MIB_PLUS, 2 * MIB)


def test_esptool_made_firmware_is_read_chip_descriptor_version_board(fw):
    s3 = appimage.read(fw["s3"].read_bytes())
    assert (s3.chip, s3.base, s3.version, s3.board) == ("esp32s3", 0, (1, 26, 0),
                                                         "Generic ESP32S3 module")
    assert s3.idf_version == "v5.4.1" and s3.app.offset == 0x10000
    oct_ = appimage.read(fw["s3-oct"].read_bytes())
    assert oct_.board == "Generic ESP32S3 module with Octal-SPIRAM"
    wroom = appimage.read(fw["wroom"].read_bytes())
    assert (wroom.chip, wroom.base) == ("esp32", 0x1000)
    assert wroom.board == "Tileclock ESP32-WROOM" and wroom.partition("romfs") is None
    assert wroom.app.size == 0x210000                # the frozen firmware's room
    # esptool's own reader agrees that these are valid images
    out = subprocess.run([sys.executable, "-m", "esptool", "--chip", "esp32s3", "image-info",
                          str(fw["s3"])], capture_output=True, text=True).stdout
    assert "Checksum: " in out and "(valid)" in out


def test_damaged_or_foreign_files_are_refused_with_a_reason(fw, tmp_path):
    with pytest.raises(appimage.FirmwareError, match="0xE9"):
        appimage.read(b"PK\x03\x04 a zip file")
    data = bytearray(fw["s3"].read_bytes())
    data[0x10000 + 0x400] ^= 0xFF               # a bit flip in the application
    with pytest.raises(appimage.FirmwareError, match="checksum|SHA-256"):
        appimage.read(bytes(data))
    with pytest.raises(appimage.FirmwareError, match="partition table"):
        appimage.read(fw["s3"].read_bytes()[:0x8000])


@pytest.mark.parametrize("kind,target,message", [
    ("wroom", "s3", "for the ESP32, --target s3 is an ESP32-S3"),
    ("s3", "wroom", "for the ESP32-S3, --target wroom is an ESP32"),
    ("s3-old", "s3", "MicroPython 1.25.0 is too old"),
    ("esp32-stock", "wroom", "the stock Generic ESP32 module image, without the firmware"),
    ("c3", "s3", "for the ESP32-C3"),
])
def test_unsupported_firmware_is_refused_naming_what_is_supported(fw, kind, target, message):
    with pytest.raises(flashing.FlashError) as e:
        flashing.plan(target, fw[kind].read_bytes())
    text = str(e.value)
    assert message in text
    assert "--target s3: ESP32-S3 N8R2 with the stock ESP32_GENERIC_S3 image" in text
    assert "--target wroom: ESP32-WROOM-32E with the TILECLOCK_WROOM image" in text


def test_a_wroom_image_of_another_firmware_is_refused(fw):
    """The lean target's image has the firmware frozen in it: one whose frozen modules
    lack one of the firmware here was built from another firmware."""
    with pytest.raises(flashing.FlashError, match="lacks 1 module.*clock/engine.py.*build "
                                                  "the image again"):
        flashing.plan("wroom", fw["wroom-old"].read_bytes())


def test_the_chip_on_the_port_must_match_the_image():
    quad = {"variant": "ESP32_GENERIC_S3", "psram": "quad"}
    octal = {"variant": "ESP32_GENERIC_S3-SPIRAM_OCT", "psram": "octal"}
    n8r2 = flashing.parse_probe(probe_output(psram=2))
    n16r8 = flashing.parse_probe(probe_output(psram=8, flash="16MB"))
    assert n8r2 == {"chip": "esp32s3", "psram": 2 * MIB, "flash": 8 * MIB}
    flashing.check_device(n8r2, "s3", quad)
    flashing.check_device(n16r8, "s3", octal)
    with pytest.raises(flashing.FlashError, match="N16R8 module .octal PSRAM. needs the "
                                                  "ESP32_GENERIC_S3-SPIRAM_OCT image"):
        flashing.check_device(n16r8, "s3", quad)
    with pytest.raises(flashing.FlashError, match="N8R2 module .quad PSRAM. needs the "
                                                  "ESP32_GENERIC_S3 image"):
        flashing.check_device(n8r2, "s3", octal)
    with pytest.raises(flashing.FlashError, match="no PSRAM.*N8R2 .2 MB quad PSRAM. or "
                                                  "N16R8 .8 MB octal PSRAM."):
        flashing.check_device(flashing.parse_probe(probe_output()), "s3", quad)
    wroom = flashing.parse_probe(probe_output(chip="ESP32", flash="4MB"))
    assert wroom["chip"] == "esp32"
    with pytest.raises(flashing.FlashError, match="is an ESP32, --target s3 needs an ESP32-S3"):
        flashing.check_device(wroom, "s3", quad)
    flashing.check_device(wroom, "wroom", {"variant": "TILECLOCK_WROOM", "psram": None})


def test_flash_writes_exactly_what_image_writes(fw, tmp_path, monkeypatch):
    """`clockctl image` and `clockctl flash` (esptool stood in for, the chip answering
    as an N8R2 would) put the same bytes at the same offsets."""
    from wordlist_packer.normalise import Profile
    from wordlist_packer.pipeline import build_from_lines

    lex = tmp_path / "mini.dawg"
    lex.write_bytes(build_from_lines(["dom", "kot", "las"], Profile.builtin("pl"),
                                     name="mini", version="2", date=1700000000))
    written = {}

    def fake_esptool(args, progress=None, phase="flash", timeout=600):
        assert args[args.index("write-flash") + 1:args.index("write-flash") + 3] == [
            "--flash-size", "keep"]
        pairs = args[args.index("write-flash") + 3:]
        for offset, path in zip(pairs[::2], pairs[1::2]):
            written[int(offset, 16)] = Path(path).read_bytes()
        return ""

    for target, kind, answer in (("s3", "s3", probe_output(psram=2)),
                                 ("wroom", "wroom", probe_output(chip="ESP32", flash="4MB"))):
        written.clear()
        monkeypatch.setattr(flashing, "probe", lambda port: flashing.parse_probe(answer))
        monkeypatch.setattr(flashing, "run_esptool", fake_esptool)
        assert cli.main(["flash", "--target", target, "--firmware", str(fw[kind]),
                         "--lexicon", str(lex), "--port", "/dev/fake0"]) == 0
        out = tmp_path / target
        assert cli.main(["image", "--target", target, "--firmware", str(fw[kind]),
                         "--lexicon", str(lex), "--out", str(out)]) == 0
        fw_info = appimage.read(fw[kind].read_bytes())
        # the firmware's table gets the word list partitions lexa and lexb after its last
        # partition (0x200000; after the lean target's larger factory app 0x220000,
        # boards/TILECLOCK_WROOM/partitions-tileclock.csv): 1 MB each on the S3, 800 KB on
        # the WROOM; the filesystem is the flash after them
        lexa_at = 0x220000 if target == "wroom" else 0x200000
        vfs_at = 0x3B0000 if target == "wroom" else 0x400000
        patched = (out / "firmware.bin").read_bytes()
        table = partitions.from_firmware(patched, fw_info.base)
        assert [(p.label, p.offset, p.size) for p in table[-2:]] == [
            ("lexa", lexa_at, vfs_at - lexa_at >> 1), ("lexb", lexa_at + (vfs_at - lexa_at >> 1),
                                                       vfs_at - lexa_at >> 1)]
        assert table[:-2] == fw_info.table
        # only the table differs from the firmware as given
        original = fw[kind].read_bytes()
        at = 0x8000 - fw_info.base
        assert patched[:at] == original[:at] and patched[at + 0xC00:] == original[at + 0xC00:]
        expect = {fw_info.base: patched, lexa_at: lex.read_bytes(),
                  vfs_at: (out / "vfs.bin").read_bytes()}
        assert written == expect
        assert sorted(p.name for p in out.glob("*.bin")) == ["firmware.bin", "lexa.bin", "vfs.bin"]
        files = image.list_image(expect[vfs_at])
        assert "lexicon.dawg" not in files and files["lexicon.slot"] == b"lexa"
        # the firmware as given still boots: esptool reads the patched image as the chip would
        assert appimage.read(patched).app == fw_info.app


def test_a_refused_device_is_not_written(fw, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(flashing, "probe", lambda port: flashing.parse_probe(
        probe_output(psram=8, flash="16MB")))
    monkeypatch.setattr(flashing, "run_esptool", lambda *a, **k: calls.append(a))
    assert cli.main(["flash", "--target", "s3", "--firmware", str(fw["s3"]),
                     "--port", "/dev/fake0"]) == 1
    assert calls == []
    assert "SPIRAM_OCT" in capsys.readouterr().out


def test_merge_bin_gives_the_whole_flash_from_the_bootloader_on(fw, tmp_path):
    p = flashing.plan("wroom", fw["wroom"].read_bytes())
    merged = tmp_path / "merged.bin"
    flashing.merge(merged, p)
    data = merged.read_bytes()
    base = 0x1000
    assert data[:len(p.image("firmware"))] == p.image("firmware")
    assert [w.label for w in p.writes] == ["firmware", "vfs"]
    assert data[0x3B0000 - base:] == p.image("vfs")
    table = partitions.parse(data[0x8000 - base:0x8000 - base + 0xC00])
    assert table == p.table == partitions.with_lexicon_slots(
        esp_firmware.TABLE_TILECLOCK_WROOM, 0xC8000)


def test_the_word_list_partitions_follow_the_firmwares_own(fw, monkeypatch):
    """lexa and lexb after the firmware's last partition; the filesystem is what is left."""
    s3 = partitions.with_lexicon_slots(esp_firmware.TABLE_4MIB_PLUS, 0x100000)
    assert [(p.label, p.type, p.subtype, p.offset, p.size) for p in s3[-2:]] == [
        ("lexa", 1, 0x06, 0x200000, 0x100000), ("lexb", 1, 0x06, 0x300000, 0x100000)]
    for flash, size in ((8 * MIB, 4 * MIB), (16 * MIB, 12 * MIB)):          # N8R2, N16R8
        vfs = partitions.filesystem(s3, flash)
        assert (vfs.offset, vfs.size) == (0x400000, size)
    # a table that has them is kept; half of them, or a named filesystem, is refused
    assert partitions.with_lexicon_slots(s3, 0x100000) == s3
    with pytest.raises(PartitionError, match="has lexa but not lexb"):
        partitions.with_lexicon_slots(s3[:-1], 0x100000)
    with pytest.raises(PartitionError, match="names its filesystem"):
        partitions.with_lexicon_slots(partitions.MICROPYTHON_4MB, 0x100000)
    # the Polish list (750 KB) fits the lean target's 800 KB partitions
    p = flashing.plan("wroom", fw["wroom"].read_bytes())
    assert [(w.label, w.offset) for w in p.writes] == [
        ("firmware", 0x1000), ("vfs", 0x3B0000)]
    assert p.vfs.size == 320 * 1024
    # partitions that leave too little filesystem are refused before anything is written
    monkeypatch.setitem(flashing.targets_mod.TARGETS["wroom"], "lexicon_slot", 0xE0000)
    with pytest.raises(flashing.FlashError, match="would be 128 KB, at least 192 KB"):
        flashing.plan("wroom", fw["wroom"].read_bytes())
