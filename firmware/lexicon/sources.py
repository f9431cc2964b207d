# Where the image bytes come from: a file on the device's LittleFS (here), or a raw
# flash partition (lexicon/partsource.py, loaded only for one).
# A source only reads; the reader's cache decides what and when.

import os


class FileSource:
    exact = True        # the image is the whole file: its size is the image's

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
