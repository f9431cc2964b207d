import sys
from pathlib import Path

from tests.mpy_plugin import pytest_addoption, pytest_collect_file  # noqa: F401 (hooks)

REPO = Path(__file__).resolve().parent.parent

# Firmware tests import firmware modules by their device names; under CPython
# the fakes stand in for the chip exactly as they do under MicroPython.
for extra in (REPO / "tests" / "firmware", REPO / "host_tools" / "fakes", REPO / "firmware"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))


def pytest_sessionstart(session):
    # The published display driver the firmware uses is fetched once into
    # build/drivers/, which is on the MicroPython path of the firmware tests.
    from host_tools.drivers import driver_path

    driver_path("ssd1306")
    # The 32- and 64-bit interpreters built from ../shared/micropython (tests/mpbuild.py):
    # built once here, so that the first test that needs one is not charged for it.
    from tests import mpbuild
    from tests.shared import in_ci

    if mpbuild.available() or in_ci():
        mpbuild.interpreter(32)
        mpbuild.interpreter(64)
