import gc
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests import mpy_plugin
from tests.mpy_plugin import pytest_collect_file  # noqa: F401 (hook)

REPO = Path(__file__).resolve().parent.parent
FIRMWARE_TESTS = REPO / "tests" / "firmware"

# Firmware tests import firmware modules by their device names; under CPython
# the fakes stand in for the chip exactly as they do under MicroPython.
for extra in (FIRMWARE_TESTS, REPO / "host_tools" / "fakes", REPO / "firmware"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))


def pytest_addoption(parser):
    mpy_plugin.pytest_addoption(parser)
    parser.addoption("--fast", action="store_true",
                     help="the inner loop: the firmware tests under CPython, less the slow "
                          "ones (README, 'The test command')")


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


@pytest.fixture(autouse=True, scope="module")
def _collect_once_per_module():
    """What earlier modules left becomes permanent for CPython's cyclic collector
    (gc.freeze), so that the firmware's own gc.collect() calls, which on the chip sweep a
    small heap, scan only what the module under test made, not a worker's whole history
    (a worker that has held the Polish list and a browser made the firmware tests of the
    PIN lock several times slower).  The garbage left so far is collected first."""
    gc.collect()
    gc.freeze()
    yield


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

    if session.config.getoption("fast"):
        return                          # --fast runs no MicroPython item
    if mpbuild.available() or in_ci():
        mpbuild.interpreter(32)
        mpbuild.interpreter(64)


# -- running in parallel (pytest-xdist; `python3 -m tests` runs `-n auto --dist loadscope`) --
#
# Tests are handed to the workers one by one, except where running them apart would do
# work twice: the MicroPython items of one file and word size (one interpreter run per
# file, tests/mpy_plugin.py) and the tests of a module that holds a module- or
# session-scoped fixture (a browser, an installed wheel) stay together on one worker.
# The longest go first, so that no worker is left with a long one at the end.  (The
# scheduler sees only node ids: the scope is worked out from them, the same way in the
# controller and in the workers.)

_MPY_SUFFIX = {"[micropython-32]": "mpy32", "[micropython]": "mpy64"}
_SHARED_FIXTURE = ('scope="module"', "scope='module'", 'scope="session"', "scope='session'")
_module_shares = {}


def _shares_fixtures(path):
    if path not in _module_shares:
        try:
            text = (REPO / path).read_text(encoding="utf-8")
        except OSError:
            text = ""
        _module_shares[path] = any(mark in text for mark in _SHARED_FIXTURE)
    return _module_shares[path]


def scope_of(nodeid):
    """The unit of work a test belongs to: its file's MicroPython run, its module when
    the module shares fixtures, else the test alone."""
    path = nodeid.split("::", 1)[0]
    for suffix, run in _MPY_SUFFIX.items():
        if nodeid.endswith(suffix):
            return path + "::" + run
    if _shares_fixtures(path):
        return path
    return nodeid


def _rank(item):
    """0 first: the long end-to-end tests, then the 32-bit and 64-bit MicroPython runs."""
    if item.get_closest_marker("slow"):
        return 0
    if isinstance(item, mpy_plugin.MicroPythonItem):
        return 1 if item.bits == 32 else 2
    return 3


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return scope_of(nodeid)

    return Scheduling(config, log)


def pytest_itemcollected(item):
    # a firmware test module names its slow tests in SLOW (it cannot import pytest)
    if item.get_closest_marker("slow") is None:
        module = getattr(item, "module", None)
        if getattr(item, "originalname", None) in getattr(module, "SLOW", ()):
            item.add_marker(pytest.mark.slow)


def pytest_ignore_collect(collection_path, config):
    # --fast: the host tests are not even collected (each worker would import them all)
    if config.getoption("fast") and collection_path.is_relative_to(REPO / "tests" / "host"):
        return True
    return None


def _fast(item):
    """The inner loop (--fast): the firmware tests under CPython, less the slow ones."""
    return (not isinstance(item, mpy_plugin.MicroPythonItem)
            and Path(str(item.path)).parent == FIRMWARE_TESTS
            and item.get_closest_marker("slow") is None)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    if config.getoption("fast"):
        keep, drop = [], []
        for item in items:
            (keep if _fast(item) else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
    if not _worker():
        return
    # the order the scheduler hands the units out (with --no-loadscope-reorder): a unit's
    # rank is its first item's
    ranks = {}
    for item in items:
        key = scope_of(item.nodeid)
        ranks[key] = min(ranks.get(key, 9), _rank(item))
    order = {id(item): (ranks[scope_of(item.nodeid)], n) for n, item in enumerate(items)}
    items.sort(key=lambda item: order[id(item)])
