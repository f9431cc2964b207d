# FS_READ: raw bytes of the flash filesystem's partition, for `clockctl flash-lexicon`
# (docs/link-protocol.md).  The host mounts a copy of the filesystem from these reads,
# works out which blocks a new word list takes (free ones: the old list stays whole
# until the directory says otherwise) and writes just those with esptool.  Loaded only
# when asked; reads, never writes.

import json
import struct

PIECE_MAX = 1024
_part = [None]


def _partition():
    if _part[0] is None:
        import esp32

        found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label="vfs")
        if not found:
            found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label="ffat")
        _part[0] = found[0] if found else False
    return _part[0]


def handle(handler, kind, payload):
    from link.handler import LinkError, _int, _load

    part = _partition()
    if not part:
        raise LinkError("E_FS", "no flash filesystem partition on this device")
    obj = _load(payload)
    _, _, offset, size, label, _ = part.info()
    block_size = part.ioctl(5, 0)
    if "block" not in obj:
        return handler._reply(kind, json.dumps({"label": label, "offset": offset, "size": size,
                                                "block_size": block_size}).encode())
    block = _int(obj, "block", 0, size // block_size - 1)
    at = _int(obj, "offset", 0, block_size - 1)
    n = _int(obj, "size", 1, min(PIECE_MAX, block_size - at))
    buf = bytearray(n)
    part.readblocks(block, buf, at)
    return handler._reply(kind, struct.pack("<II", block, at) + buf)
