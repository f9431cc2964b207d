"""`clockctl flash-lexicon`: a word list written into a clock's flash by esptool, the
way `push-lexicon` would leave it, then checked and swapped in by the firmware.

What is written (docs/host-tools.md, "flash-lexicon"):

1. Over the link the host mounts a copy of the clock's LittleFS filesystem: littlefs
   reads the blocks it needs (directories, the files' block lists) through the
   firmware's FS_READ request; nothing is read twice.
2. Into that copy it writes what an interrupted `push-lexicon` leaves: the image as
   `lexicon.new` and the transfer record `lexicon.job` (size and CRC).  LittleFS puts
   the new file in free blocks and records it with a commit in the directory blocks;
   `lexicon.dawg`, the settings, the logs, the firmware files and everything else keep
   their blocks.  The game state is in NVS, outside the filesystem.
3. esptool's `write-flash` writes exactly the blocks that changed (compressed and
   checked by MD5, at 921600 baud by default), then resets the chip.
4. Over the link, as `push-lexicon` ends: LEX_BEGIN finds the whole file (the device
   reads it back for its CRC), LEX_COMMIT checks the whole image and swaps it in by
   one rename, INFO shows the new list.

If the write fails (cable pulled, a damaged byte refused by the loader) the old
`lexicon.dawg` was never touched: the clock keeps answering with it, and the CRC of
whatever part of `lexicon.new` arrived does not match, so nothing is swapped in.
"""

from __future__ import annotations

import json
import tempfile
import zlib
from pathlib import Path
from typing import Callable

from host_tools import flashing

NEW = "lexicon.new"
JOB = "lexicon.job"
PIECE = 128                 # bytes per FS_READ (the littlefs cache below)
BAUD = 921600


class LexFlashError(RuntimeError):
    pass


class LinkBlocks:
    """A littlefs block device over the link: reads come from the clock (once), erases
    and programs go to a copy; `changed()` lists the blocks that differ."""

    def __init__(self, read: Callable[[int, int, int], bytes], block_size: int):
        self.read_piece = read
        self.block_size = block_size
        self.blocks: dict[int, bytearray] = {}
        self.known: dict[int, set[int]] = {}
        self.dirty: set[int] = set()
        self.reads = 0

    def _fetch(self, block: int, off: int, size: int) -> None:
        data = self.blocks.setdefault(block, bytearray(b"\xff" * self.block_size))
        known = self.known.setdefault(block, set())
        first = off - off % PIECE
        for at in range(first, off + size, PIECE):
            if at not in known:
                data[at:at + PIECE] = self.read_piece(block, at, PIECE)
                known.add(at)
                self.reads += 1

    # littlefs-python's context interface
    def read(self, cfg, block, off, size):
        if block not in self.dirty:
            self._fetch(block, off, size)
        return self.blocks[block][off:off + size]

    def prog(self, cfg, block, off, data):
        if block not in self.dirty:
            # a commit appended to a block in use: esptool rewrites the whole block
            self._fetch(block, 0, self.block_size)
            self.dirty.add(block)
        self.blocks[block][off:off + len(data)] = data
        return 0

    def erase(self, cfg, block):
        self.blocks[block] = bytearray(b"\xff" * self.block_size)
        self.known[block] = set(range(0, self.block_size, PIECE))
        self.dirty.add(block)
        return 0

    def sync(self, cfg):
        return 0

    def changed(self) -> list[int]:
        return sorted(self.dirty)


def stage(link, image: bytes, progress=None) -> tuple[dict, list[tuple[int, bytes]]]:
    """The flash writes that stage `image` as lexicon.new on the clock behind `link`:
    (the filesystem's layout, [(flash offset, bytes)]), neighbouring blocks joined."""
    from littlefs import LittleFS, LittleFSError

    layout = link.fs_layout()
    bs = int(layout["block_size"])
    dev = LinkBlocks(link.fs_read, bs)
    if progress:
        progress("read", 0, 0)
    try:
        # MicroPython's VfsLfs2 settings (extmod/vfs_lfsx.c): 32-byte reads and
        # programs, 32-byte lookahead.  mount=False: littlefs-python formats what it
        # cannot mount, which here would throw the clock's files away.
        fs = LittleFS(context=dev, block_size=bs, block_count=int(layout["size"]) // bs,
                      read_size=32, prog_size=32, cache_size=PIECE, lookahead_size=32,
                      name_max=255, mount=False)
        fs.mount()
        for name in (NEW, JOB):
            try:
                fs.remove(name)
            except (LittleFSError, FileNotFoundError):
                pass
        with fs.open(NEW, "wb") as f:
            f.write(image)
        with fs.open(JOB, "w") as f:
            f.write(json.dumps({"size": len(image), "crc": zlib.crc32(image) & 0xFFFFFFFF}))
        fs.unmount()
    except LittleFSError as e:
        if "NOSPC" in str(e) or getattr(e, "code", 0) == -28:
            raise LexFlashError("the clock's filesystem has no room for the new list beside "
                                "the old one (%d bytes)" % len(image)) from None
        raise LexFlashError("the clock's filesystem could not be read: %s" % e) from None
    writes: list[tuple[int, bytes]] = []
    for block in dev.changed():
        addr = int(layout["offset"]) + block * bs
        if writes and writes[-1][0] + len(writes[-1][1]) == addr:
            writes[-1] = (writes[-1][0], writes[-1][1] + bytes(dev.blocks[block]))
        else:
            writes.append((addr, bytes(dev.blocks[block])))
    return {"layout": layout, "reads": dev.reads, "blocks": len(dev.changed())}, writes


def write_args(port: str, chip: str, writes: list[tuple[int, str]], baud: int = BAUD) -> list[str]:
    args = ["--chip", chip, "--port", port, "--baud", str(baud), "--before", "default-reset",
            "--after", "hard-reset", "write-flash", "--flash-size", "keep"]
    for offset, path in writes:
        args += [hex(offset), path]
    return args


def write(port: str, chip: str, writes: list[tuple[int, bytes]], baud: int = BAUD,
          progress=None) -> str:
    """esptool write-flash of the staged blocks (it compresses, and checks each region's
    MD5 on the chip after writing); the chip is reset at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, (offset, data) in enumerate(writes):
            path = Path(tmp) / ("%02d-0x%x.bin" % (i, offset))
            path.write_bytes(data)
            files.append((offset, str(path)))
        if progress:
            progress("write", 0, 100)
        return flashing.run_esptool(write_args(port, chip, files, baud), progress, "write")


def adopt(link, image: bytes, progress=None, commit_timeout: float = 120.0) -> dict:
    """After the write: the device finds the whole lexicon.new, checks the image in full
    and swaps it in (LEX_BEGIN, LEX_COMMIT, as push-lexicon ends)."""
    from host_tools.link import LEX_BEGIN, LEX_COMMIT, crc32

    spec = {"size": len(image), "crc": crc32(image)}
    if progress:
        progress("verify", 0, len(image))
    begin = link.request_json(LEX_BEGIN, spec, timeout=max(link.timeout, 10.0))
    have = begin.get("have", 0)
    if have != len(image) or begin.get("crc") != spec["crc"]:
        link.abort_lexicon()
        raise LexFlashError("the list esptool wrote is not whole on the clock (%d of %d bytes "
                            "match); nothing was swapped in, the old list stays in use"
                            % (have if begin.get("crc") == crc32(image[:have]) else 0,
                               len(image)))
    done = link.request_json(LEX_COMMIT, spec, timeout=commit_timeout, retries=1)
    return done.get("lexicon") or {}
