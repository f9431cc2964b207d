# File helpers for the device's LittleFS (and the simulated device folder).
# Paths are relative to the current directory, never with a leading "/".

import os


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def makedirs(path):
    """Create path and its parents (os.makedirs is not on the chip)."""
    built = ""
    for part in path.split("/"):
        if not part:
            continue
        built = part if not built else built + "/" + part
        if not exists(built):
            try:
                os.mkdir(built)
            except OSError:
                if not exists(built):
                    raise


def write_atomic(path, data):
    """Write all of data to path, replacing it only once the new file is complete.

    The temp file is written and closed (flushed) first; the rename then swaps
    it in, so a power cut leaves either the old or the new file, never a part.
    """
    tmp = path + ".tmp"
    with open(tmp, "wb" if isinstance(data, (bytes, bytearray)) else "w") as f:
        f.write(data)
    try:
        os.rename(tmp, path)
    except OSError:
        # Filesystems that refuse to rename over an existing file.
        remove(path)
        os.rename(tmp, path)
