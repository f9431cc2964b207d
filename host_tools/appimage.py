"""What a MicroPython firmware .bin is, read from the file itself.

The files micropython.org offers (and what `make` in ports/esp32 produces as
firmware.bin) hold the bootloader, the partition table at flash offset 0x8000 and the
application at the factory partition, as one image written at the chip's bootloader
offset (0x1000 on the ESP32, 0x0 on the ESP32-S3).  From that file this module reads:

- the chip, from the application image header (`chip_id`, parsed by esptool's own
  `LoadFirmwareImage`, which also checks the image's checksum and SHA-256);
- the ESP-IDF application descriptor (`esp_app_desc_t`, magic 0xABCD5432) at the start
  of the first DROM segment: the ESP-IDF version and build date;
- the MicroPython version and board from the banner string every build carries,
  "MicroPython v1.26.0 on 2025-08-09; Generic ESP32S3 module with ESP32S3"
  (MICROPY_BANNER_NAME_AND_VERSION "; " MICROPY_HW_BOARD_NAME " with "
  MICROPY_HW_MCU_NAME): the board name tells which build it is, and with it which
  PSRAM the build drives (host_tools/targets.py);
- the partition table (the filesystem follows its last partition).

docs/targets.md explains which combinations `clockctl flash` accepts and why.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

from host_tools import partitions

IMAGE_MAGIC = 0xE9
APP_DESC_MAGIC = 0xABCD5432
# esp_app_desc_t (ESP-IDF components/esp_app_format/include/esp_app_desc.h), 256 bytes.
APP_DESC = struct.Struct("<II8s32s32s16s16s32s32sHHB3s72s")
# Where the bootloader (and so the .bin) starts in flash, by chip.
BOOTLOADER_OFFSET = partitions.FIRMWARE_OFFSET
_BANNER = re.compile(rb"MicroPython v(\d+)\.(\d+)\.(\d+)(?:-[\w.+-]+)? on (\d{4}-\d\d-\d\d); "
                     rb"([ -~]{1,80}?) with ([A-Z0-9-]+)\x00")


class FirmwareError(ValueError):
    pass


@dataclass
class Firmware:
    chip: str                       # esptool's name: "esp32", "esp32s3"
    base: int                       # flash offset the .bin is written at
    version: tuple[int, int, int] | None
    build_date: str
    board: str                      # MICROPY_HW_BOARD_NAME
    mcu: str                        # MICROPY_HW_MCU_NAME
    idf_version: str
    table: list[partitions.Partition]
    app: partitions.Partition
    size: int

    def partition(self, label: str) -> partitions.Partition | None:
        for p in self.table:
            if p.label == label:
                return p
        return None

    @property
    def version_text(self) -> str:
        return ".".join(map(str, self.version)) if self.version else "unknown"


def _chip_name(chip_id: int) -> str | None:
    from esptool.targets import CHIP_DEFS

    for name, cls in CHIP_DEFS.items():
        if getattr(cls, "IMAGE_CHIP_ID", None) == chip_id:
            return name
    return None


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("ascii", "replace")


def app_descriptor(segment_data: bytes) -> dict | None:
    """The fields of an esp_app_desc_t at the start of a DROM segment, or None."""
    if len(segment_data) < APP_DESC.size:
        return None
    (magic, secure_version, _r1, version, project, time, date, idf_ver, sha, _mn, _mx,
     _page, _r3, _r2) = APP_DESC.unpack_from(segment_data)
    if magic != APP_DESC_MAGIC:
        return None
    return {"version": _text(version), "project_name": _text(project), "time": _text(time),
            "date": _text(date), "idf_ver": _text(idf_ver), "secure_version": secure_version,
            "app_elf_sha256": sha.hex()}


def load_app(chip: str, data: bytes):
    """esptool's parse of an application image (raises FirmwareError if it is not one)."""
    from esptool.bin_image import LoadFirmwareImage
    from esptool.util import FatalError

    try:
        image = LoadFirmwareImage(chip, data)
    except (FatalError, struct.error, ValueError, IndexError) as e:
        raise FirmwareError("the application image is damaged: %s" % e) from None
    if image.checksum != image.calculate_checksum():
        raise FirmwareError("the application image fails its checksum (damaged download?)")
    if getattr(image, "append_digest", False) and image.stored_digest != image.calc_digest:
        raise FirmwareError("the application image fails its SHA-256 (damaged download?)")
    return image


def read(data: bytes) -> Firmware:
    """Read a whole-firmware .bin (bootloader, partition table, application)."""
    if len(data) < 24 or data[0] != IMAGE_MAGIC:
        raise FirmwareError("not an ESP32 firmware image (no 0xE9 image header): pass the "
                            "MicroPython .bin from micropython.org/download")
    chip = _chip_name(struct.unpack_from("<H", data, 12)[0])
    if chip is None or chip not in BOOTLOADER_OFFSET:
        raise FirmwareError("firmware for a chip clockctl does not know (chip id %d)"
                            % struct.unpack_from("<H", data, 12)[0])
    base = BOOTLOADER_OFFSET[chip]
    try:
        table = partitions.from_firmware(data, base)
    except partitions.PartitionError as e:
        raise FirmwareError("no partition table at 0x8000: %s (an application-only .bin? "
                            "pass the whole firmware image)" % e) from None
    apps = [p for p in table if p.type == partitions.TYPE_APP]
    if not apps:
        raise FirmwareError("the partition table has no application partition")
    app = apps[0]
    start = app.offset - base
    if len(data) <= start:
        raise FirmwareError("the file ends before the application at 0x%x" % app.offset)
    image = load_app(chip, data[start:start + app.size])
    app_chip = _chip_name(image.chip_id)
    if app_chip != chip:
        raise FirmwareError("bootloader for %s but application for %s" % (chip, app_chip))
    desc = None
    for seg in image.segments:
        if "DROM" in seg.get_memory_type(image):
            desc = app_descriptor(seg.data)
            break
    if desc is None:
        raise FirmwareError("the application has no ESP-IDF app descriptor: not an ESP-IDF "
                            "build")
    m = _BANNER.search(data, start)
    if m is None:
        raise FirmwareError("no MicroPython banner in the application: not a MicroPython "
                            "firmware")
    version = tuple(int(x) for x in m.group(1, 2, 3))
    if base + len(data) > app.end:
        raise FirmwareError("the firmware file runs past its application partition")
    return Firmware(chip=chip, base=base, version=version, build_date=m.group(4).decode(),
                    board=m.group(5).decode(), mcu=m.group(6).decode(),
                    idf_version=desc["idf_ver"], table=table, app=app, size=len(data))
