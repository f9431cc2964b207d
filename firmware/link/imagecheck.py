# Checks of a word list image file against its own header
# (docs/wordlist-format.md, sections 1, 2 and 4), one block at a time.

from micropython import const
import binascii

MAGIC = b"TCLX"
MAJOR = 1
STRINGS_OFF = 848
_BLOCK = const(4096)


class ImageError(Exception):
    pass


def _u32(b, o):
    return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)


def _u16(b, o):
    return b[o] | (b[o + 1] << 8)


def _pstr(head, pos, limit):
    n = head[pos]
    if pos + 1 + n > limit:
        raise ImageError("damaged header (strings overrun)")
    try:
        s = bytes(head[pos + 1:pos + 1 + n]).decode("utf-8")
    except Exception:
        raise ImageError("damaged header (bad UTF-8)")
    return s, pos + 1 + n


def read_header(f, size):
    """Parse and check the header of an open image file of `size` bytes.

    Returns a dict: name, version, language, crc (body CRC from the header),
    words, size, header_len, body_offset, body_len.  Raises ImageError.
    """
    f.seek(0)
    pre = f.read(16)
    if len(pre) < 16:
        raise ImageError("truncated image")
    if bytes(pre[0:4]) != MAGIC:
        raise ImageError("not a word list image (bad magic)")
    if pre[4] != MAJOR:
        raise ImageError("unsupported image format version %d.%d" % (pre[4], pre[5]))
    hlen = _u16(pre, 6)
    boff = _u32(pre, 8)
    blen = _u32(pre, 12)
    if hlen < STRINGS_OFF + 4 or boff < hlen or hlen > 8192:
        raise ImageError("damaged header (bad lengths)")
    if size != boff + blen:
        raise ImageError("image is %d bytes, header says %d" % (size, boff + blen))
    f.seek(0)
    head = f.read(hlen)
    if len(head) != hlen:
        raise ImageError("truncated header")
    if binascii.crc32(memoryview(head)[:hlen - 4]) & 0xFFFFFFFF != _u32(head, hlen - 4):
        raise ImageError("damaged header (CRC mismatch)")
    lang, pos = _pstr(head, STRINGS_OFF, hlen - 4)
    name, pos = _pstr(head, pos, hlen - 4)
    version, pos = _pstr(head, pos, hlen - 4)
    return {"name": name, "version": version, "language": lang,
            "crc": _u32(head, 16), "words": _u32(head, 20), "size": size,
            "header_len": hlen, "body_offset": boff, "body_len": blen}


def file_size(path):
    import os
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def info(path):
    """The header of the image at `path` (not the body CRC check), or None."""
    size = file_size(path)
    if size < 0:
        return None
    try:
        with open(path, "rb") as f:
            return read_header(f, size)
    except ImageError:
        return None
    except OSError:
        return None


def verify_steps(path, whole_crc=None, whole_size=None, block=_BLOCK):
    """Check a whole image file; a generator that yields (done, total) after each
    block read, so that the caller can let other tasks run, and finally yields
    the header dict.  Raises ImageError on any mismatch."""
    size = file_size(path)
    if size < 0:
        raise ImageError("no image file")
    if whole_size is not None and size != whole_size:
        raise ImageError("received %d bytes, expected %d" % (size, whole_size))
    buf = bytearray(block)
    mv = memoryview(buf)
    with open(path, "rb") as f:
        hdr = read_header(f, size)
        boff = hdr["body_offset"]
        f.seek(0)
        pos = 0
        whole = 0
        body = 0
        while pos < size:
            n = f.readinto(buf)
            if not n:
                raise ImageError("short read at %d" % pos)
            chunk = mv[:n]
            whole = binascii.crc32(chunk, whole)
            if pos + n > boff:
                start = boff - pos if boff > pos else 0
                body = binascii.crc32(chunk[start:], body)
            pos += n
            yield (pos, size)
    if body & 0xFFFFFFFF != hdr["crc"]:
        raise ImageError("damaged body (CRC mismatch)")
    if whole_crc is not None and whole & 0xFFFFFFFF != whole_crc:
        raise ImageError("image CRC differs from the announced one")
    yield hdr


def prefix_crc_steps(path, length, block=_BLOCK):
    """CRC-32 of the first `length` bytes of a file; yields None per block, then the CRC."""
    buf = bytearray(block)
    mv = memoryview(buf)
    crc = 0
    pos = 0
    with open(path, "rb") as f:
        while pos < length:
            want = length - pos
            n = f.readinto(buf) if want >= block else f.readinto(mv[:want])
            if not n:
                break
            crc = binascii.crc32(mv[:n], crc)
            pos += n
            yield None
    yield crc & 0xFFFFFFFF
