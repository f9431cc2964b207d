"""ROMFS images of the firmware: code that runs in place from memory-mapped flash.

A MicroPython build with ROMFS (`vfs.VfsRom`; the ESP32_GENERIC board's ROMFS variant has
a `romfs` partition) mounts the image at /rom and imports .mpy files from it *in place*:
bytecode, strings and bytes constants stay in flash and only the objects the code creates
live in the GC heap, as with frozen modules.  Loaded from LittleFS instead, every module's
bytecode is copied into the heap (about 180 KB for this firmware on the 64-bit unix port),
which the ESP32's ~100 KB heap cannot hold.

`build_romfs()` compiles the firmware (and any extra folders, e.g. the chip's fakes for the
host tests) with our mpy-cross and packs the .mpy tree with mpremote's own ROMFS writer
(`mpremote.romfs.make_romfs`, what `mpremote romfs build/deploy` uses).  `main.py`,
`boot.py` and the packages' freeze manifests stay out: MicroPython starts main.py from the
read-write filesystem, and manifests are read by the host only.

`run(image, argv)` is the host's stand-in for the chip: it places the image in memory
outside MicroPython's GC heap (as flash is), runs the unix port of MicroPython in this
process (`micropython_run`, the interpreter behind .venv/bin/micropython) and mounts the
image at /rom before anything else is imported:

    python -m host_tools.romfs run ROM.img [--heapsize 100K] [--path P] -c CODE | -m MODULE
    python -m host_tools.romfs build OUT.img [--extra DIR ...]
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

from host_tools.image import DRIVERS, FIRMWARE, SOURCE_ONLY, compile_mpy

ROM_ADDR_ENV = "TILECLOCK_ROM_ADDR"
ROM_SIZE_ENV = "TILECLOCK_ROM_SIZE"
MOUNT_POINT = "/rom"
ROMFS_HEADER = b"\xd2\xcd\x31"

# Runs first inside MicroPython: mount the image held at ROM_ADDR_ENV as /rom and put
# /rom and /rom/lib first on the path (what a ROMFS build does in mp_init()).
MOUNT_CODE = (
    "import os, sys, uctypes, vfs\n"
    "vfs.mount(vfs.VfsRom(uctypes.bytearray_at(int(os.getenv('{addr}')), "
    "int(os.getenv('{size}')))), '{mp}')\n"
    "sys.path.insert(0, '{mp}/lib')\n"
    "sys.path.insert(0, '{mp}')\n"
    "del os, sys, uctypes, vfs\n"
).format(addr=ROM_ADDR_ENV, size=ROM_SIZE_ENV, mp=MOUNT_POINT)


def _skip(rel: str) -> bool:
    return rel in SOURCE_ONLY or rel.rsplit("/", 1)[-1] == "manifest.py"


def rom_files(firmware_dir: Path = FIRMWARE, extra_dirs=(), drivers=DRIVERS,
              extra_files=()) -> dict[str, bytes]:
    """ROM path -> .mpy for the firmware, the published drivers (in lib/), every .py of
    each folder in `extra_dirs` (at the root) and each file of `extra_files`."""
    from host_tools.drivers import driver_path

    def mpy(src, rel):
        # The name a traceback shows is the module's path under /rom, the same string as
        # its __file__: one qstr per module instead of two.
        return compile_mpy(src, MOUNT_POINT + "/" + rel)

    files = {}
    for src in sorted(Path(firmware_dir).rglob("*.py")):
        if "__pycache__" in src.parts:
            continue
        rel = src.relative_to(firmware_dir).as_posix()
        if not _skip(rel):
            files[rel[:-3] + ".mpy"] = mpy(src, rel[:-3] + ".mpy")
    for name in drivers:
        files["lib/" + name + ".mpy"] = mpy(driver_path(name), "lib/" + name + ".mpy")
    sources = [p for d in extra_dirs for p in sorted(Path(d).glob("*.py"))] + list(extra_files)
    for src in sources:
        src = Path(src)
        files[src.stem + ".mpy"] = mpy(src, src.stem + ".mpy")
    return files


def build_romfs(firmware_dir: Path = FIRMWARE, extra_dirs=(), drivers=DRIVERS,
                extra_files=()) -> bytes:
    """A ROMFS image (mpremote's format) of `rom_files(...)`."""
    from mpremote.romfs import make_romfs

    files = rom_files(firmware_dir, extra_dirs, drivers, extra_files)
    with tempfile.TemporaryDirectory() as tmp:
        for rel, data in files.items():
            target = Path(tmp, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        with contextlib.redirect_stdout(io.StringIO()):   # make_romfs prints the tree
            return make_romfs(tmp, mpy_cross=False)


def run(image: bytes, argv: list[str], heapsize: str | None = None) -> int:
    """Run MicroPython in this process with `image` mounted at /rom.

    `argv` is what follows the interpreter's options: `["-c", code]` (the code runs after
    the mount) or `["-m", module]`.  The image is copied into a buffer that CPython owns,
    outside MicroPython's heap, and stays alive while the interpreter runs."""
    import ctypes

    import micropython_run

    if not image.startswith(ROMFS_HEADER):
        raise ValueError("not a ROMFS image")
    rom = (ctypes.c_char * len(image)).from_buffer_copy(image)
    os.environ[ROM_ADDR_ENV] = str(ctypes.addressof(rom))
    os.environ[ROM_SIZE_ENV] = str(len(image))
    if len(argv) != 2 or argv[0] not in ("-c", "-m"):
        raise ValueError("argv must be ['-c', code] or ['-m', module]")
    code = MOUNT_CODE + (argv[1] if argv[0] == "-c" else "import " + argv[1])
    cmd = ["micropython"] + (["-X", "heapsize=" + heapsize] if heapsize else []) + ["-c", code]
    sys.stdout.flush()
    rc = micropython_run.run_main(cmd)
    del rom
    return rc or 0


def main(args=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m host_tools.romfs",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the firmware's ROMFS image")
    b.add_argument("out")
    b.add_argument("--extra", action="append", default=[], help="also every .py of this folder")
    r = sub.add_parser("run", help="run MicroPython with a ROMFS image mounted at /rom")
    r.add_argument("image")
    r.add_argument("--heapsize")
    g = r.add_mutually_exclusive_group(required=True)
    g.add_argument("-c", dest="code")
    g.add_argument("-m", dest="module")
    ns = ap.parse_args(args)
    if ns.cmd == "build":
        data = build_romfs(extra_dirs=ns.extra)
        Path(ns.out).write_bytes(data)
        print("%s: ROMFS image of %d bytes" % (ns.out, len(data)))
        return 0
    image = Path(ns.image).read_bytes()
    argv = ["-c", ns.code] if ns.code is not None else ["-m", ns.module]
    return run(image, argv, ns.heapsize)


if __name__ == "__main__":
    sys.exit(main())
