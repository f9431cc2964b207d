"""ROMFS images: .mpy files that a MicroPython build with ROMFS (`MICROPY_VFS_ROM`)
imports in place from memory-mapped flash, bytecode and constants staying out of the
heap.  No clock's image uses it (the lean target has its firmware frozen into the image,
docs/targets.md); the memory tests map such an image outside the heap of their unix port
for the code that stands for the chip's C modules (tests/host/device_image.py).

`build_romfs(files)` packs a tree with mpremote's own ROMFS writer
(`mpremote.romfs.make_romfs`, what `mpremote romfs build` uses).
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

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
