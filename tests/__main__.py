"""The test command: `python3 -m tests [pytest args]`.

Creates or reuses `.venv`, installs the pinned development dependencies and
runs the whole suite: host tests under CPython, firmware tests under CPython
and under the real MicroPython interpreter, mpy-cross over the firmware and
the static check against the ESP32 stubs.  Exits non-zero on any failure and
when no test ran.
"""

import sys

from host_tools import bootstrap


def main(argv):
    if not bootstrap.inside_environment():
        bootstrap.ensure_system_packages()
    bootstrap.reexec_inside("tests", argv)
    import pytest

    code = pytest.main(["-p", "no:cacheprovider", *argv] if argv else ["-p", "no:cacheprovider"])
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("no tests were collected: that is a failure", file=sys.stderr)
        return 1
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
