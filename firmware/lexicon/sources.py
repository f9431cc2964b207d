# Where the image bytes come from: a file on the device's LittleFS, or a raw
# flash partition (esp32.Partition or anything with the same readblocks()).
# A source only reads; the reader's cache decides what and when.

from micropython import const
import os

_PARTITION_BLOCK = const(4096)  # esp32.Partition's erase block, the unit of readblocks()


class FileSource:
    def __init__(self, path):
        self.file = open(path, "rb")
        self.size = os.stat(path)[6]

    def read_at(self, offset, buf):
        """Fill buf from offset; returns the bytes read (fewer at the end)."""
        self.file.seek(offset)
        n = self.file.readinto(buf)
        return n if n else 0

    def close(self):
        self.file.close()


class PartitionSource:
    def __init__(self, partition):
        self.partition = partition
        self.size = partition.info()[3]     # (type, subtype, addr, size, label, encrypted)
        self.block = partition.ioctl(5, 0) or _PARTITION_BLOCK    # 5: the block size it was opened with

    def read_at(self, offset, buf):
        n = len(buf)
        if offset + n > self.size:
            n = self.size - offset
            if n <= 0:
                return 0
            buf = memoryview(buf)[:n]
        # The extended form reads any length at any offset inside the partition.
        self.partition.readblocks(offset // self.block, buf, offset % self.block)
        return n

    def close(self):
        pass
