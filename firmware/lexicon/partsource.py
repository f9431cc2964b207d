# The image in a raw flash partition (esp32.Partition or anything with the same
# readblocks()): a source like lexicon.sources.FileSource, for open_partition().

from micropython import const

_PARTITION_BLOCK = const(4096)  # esp32.Partition's erase block, the unit of readblocks()


class PartitionSource:
    exact = False       # the image fills the partition's start, not all of it

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
