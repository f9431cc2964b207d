"""The test command: `python3 -m tests [pytest args]`.

Creates or reuses `.venv`, installs the pinned development dependencies and
runs the whole suite: host tests under CPython, firmware tests under CPython
and under the real MicroPython interpreter, mpy-cross over the firmware and
the static check against the ESP32 stubs.  Exits non-zero on any failure and
when no test ran.

The tests run in one worker process per core (pytest-xdist, `-n auto`; the grouping
and order are in tests/conftest.py); `-n 0` runs them in this process.
`python3 -m tests --fast` is the inner loop: the suite less the tests marked slow and
the 32-bit MicroPython runs.
"""

import sys

from host_tools import bootstrap


def parallel(argv):
    """pytest-xdist's arguments, unless the command line chose its own."""
    if any(a == "-n" or a.startswith(("-n", "--numprocesses", "--dist")) for a in argv):
        return []
    if any(a in ("--collect-only", "--co", "--pdb") for a in argv):
        return []
    return ["-n", "auto", "--dist", "loadscope", "--no-loadscope-reorder"]


def main(argv):
    if not bootstrap.inside_environment():
        bootstrap.ensure_system_packages()
    bootstrap.reexec_inside("tests", argv)
    import pytest

    code = pytest.main(["-p", "no:cacheprovider", *parallel(argv), *argv])
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("no tests were collected: that is a failure", file=sys.stderr)
        return 1
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
