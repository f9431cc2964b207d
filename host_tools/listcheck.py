"""The device's own full check of a word list, run on the host before provisioning.

A clock answers from a list only after `firmware/lexicon/check.py` walked it whole
(docs/wordlist-format.md, section 6) and recorded its digest in `lexicon.ok`.  A chip
runs that walk many times slower than the host, so `clockctl flash` and `clockctl image`
run the very same firmware code here, under the `micropython` interpreter the tools
install, and write the record into the clock's filesystem beside the list: the clock's
first start then opens the list by its header, as after an install over the link.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile

from host_tools import resources

RECORD_FILE = "lexicon.ok"      # firmware/app/__init__.py VERIFIED

# Runs inside micropython: the firmware's check on the image file; prints its digest.
_SCRIPT = """
import sys
sys.path[:0] = [%r, %r]
from lexicon import LexiconError
from lexicon.reader import open_source
from lexicon.sources import FileSource
try:
    lex = open_source(FileSource(%r), resident_bytes=0)
except LexiconError as e:
    print("REFUSED", e.kind, e.args[0] if e.args else "")
else:
    print("DIGEST", lex.digest)
"""

_done: dict[str, str] = {}     # sha256 of an image -> its digest (a fleet: one check)


class ListCheckError(ValueError):
    pass


def checked_digest(image: bytes) -> str:
    """The digest the device records for `image` after its full check (the check run
    here); ListCheckError if the firmware refuses the image."""
    key = hashlib.sha256(image).hexdigest()
    if key in _done:
        return _done[key]
    from host_tools.sim.device import micropython_command

    fd, path = tempfile.mkstemp(suffix=".dawg")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(image)
        script = _SCRIPT % (str(resources.firmware_dir()), str(resources.fakes_dir()), path)
        proc = subprocess.run(micropython_command() + ["-X", "heapsize=8M", "-c", script],
                              capture_output=True, text=True, timeout=1800)
    finally:
        os.remove(path)
    line = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    kind, _, rest = line.partition(" ")
    if proc.returncode != 0 or kind not in ("DIGEST", "REFUSED") or not rest:
        raise ListCheckError("the word list check did not run: %s"
                             % (proc.stderr or proc.stdout).strip()[-500:])
    if kind == "REFUSED":
        raise ListCheckError("the clock's check refuses the word list: %s" % rest)
    _done[key] = rest       # "crc size", as firmware/lexicon/opening.py makes it
    return rest
