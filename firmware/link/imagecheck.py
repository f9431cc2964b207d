# Checks of a word list image, in a file or at the start of a raw flash partition
# (docs/wordlist-format.md, sections 1, 2, 5 and 6), before the link installs it: the
# device's own reader parses the header (so the link accepts exactly what the reader
# will open: same header limit, same tables), then the full check (lexicon/check.py:
# every page, the body CRC, and the graph walked word by word against the header) runs
# a step at a time.

from micropython import const
import os

from lexicon.check import steps
from lexicon.format import MAX_HEADER, LexiconError  # noqa: F401 (the one limit)
from lexicon.reader import Lexicon
from lexicon.sources import FileSource

_BLOCK = const(4096)
_CHECK_CACHE = const(1088)      # the check's page cache: 4 slots, as on the lean target


class ImageError(Exception):
    pass


def file_size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def _message(e):
    if e.kind == "unsupported":
        return "unsupported image format (%s): pack the list again" % e.args[0].split(": ", 1)[-1]
    detail = e.args[0].split(": ", 1)[-1] if ": " in e.args[0] else e.kind
    if detail == "the list holds no words":
        return "the word list holds no words"
    if detail.startswith("page") or detail.startswith("body"):
        return "damaged body (%s)" % detail
    return "damaged image (%s)" % detail


def _open(path, cache=0):
    return _open_source(FileSource(path), cache)


def _partition_source(part):
    from lexicon.partsource import PartitionSource

    return PartitionSource(part)


def _open_source(source, cache=0):
    try:
        return Lexicon(source, cache, verify=False)
    except LexiconError as e:
        source.close()
        raise ImageError(_message(e))
    except BaseException as e:
        source.close()
        raise e


def _header(lex, size):
    return {"name": lex.name, "version": lex.version, "language": lex.language,
            "crc": lex.body_crc, "words": lex.word_count, "size": size,
            "header_len": lex.body_offset, "body_offset": lex.body_offset,
            "body_len": lex.body_len, "digest": lex.digest}


def info(path):
    """The header of the image at `path` (not the body check), or None."""
    size = file_size(path)
    if size < 0:
        return None
    try:
        lex = _open(path)
    except Exception:       # whatever the file holds: INFO answers (without a list)
        return None
    try:
        return _header(lex, size)
    finally:
        lex.close()


def info_partition(part):
    """The header of the image at the start of partition `part`, or None."""
    try:
        lex = _open_source(_partition_source(part))
    except Exception:       # whatever the partition holds: INFO answers (without a list)
        return None
    return _header(lex, lex.body_offset + lex.body_len)


def verify_steps(path, whole_crc=None, whole_size=None):
    """Check a whole image file; a generator that yields (done, total) pages as it
    goes, so that the caller can let other tasks run, and finally yields the header
    dict (with the digest the device records).  Raises ImageError on any mismatch."""
    size = file_size(path)
    if size < 0:
        raise ImageError("no image file")
    if whole_size is not None and size != whole_size:
        raise ImageError("received %d bytes, expected %d" % (size, whole_size))
    return _verify(_open(path, _CHECK_CACHE), size, whole_crc)


def verify_partition_steps(part, whole_crc, whole_size):
    """verify_steps() of the image at the start of partition `part`, which must be
    `whole_size` bytes long (by its header) with the CRC-32 `whole_crc`."""
    lex = _open_source(_partition_source(part), _CHECK_CACHE)
    size = lex.body_offset + lex.body_len
    if size != whole_size:
        lex.close()
        raise ImageError("the partition holds an image of %d bytes, expected %d"
                         % (size, whole_size))
    return _verify(lex, size, whole_crc)


def _verify(lex, size, whole_crc):
    whole = [0]
    try:
        for item in steps(lex, whole=whole):
            yield item
    except LexiconError as e:
        raise ImageError(_message(e))
    except MemoryError:
        raise ImageError("not enough memory to check the list")
    finally:
        lex.close()
    if whole_crc is not None and whole[0] != whole_crc:
        raise ImageError("image CRC differs from the announced one")
    yield _header(lex, size)


def prefix_crc_steps(path, length, block=_BLOCK):
    """CRC-32 of the first `length` bytes of a file; yields None per block, then the CRC."""
    import binascii

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
