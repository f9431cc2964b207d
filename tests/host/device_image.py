"""Boot the firmware from the images `clockctl image` writes, on a chip-sized MicroPython.

    images = clockctl_image("s3", out_dir, lexicon=path)     # runs the real CLI
    proc = boot(images, tmp, bits=32, args="memory 9000")    # the game, on that layout

`clockctl_image` runs `python -m host_tools.cli image` (the command users run) with a
MicroPython firmware .bin in the real format (tests/host/esp_firmware.py) and returns
the files it wrote, one per partition.  `boot` gives them to the unix port of
MicroPython built for 32 (or 64) bits from ../shared (tests/mpbuild.py) as the chip
has them:

- the filesystem partition is the fake esp32.Partition "vfs" over a copy of clockctl's
  vfs.bin (the game writes to it); tests/host/chipboot.py mounts it as the port's
  _boot.py does and runs boot.py from it;
- for a target whose image has the firmware frozen in it (the lean target,
  boards/TILECLOCK_WROOM), the interpreter is the unix port with the same firmware
  frozen (tests/mpbuild.py, frozen_interpreter(); tests/unix_manifest.py): code,
  constants and names in the binary, outside the heap, as in the chip's flash;
- for a ROMFS image (a romfs.bin among the images), it is mapped read-only outside the
  heap (`romimage.map`) and mounted at /rom, with /rom and /rom/lib appended to
  sys.path, which is what the port's mp_init does (py/runtime.c, extmod/vfs.c);
- the heap is what the board gives (host_tools/targets.py: a first area of
  `heap_initial`, growing as the port's MICROPY_GC_SPLIT_HEAP_AUTO does up to
  `heap_max`; a fixed heap where both are equal);
- the chip's C modules are the fakes, compiled into their own ROM image at /chip
  together with the test driver (tests/host/runtime_driver.py) and chipboot.py; in the
  frozen interpreter they are frozen beside the firmware instead (code in flash, as the
  chip's C code is), and only their objects take heap.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from host_tools import appimage, partitions
from host_tools.image import compile_mpy
from host_tools.romfs import build_romfs
from host_tools.targets import TARGETS
from tests import mpbuild
from tests.host import esp_firmware

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
FAKES = REPO / "host_tools" / "fakes"
CHIP_MOUNT = "/chip"
FIRMWARE_KIND = {"s3": "s3", "wroom": "wroom"}


def firmware_bin(target: str) -> Path:
    """A MicroPython .bin for `target` (cached in build/firmware/)."""
    return esp_firmware.firmware(FIRMWARE_KIND[target], REPO / "build" / "firmware")


def clockctl_image(target: str, out_dir: Path, lexicon: Path | None = None,
                   config: Path | None = None, flash_size: str | None = None) -> dict:
    """Run `clockctl image`; returns {"firmware": .bin, label: Path of each image}."""
    fw = firmware_bin(target)
    cmd = [sys.executable, "-m", "host_tools.cli", "image", "--target", target,
           "--firmware", str(fw), "--out", str(out_dir)]
    if lexicon:
        cmd += ["--lexicon", str(lexicon)]
    if config:
        cmd += ["--config", str(config)]
    if flash_size:
        cmd += ["--flash-size", flash_size]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    images = {"firmware": fw, "output": proc.stdout}
    for path in Path(out_dir).glob("*.bin"):
        images[path.stem] = path
    return images


def chip_rom(out: Path, driver: Path = HERE / "runtime_driver.py") -> Path:
    """The ROM image of the chip's C modules (the fakes), the driver and chipboot."""
    files = {}
    for src in sorted(FAKES.glob("*.py")) + [Path(driver), HERE / "chipboot.py"]:
        rel = ("runtime_driver" if src == Path(driver) else src.stem) + ".mpy"
        files[rel] = compile_mpy(src, CHIP_MOUNT + "/" + rel)
    out.write_bytes(build_romfs(files))
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def partition_csv(images: dict, flash_size: int) -> str:
    """The partition table the chip sees: the firmware's own, plus the "vfs" partition
    the port registers after the last one (partitions.filesystem)."""
    fw = appimage.read(Path(images["firmware"]).read_bytes())
    table = list(fw.table) + [partitions.filesystem(fw.table, flash_size)]
    return "".join("%s, %d, 0x%x, 0x%x, 0x%x\n" % (p.label, p.type, p.subtype, p.offset, p.size)
                   for p in table)


