"""ROMFS images of the firmware: code that runs in place from memory-mapped flash.

A MicroPython build with ROMFS (`MICROPY_VFS_ROM`, off in every stock ESP32 image;
docs/targets.md) mounts the partition labelled `romfs` at /rom at start-up, appends
/rom and /rom/lib to `sys.path`, and imports .mpy files from it *in place*: bytecode,
strings and bytes constants stay in flash and only the objects the code creates live in
the GC heap.  That is the lean target's layout ("wroom" in host_tools/targets.py).

`firmware_romfs(target)` compiles the firmware of the target (host_tools/image.py,
`firmware_tree`) with each module named by its path under /rom (the name a traceback
shows is then also the module's __file__: one qstr for both) and packs the tree with
mpremote's own ROMFS writer (`mpremote.romfs.make_romfs`, what `mpremote romfs build`
uses).  `clockctl image --target wroom` and `clockctl flash --target wroom` write it.

    python -m host_tools.romfs OUT.img [--target wroom]
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

from host_tools import image

MOUNT_POINT = "/rom"
ROMFS_HEADER = b"\xd2\xcd\x31"


def build_romfs(files: dict[str, bytes]) -> bytes:
    """A ROMFS image (mpremote's format) holding `files` (path -> bytes)."""
    from mpremote.romfs import make_romfs

    with tempfile.TemporaryDirectory() as tmp:
        for rel, data in files.items():
            target = Path(tmp, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        with contextlib.redirect_stdout(io.StringIO()):   # make_romfs prints the tree
            return make_romfs(tmp, mpy_cross=False)


def rom_files(target: str = "wroom", firmware_dir: Path | None = None,
              drivers=image.DRIVERS) -> dict[str, bytes]:
    """ROM path -> .mpy: the firmware of `target` and the published drivers (in lib/)."""
    return image.firmware_tree(target, firmware_dir, drivers, prefix=MOUNT_POINT + "/")


def firmware_romfs(target: str = "wroom", firmware_dir: Path | None = None,
                   drivers=image.DRIVERS) -> bytes:
    return build_romfs(rom_files(target, firmware_dir, drivers))


def main(args=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m host_tools.romfs",
                                 description="build the firmware's ROMFS image")
    ap.add_argument("out")
    ap.add_argument("--target", default="wroom")
    ns = ap.parse_args(args)
    data = firmware_romfs(ns.target)
    Path(ns.out).write_bytes(data)
    print("%s: ROMFS image of %d bytes" % (ns.out, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
