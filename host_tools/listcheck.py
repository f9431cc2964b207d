"""The device's own full check of a word list, run on the host before provisioning.

A clock answers from a list only after `firmware/lexicon/check.py` walked it whole
(docs/wordlist-format.md, section 6) and recorded its digest in `lexicon.ok`.  A chip
runs that walk many times slower than the host, so `clockctl flash` and `clockctl image`
run the very same firmware code here, under the `micropython` interpreter the tools
install, and write the record into the clock's filesystem beside the list: the clock's
first start then opens the list by its header, as after an install over the link.

A list that passed is remembered (host_tools/cache.py, kind `listchecks`, variable
$TILECLOCK_CHECK_CACHE): one small file named by the SHA-256 of the image and of the
firmware's `lexicon/` sources that checked it, holding the digest.  The next `clockctl
image` or `flash` of the same list with the same firmware takes the digest from there
instead of walking the list again (18 to 25 s for the Polish list on the project's
2-core test machine, once per command before).  A list the check refuses is never remembered, and a changed byte in
the list or in the check's code is another name: it is checked again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import subprocess
import tempfile
from pathlib import Path

from host_tools import cache, resources

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

_DIGEST = re.compile(r"[0-9a-f]{8} [0-9]+")     # "crc size", firmware/lexicon/opening.py
_done: dict[Path, str] = {}     # this process's checks (a fleet, when no record is kept)


class ListCheckError(ValueError):
    pass


def checked_digest(image: bytes) -> str:
    """The digest the device records for `image` after its full check (the check run
    here, or remembered from an earlier run); ListCheckError if the firmware refuses the
    image."""
    record = _record_path(image)
    remembered = _done.get(record) or _remembered(record, image)
    if remembered:
        return remembered
    with _one_at_a_time(record.parent):
        digest = _remembered(record, image)     # another command's check, while we waited
        if digest is None:
            digest = _run_check(image)
            _remember(record, digest)
    _done[record] = digest
    return digest


@contextlib.contextmanager
def _one_at_a_time(folder: Path):
    """Commands that check at the same moment (an organiser's loop run in parallel) take
    turns, so that a list is walked once and the others take its record.  Where the
    folder cannot be written or the system has no flock, each command checks."""
    try:
        import fcntl
    except ImportError:             # Windows
        yield
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / ".lock", "a")
    except OSError:
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _check_code() -> bytes:
    """The firmware's lexicon package, the code of the check (its sources, in order)."""
    folder = resources.firmware_dir() / "lexicon"
    h = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.digest()


def _record_path(image: bytes) -> Path:
    name = hashlib.sha256(hashlib.sha256(image).digest() + _check_code()).hexdigest()
    return cache.cache_dir("listchecks", "TILECLOCK_CHECK_CACHE") / (name + ".ok")


def _remembered(record: Path, image: bytes) -> str | None:
    try:
        text = record.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    # a record of another list cannot be taken for this one: the size is the image's
    if not _DIGEST.fullmatch(text) or int(text.split()[1]) != len(image):
        return None
    return text


def _remember(record: Path, digest: str) -> None:
    """Written whole or not at all (a second command checking the same list at the same
    time writes the same bytes); a folder that cannot be written only costs the next
    command the check."""
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        part = record.with_name("%s.%d" % (record.name, os.getpid()))
        part.write_text(digest + "\n", encoding="ascii")
        os.replace(part, record)
    except OSError:
        pass


def _run_check(image: bytes) -> str:
    """The firmware's full check of `image` under `micropython`."""
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
    if not _DIGEST.fullmatch(rest):
        raise ListCheckError("the word list check gave no digest: %r" % rest[:80])
    return rest
