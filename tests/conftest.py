import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests.mpy_plugin import pytest_addoption, pytest_collect_file  # noqa: F401 (hooks)

REPO = Path(__file__).resolve().parent.parent
FIRMWARE_TESTS = REPO / "tests" / "firmware"

# Firmware tests import firmware modules by their device names; under CPython
# the fakes stand in for the chip exactly as they do under MicroPython.
for extra in (FIRMWARE_TESTS, REPO / "host_tools" / "fakes", REPO / "firmware"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))


def _worker():
    """True in a pytest-xdist worker (the controller owns the run's temp folder)."""
    return "PYTEST_XDIST_WORKER" in os.environ


# The run's temp folder: a fresh TMPDIR for the whole run (every test, every process it
# starts, pytest's own tmp_path folders), so that whatever a test leaves behind is seen
# at the end and fails the run (pytest_sessionfinish below).
_RUN_TMP = {"path": None, "given": None}
PYTEST_TEMP = "pytest-of-"           # pytest's tmp_path root, cleared by pytest itself


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if _worker():
        return
    _RUN_TMP["given"] = os.environ.get("TMPDIR")
    run = tempfile.mkdtemp(prefix="tileclock-tests-")
    _RUN_TMP["path"] = run
    os.environ["TMPDIR"] = run
    tempfile.tempdir = None          # gettempdir() reads TMPDIR again


def _leftovers(run):
    out = []
    for entry in sorted(os.listdir(run)):
        if entry.startswith(PYTEST_TEMP):
            continue
        out.append(os.path.join(run, entry))
    return out


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    run = _RUN_TMP["path"]
    if run is None or _worker():
        return
    left = _leftovers(run) if os.path.isdir(run) else []
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = ["tests left %d entries in the run's temp folder (each test removes what it "
                 "makes; tmp_path does that by itself):" % len(left)]
        lines += ["  " + p for p in left[:40]]
        if reporter is not None:
            reporter.write_sep("=", "temp folders left behind", red=True)
            reporter.write_line("\n".join(lines))
        else:
            print("\n".join(lines), file=sys.stderr)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        shutil.rmtree(run, ignore_errors=True)
    else:
        print("\n[tests] the run's temp folder is kept for a look: %s" % run, file=sys.stderr)
    if _RUN_TMP["given"] is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = _RUN_TMP["given"]
    tempfile.tempdir = None


@pytest.fixture(autouse=True)
def _firmware_test_tmp(request, monkeypatch):
    """A firmware test's mpytest.tmpdir() folders inside its tmp_path under CPython (under
    MicroPython, tests/mpy_plugin.py gives each interpreter run a folder and removes it)."""
    if Path(str(request.node.path)).parent == FIRMWARE_TESTS:
        monkeypatch.setenv("MPYTEST_TMP", str(request.getfixturevalue("tmp_path")))
    yield


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
