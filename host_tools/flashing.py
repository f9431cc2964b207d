"""Provisioning a clock: a MicroPython firmware .bin plus what the target puts beside it,
written with esptool at the offsets the firmware's own partition table gives.

`plan(target, firmware, flash_size, ...)` decides every byte: the firmware .bin at the
chip's bootloader offset (for the lean target the TILECLOCK_WROOM image, with the
firmware frozen in it), its partition table extended by the word list's two raw
partitions `lexa` and `lexb` (partitions.with_lexicon_slots), the word list in `lexa`,
and the LittleFS filesystem (host_tools/image.py) in the filesystem partition, which from
MicroPython v1.26 is the flash after the last partition (partitions.filesystem).
`clockctl image` writes a plan's images to files, `clockctl
flash` writes the same bytes to each chip: one function builds both.

Before anything is written, the firmware is read (host_tools/appimage.py: chip, app
descriptor, MicroPython version and board) and the chip on each port is asked (esptool
flash-id: chip, in-package PSRAM, flash size); a combination the target does not
support is refused with a message that names what is supported (docs/targets.md).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from host_tools import appimage, image, partitions
from host_tools import targets as targets_mod

MIN_MICROPYTHON = targets_mod.MIN_MICROPYTHON
MIB = 1024 * 1024


class FlashError(RuntimeError):
    pass


@dataclass
class Write:
    offset: int
    label: str          # "firmware", or the partition's label
    data: bytes


@dataclass
class Plan:
    target: str
    firmware: appimage.Firmware
    variant: dict       # the target's entry for this image (variant name, PSRAM mode)
    flash_size: int
    vfs: partitions.Partition
    writes: list[Write] = field(default_factory=list)
    table: list[partitions.Partition] = field(default_factory=list)

    def image(self, label: str) -> bytes:
        for w in self.writes:
            if w.label == label:
                return w.data
        raise KeyError(label)


def read_firmware(data: bytes) -> appimage.Firmware:
    try:
        return appimage.read(data)
    except appimage.FirmwareError as e:
        raise FlashError(str(e)) from None


def chip_name(chip: str) -> str:
    """"esp32s3" -> "ESP32-S3" (as Espressif writes it)."""
    return "ESP32" + ("-" + chip[5:].upper() if len(chip) > 5 else "")


def _refuse(problem: str) -> FlashError:
    return FlashError("%s.  Supported: %s" % (problem, targets_mod.supported_text()))


def check_firmware(fw: appimage.Firmware, target: str) -> dict:
    """The target's entry for this image, or FlashError naming what is supported."""
    entry = targets_mod.target(target)
    if fw.version is None or fw.version < MIN_MICROPYTHON:
        raise _refuse("MicroPython %s is too old for --target %s: v%s or later is needed"
                      % (fw.version_text, target, targets_mod.version_text()))
    if fw.chip != entry["chip"]:
        raise _refuse("this image is for the %s, --target %s is an %s" % (
            chip_name(fw.chip), target, chip_name(entry["chip"])))
    variant = entry["images"].get(fw.board)
    if variant is None and fw.board == entry.get("stock_board"):
        raise _refuse("this is the stock %s image, without the firmware: --target %s needs "
                      "the %s image, which has the firmware frozen in it (build it as "
                      "docs/targets.md shows)" % (fw.board, target, entry["board"]))
    if variant is None:
        raise _refuse("image for the board %r, which --target %s does not support"
                      % (fw.board, target))
    return variant


def check_frozen(firmware: bytes, target: str, firmware_dir: Path | None = None) -> None:
    """On a target whose image has the firmware frozen in it, refuse an image that lacks
    a module of the firmware at hand (built from an older one): the image names each
    frozen module by its path (frozen_content.c, mp_frozen_names)."""
    if targets_mod.target(target)["code"] != "frozen":
        return
    missing = [name for name in image.frozen_names(target, firmware_dir)
               if b"\0" + name.encode() + b"\0" not in firmware]
    if missing:
        raise FlashError("this image's frozen firmware lacks %d module(s) of the firmware "
                         "here (%s): build the image again from it (docs/targets.md)"
                         % (len(missing), ", ".join(missing[:5])))