def prepare(images: dict, folder: Path, flash_size: int) -> dict:
    """A device folder holding the chip's flash as the fakes read it; returns what it
    booted: {"vfs": sha256 of the filesystem partition as written, "rom": path or None}."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "partitions.csv").write_text(partition_csv(images, flash_size))
    shutil.copyfile(images["vfs"], folder / "flash-vfs.bin")
    for label in partitions.LEXICON_SLOTS:     # the word list, in its partition
        if label in images:
            shutil.copyfile(images[label], folder / ("flash-%s.bin" % label))
    return {"vfs": sha256(folder / "flash-vfs.bin"), "rom": images.get("romfs")}


def boot_code(chip_image: Path | None, rom_image: Path | None) -> str:
    """Run first by the interpreter: what the chip's C start-up gives Python.  Without a
    chip image the harness is frozen into the interpreter."""
    lines = ["import romimage, sys, vfs"]
    if rom_image is not None:
        # mp_init: mount the romfs partition at /rom, append /rom and /rom/lib
        lines += ["vfs.mount(vfs.VfsRom(romimage.map(%r)), '/rom')" % str(rom_image),
                  "sys.path.extend(('/rom', '/rom/lib'))"]
    lines.append("sys.path.append('/lib')")                   # ports/esp32/main.c
    if chip_image is not None:
        lines += ["vfs.mount(vfs.VfsRom(romimage.map(%r)), %r)" % (str(chip_image), CHIP_MOUNT),
                  "sys.path.append(%r)" % CHIP_MOUNT]
    lines += ["del romimage, sys, vfs",
              "import chipboot"]
    return "\n".join(lines)


def heap_args(target: str, bits: int) -> tuple[list[str], dict]:
    """-X heapsize and the growth limit of `target`'s board (in 32-bit bytes)."""
    entry = TARGETS[target]
    initial, most = entry["heap_initial"], entry["heap_max"]
    scale = 2 if bits == 64 else 1          # a 64-bit twin gets the same number of words
    env = {} if most == initial else {"TILECLOCK_HEAP_MAX": str(most * scale)}
    return ["-X", "heapsize=%d" % (initial * scale)], env


def boot(images: dict, folder: Path, bits: int = 32, args: str = "memory 9000",
         target: str = "s3", heap: list[str] | None = None, extra_env: dict | None = None,
         timeout: float = 600, driver: Path = HERE / "runtime_driver.py"
         ) -> subprocess.CompletedProcess:
    """Boot the images on the `bits` interpreter; returns the finished process."""
    frozen = TARGETS[target]["code"] == "frozen"
    if frozen and Path(driver) != HERE / "runtime_driver.py":
        raise ValueError("the frozen interpreter has the game driver frozen in it")
    interpreter = mpbuild.frozen_interpreter(bits) if frozen else mpbuild.interpreter(bits)
    folder.mkdir(parents=True, exist_ok=True)
    chip = None if frozen else chip_rom(folder / "chip.img", driver)
    device = folder / "device"
    flash_size = TARGETS[target]["flash_size"]
    booted = prepare(images, device, flash_size)
    heap_opts, env_extra = heap_args(target, bits)
    env = dict(os.environ, MICROPYPATH=".frozen", TILECLOCK_DEVICE_DIR=str(device),
               TC_ARGS=args)
    env.update(env_extra)
    env.update(extra_env or {})
    env.pop("TILECLOCK_SIM", None)
    cmd = [str(interpreter), *(heap or heap_opts), "-c", boot_code(chip, booted["rom"])]
    # stdin: the link's port with no host on it (the link task listens on it): a pipe
    # that stays open and silent until the game ends
    silent, keep = os.pipe()
    try:
        proc = subprocess.run(cmd, cwd=device, env=env, capture_output=True, text=True,
                              timeout=timeout, stdin=silent)
    finally:
        os.close(silent)
        os.close(keep)
    proc.booted = booted
    return proc
