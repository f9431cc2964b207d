"""`clockctl flash-lexicon`: a word list written by esptool into the clock's word list
partition that is not in use, then checked and switched to by the firmware.

The word list has two raw flash partitions of its own, `lexa` and `lexb`
(host_tools/partitions.with_lexicon_slots, written into the partition table by
`clockctl flash`); the file `lexicon.slot` on the clock names the one in use
(firmware/lexicon/slots.py).  The firmware never writes either partition, and
esptool writes nothing else, so no byte esptool writes can belong to anything the
firmware writes meanwhile (the game log, the settings, the game state in NVS):

1. Over the link (LEX_SLOT, docs/link-protocol.md) the clock names the partition not
   in use, with its offset and size as its own partition table gives them.  A clock of
   the older layout has no such partitions and is refused before anything is written.
2. esptool's `write-flash` writes the image at that partition's offset (compressed,
   checked by MD5, at 921600 baud by default; it erases the sectors it writes), then
   resets the chip.
3. Over the link (LEX_ADOPT) the firmware reads the image back from the partition,
   checks it in full (header, every page, the CRC-32 of the whole image) and switches
   by one rename of `lexicon.slot`; INFO shows the new list.

If the write fails (cable pulled, a damaged block refused by the loader) the list in use
was never touched and nothing switches to the half-written partition.  A game in
progress is never ended: without --force nothing is written; with --force the clock
restarts (esptool resets it), recovers its game, switches to the new list and the game
goes on, its next challenges judged by the new list.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from host_tools import flashing

BAUD = 921600
REFLASH = ("this clock was provisioned before word lists had partitions of their own: "
           "reflash it with clockctl flash (or send the list with clockctl push-lexicon)")


class LexFlashError(RuntimeError):
    pass


def slot(link, image: bytes) -> dict:
    """Where esptool may write `image` on the clock behind `link`: {"label", "offset",
    "size"} of the word list partition not in use.  LexFlashError for a clock without
    such partitions, or a partition too small."""
    from host_tools.link import DeviceError

    try:
        reply = link.lexicon_slot()
    except DeviceError as e:
        if e.code == "E_TYPE":           # a firmware from before LEX_SLOT
            raise LexFlashError(REFLASH) from None
        if e.code == "E_SLOT":           # the firmware, on a partition table without them
            raise LexFlashError(e.msg) from None
        raise
    where = reply.get("write") or {}
    try:
        label, offset, size = str(where["label"]), int(where["offset"]), int(where["size"])
    except (KeyError, TypeError, ValueError):
        raise LexFlashError("the clock named no word list partition: %r" % (reply,)) from None
    if offset <= 0 or offset % 0x1000:
        raise LexFlashError("the clock names partition %s at 0x%x, not on a sector" % (label, offset))
    if len(image) > size:
        raise LexFlashError("the word list (%d bytes) does not fit the clock's %s partition "
                            "(%d bytes)" % (len(image), label, size))
    return {"label": label, "offset": offset, "size": size, "active": reply.get("active")}


def write_args(port: str, chip: str, offset: int, path: str, baud: int = BAUD) -> list[str]:
    return ["--chip", chip, "--port", port, "--baud", str(baud), "--before", "default-reset",
            "--after", "hard-reset", "write-flash", "--flash-size", "keep", hex(offset), path]


def write(port: str, chip: str, offset: int, image: bytes, baud: int = BAUD,
          progress=None) -> str:
    """esptool write-flash of the image at `offset` (it compresses, erases the sectors it
    writes, and checks the MD5 on the chip after writing); the chip is reset at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("lexicon-0x%x.bin" % offset)
        path.write_bytes(image)
        if progress:
            progress("write", 0, 100)
        return flashing.run_esptool(write_args(port, chip, offset, str(path), baud), progress,
                                    "write")


def adopt(link, label: str, image: bytes, force: bool = False, progress=None,
          timeout: float | None = None) -> dict:
    """After the write: the firmware checks the image in partition `label` in full and
    switches to it (LEX_ADOPT); returns the list the clock now uses."""
    from host_tools.link import DeviceError

    if progress:
        progress("verify", 0, len(image))
    try:
        done = link.adopt_lexicon(label, image, force=force, timeout=timeout)
    except DeviceError as e:
        if e.code == "E_GAME":
            raise LexFlashError("a game started on the clock before it switched: the new list "
                                "waits unused in %s; run flash-lexicon again after the game, "
                                "or with --force, the list in use stays" % label) from None
        if e.code in ("E_VERIFY", "E_SLOT"):
            raise LexFlashError(e.msg if "stays" in e.msg else
                                e.msg + "; the old list stays in use") from None
        raise
    return done.get("lexicon") or {}
