# push-lexicon into a word list partition (docs/link-protocol.md, section 4.8).
# Loaded by link/handler.py only on a clock whose partition table has the word list
# partitions (lexicon/slots.py): there the upload goes into the partition not in use,
# never into the filesystem, and never into the partition whose list is in use.
#
# The partition is written as the chunks arrive: each 4 KB sector is erased when the
# first byte of it comes, then programmed.  lexicon.job, {"size", "crc", "slot", "have"},
# names the partition and the bytes written and read back so far; it is rewritten
# (aside, then renamed over the old one) at every read-back, which falls on a sector
# boundary, so a restart resumes at a sector start and erases that sector again.

from micropython import const
import binascii
import json
import os

from lexicon import slots

SECTOR = const(4096)     # esp32.Partition's erase block (slots.partition opens it so)


def capacity(part):
    return part.info()[3]


def resumable(disk, size, crc):
    """(label, have) to resume the job `disk` (lexicon.job) for this image, or None."""
    if not disk or disk.get("size") != size or disk.get("crc") != crc:
        return None
    label, have = disk.get("slot"), disk.get("have")
    if label not in slots.LABELS or label == slots.selected():
        return None      # the partition now holds the list in use: begin anew elsewhere
    if slots.partition(label) is None or not isinstance(have, int) or not 0 <= have <= size:
        return None
    if have != size:
        have -= have % SECTOR
    return label, have


def save(path, size, crc, label, have):
    """Record the job and its progress: aside, then one rename."""
    with open(path + ".tmp", "w") as f:
        f.write(json.dumps({"size": size, "crc": crc, "slot": label, "have": have}))
    os.rename(path + ".tmp", path)


def write(label, part, offset, data):
    """Program `data` at `offset` of partition `part` (labelled `label`), erasing every
    sector that begins inside it first (the bytes before `offset` are written already)."""
    n = len(data)
    sector = (offset + SECTOR - 1) // SECTOR
    while sector * SECTOR < offset + n:
        if label == slots.selected():
            raise OSError("%s holds the list in use" % label)
        part.ioctl(6, sector)      # erase one block
        sector += 1
    part.writeblocks(offset // SECTOR, data, offset % SECTOR)


def crc_steps(part, start, end):
    """CRC-32 of bytes start..end of partition `part`; yields None per piece, then it."""
    buf = bytearray(512)
    mv = memoryview(buf)
    crc = 0
    while start < end:
        n = min(end - start, len(buf))
        part.readblocks(start // SECTOR, mv[:n], start % SECTOR)
        crc = binascii.crc32(mv[:n], crc)
        start += n
        yield None
    yield crc & 0xFFFFFFFF


def crc_of(part, start, end):
    crc = 0
    for item in crc_steps(part, start, end):
        if item is not None:
            crc = item
    return crc