def check_device(device: dict, target: str, variant: dict) -> None:
    """Refuse a chip that the target or this image cannot drive."""
    entry = targets_mod.target(target)
    chip = device.get("chip")
    if chip and chip != entry["chip"]:
        raise _refuse("the chip on this port is an %s, --target %s needs an %s"
                      % (chip_name(chip), target, chip_name(entry["chip"])))
    if entry["psram"]:
        psram = device.get("psram") or 0
        module = entry["modules"].get(psram)
        if module is None:
            have = "no PSRAM" if not psram else "%d MB of PSRAM" % (psram // MIB)
            raise _refuse("the module has %s; --target %s needs %s" % (
                have, target, " or ".join("%s (%d MB %s PSRAM)" % (m[0], size // MIB, m[1])
                                          for size, m in sorted(entry["modules"].items()))))
        if module[1] != variant["psram"]:
            want = [i["variant"] for i in entry["images"].values() if i["psram"] == module[1]]
            raise _refuse("a %s module (%s PSRAM) needs the %s image, this is %s"
                          % (module[0], module[1], " or ".join(want), variant["variant"]))


def plan(target: str, firmware: bytes, flash_size: int | None = None,
         lexicon: bytes | None = None, config: dict | None = None,
         firmware_dir: Path | None = None) -> Plan:
    """Everything a new clock of `target` gets, checked against the target."""
    entry = targets_mod.target(target)
    fw = read_firmware(firmware)
    variant = check_firmware(fw, target)
    check_frozen(firmware, target, firmware_dir)
    flash_size = flash_size or entry["flash_size"]
    try:
        # the word list's two partitions after the firmware's own (docs/host-tools.md,
        # "flash-lexicon"); the filesystem is the flash after them
        table = partitions.with_lexicon_slots(fw.table, entry["lexicon_slot"])
        vfs = partitions.filesystem(table, flash_size)
    except partitions.PartitionError as e:
        raise FlashError(str(e)) from None
    if vfs.size < targets_mod.MIN_FILESYSTEM:
        raise FlashError("the filesystem after the word list partitions would be %d KB, "
                         "at least %d KB are needed: the firmware's partitions leave too "
                         "little of the %d MB flash" % (vfs.size // 1024,
                                                        targets_mod.MIN_FILESYSTEM // 1024,
                                                        flash_size // MIB))
    if table != fw.table:
        firmware = partitions.patch_firmware(firmware, table, fw.base)
    p = Plan(target, fw, variant, flash_size, vfs, [Write(fw.base, "firmware", firmware)],
             table)
    try:
        slot = None
        if lexicon is not None:
            # the list goes into the first word list partition, the filesystem names it
            image.check_lexicon(lexicon)
            slot = partitions.lexicon_slots(table)[0]
            if len(lexicon) > slot.size:
                raise FlashError("the word list (%d bytes) does not fit the %s partition "
                                 "(%d bytes)" % (len(lexicon), slot.label, slot.size))
            p.writes.append(Write(slot.offset, slot.label, lexicon))
        fs = image.build_image(vfs.size, target, None, config, firmware_dir,
                               list_slot=slot.label if slot else None,
                               list_image=lexicon if slot else None)
    except image.ImageBuildError as e:
        raise FlashError(str(e)) from None
    p.writes.append(Write(vfs.offset, vfs.label, fs))
    return p


# -- talking to the chip ------------------------------------------------------------------

def esptool_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "esptool", *args]


_CHIP = re.compile(r"(?:Connected to|Chip type:|Chip is)\s+(ESP32(?:-[A-Z0-9]+)?)", re.I)
_PSRAM = re.compile(r"Embedded PSRAM (\d+)MB")


def parse_probe(output: str) -> dict:
    """chip, in-package PSRAM and flash size from `esptool flash-id` output."""
    m = _CHIP.search(output)
    chip = m.group(1).lower().replace("-", "") if m else None
    m = _PSRAM.search(output)
    psram = int(m.group(1)) * MIB if m else 0
    try:
        flash = partitions.parse_flash_size(output)
    except partitions.PartitionError as e:
        raise FlashError(str(e)) from None
    return {"chip": chip, "psram": psram, "flash": flash}


def probe(port: str, timeout: float = 60) -> dict:
    """Ask the chip on `port` what it is (esptool flash-id)."""
    proc = subprocess.run(esptool_cmd("--port", port, "flash-id"), capture_output=True,
                          text=True, timeout=timeout)
    if proc.returncode != 0:
        raise FlashError("esptool flash-id failed: " + (proc.stderr or proc.stdout).strip()[-300:])
    return parse_probe(proc.stdout)


def write_args(port: str, p: Plan, paths: list[str], baud: int = 460800) -> list[str]:
    """esptool arguments that write a plan (esptool verifies what it wrote)."""
    args = ["--chip", p.firmware.chip, "--port", port, "--baud", str(baud), "write-flash",
            "--flash-size", "keep"]
    for w, path in zip(p.writes, paths):
        args += [hex(w.offset), path]
    return args


def merge_args(out: str, p: Plan, paths: list[str]) -> list[str]:
    args = ["--chip", p.firmware.chip, "merge-bin", "-o", out, "--target-offset",
            hex(p.firmware.base)]
    for w, path in zip(p.writes, paths):
        args += [hex(w.offset), path]
    return args


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


def _with_files(p: Plan, work: Callable[[list[str]], object]):
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, w in enumerate(p.writes):
            path = Path(tmp) / ("%d-%s.bin" % (i, w.label))
            path.write_bytes(w.data)
            paths.append(str(path))
        return work(paths)


def merge(out: str | Path, p: Plan) -> None:
    """One file of the whole flash from the bootloader offset on (esptool merge-bin)."""
    _with_files(p, lambda paths: run_esptool(merge_args(str(out), p, paths)))


def provision(port: str, plans: Callable[[int], Plan], baud: int = 460800,
              progress: Callable[[str, int, int], None] | None = None) -> dict:
    """Flash one device: ask the chip, check it against the target, write and verify.
    `plans(flash_size)` gives the plan for a chip with that much flash."""
    if progress:
        progress("detect", 0, 0)
    device = probe(port)
    p = plans(device["flash"])
    check_device(device, p.target, p.variant)
    if progress:
        progress("write", 0, 0)
    _with_files(p, lambda paths: run_esptool(write_args(port, p, paths, baud), progress))
    return {"flash": device["flash"], "psram": device["psram"], "vfs_offset": p.vfs.offset,
            "vfs_size": p.vfs.size, "variant": p.variant["variant"]}
