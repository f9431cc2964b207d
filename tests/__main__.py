"""The test command: `python3 -m tests [pytest args]`.

Creates or reuses `.venv`, installs the pinned development dependencies and
runs the whole suite: host tests under CPython, firmware tests under CPython
and under the real MicroPython interpreter, mpy-cross over the firmware and
the static check against the ESP32 stubs.  Exits non-zero on any failure and
when no test ran.

The tests run in one worker process per core and one more (pytest-xdist; the grouping
and order are in tests/conftest.py); `-n 0` runs them in this process.
`python3 -m tests --fast` is the inner loop: the suite less the tests marked slow and
the 32-bit MicroPython runs.
"""

import os
import sys

from host_tools import bootstrap


def workers():
    """One worker per core, and one more: much of the suite waits for simulated clocks
    that run in real time (paced links, a firmware's own timers), and the extra worker
    keeps the cores busy meanwhile (README, 'The test command')."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def parallel(argv):
    """pytest-xdist's arguments; a worker count given on the command line (`-n 3`) keeps
    the grouping and order of tests/conftest.py."""
    if any(a in ("--collect-only", "--co", "--pdb") for a in argv):
        return []
    if any(a.startswith("--dist") for a in argv):
        return []
    given = any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in argv)
    count = [] if given else ["-n", str(workers())]
    return count + ["--dist", "loadscope", "--no-loadscope-reorder"]


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
