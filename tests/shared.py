"""What the tests take from beside the repository: `../shared` (word lists, the
MicroPython source for the 32-bit interpreter).

Found relative to the repository, never by an absolute path.  In CI (`CI=true`, where
`../shared` is always present) something missing there fails the test; on a clone
without `../shared` the tests that need it skip and say why.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

import pytest

from tests import mpbuild

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _missing(what: str):
    message = "%s is not there (it comes with ../shared beside the repository)" % what
    if in_ci():
        pytest.fail(message + ": CI always has it", pytrace=False)
    pytest.skip(message)


def require(*parts: str) -> Path:
    """A file or folder under ../shared, or skip (fail in CI) when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        _missing(str(path))
    return path


def wordlist(language: str) -> Path:
    return require("wordlists", language + ".txt.xz")


def micropython(bits: int) -> Path:
    """The unix-port MicroPython built for `bits` from ../shared/micropython."""
    if not mpbuild.available():
        _missing(str(mpbuild.SOURCE))
    return mpbuild.interpreter(bits)


@contextlib.contextmanager
def cache_lock(folder: Path):
    """Hold the lock of a cache folder under build/ while a file in it is made: the tests
    run in several processes (pytest-xdist), and the second to need a file waits for the
    first to finish it instead of making it at the same time.  Make the file under another
    name and rename it into place, so that it is never seen half written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield

