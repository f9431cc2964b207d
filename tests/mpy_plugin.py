"""Run dual firmware tests under the real MicroPython interpreter.

A test module in one of the `mpy_test_dirs` is collected twice: by pytest
under CPython as usual, and by this plugin, which runs the same file in the
`micropython` unix port (one interpreter process per file, through
`mpytest.run_module`) and reports one `[micropython]` item per test function.
A module that does not import or behave under MicroPython fails there even
when it passes under CPython.

Each test also runs on the 32-bit unix port built from ../shared/micropython
(`[micropython-32]` items, tests/mpbuild.py): the only interpreter here with the chip's
4-byte words and 31-bit small ints, so that a hot path whose values leave the small-int
range allocates there as it would on the chip.  Without ../shared those items skip with
the reason (in CI they fail).
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RUNNER_DIR = REPO / "tests" / "firmware"
DEFAULT_TEST_DIRS = "tests/firmware"
DEFAULT_MPY_PATH = "firmware host_tools/fakes build/drivers"
MARK = "@@mpytest "
# test functions take no arguments; a scenario run from several starting ticks takes
# `start` and is wrapped into one (tests/firmware/clock_helpers.py, across_the_wrap)
_TEST_DEF = re.compile(r"^def (test_\w+)\(\s*(?:start)?\s*\)", re.M)
_HEAPSIZE = re.compile(r"^# mpytest-heapsize: (\w+)", re.M)
_TIMEOUT = re.compile(r"^# mpytest-timeout: (\d+)", re.M)
# How long one interpreter run of a file may take before it counts as hung: a bound
# against a hang only, far above what any file takes on a machine busy with other work.
HANG_S = 1800


def micropython_binary():
    candidate = Path(sys.executable).parent / "micropython"
    if candidate.exists():
        return str(candidate)
    return "micropython"


def micropython_path(config, test_dir):
    entries = [str(test_dir)]
    for entry in config.getini("mpy_path").split():
        path = Path(entry)
        entries.append(str(path if path.is_absolute() else Path(config.rootpath) / path))
    entries.append(str(RUNNER_DIR))
    entries.append(".frozen")
    return ":".join(entries)


def run_micropython_file(path, mpy_path, heapsize=None, timeout=HANG_S, binary=None):
    """Run every test of one module under MicroPython; return (results, output).

    results maps a test name to ("pass" | "fail" | "skip", detail).
    """
    import shutil

    env = dict(os.environ)
    env["MICROPYPATH"] = mpy_path
    env["MPYTEST_TMP"] = tempfile.mkdtemp(prefix="mpytest-")
    try:
        return _run(path, env, heapsize, timeout, binary or micropython_binary())
    finally:
        shutil.rmtree(env["MPYTEST_TMP"], ignore_errors=True)


def _run(path, env, heapsize, timeout, binary):
    cmd = [binary]
    if heapsize:
        cmd += ["-X", "heapsize=" + heapsize]
    cmd += ["-c", "import mpytest; mpytest.run_module(%r)" % path.stem]
    try:
        proc = subprocess.run(cmd, env=env, cwd=str(path.parent), capture_output=True,
                              timeout=timeout, text=True, errors="replace")
        output = proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        output = (exc.stdout or "") if isinstance(exc.stdout, str) else ""
        output += "\n[timed out after %d s]" % timeout
    return parse_runner_output(output), output


def parse_runner_output(output):
    results = {}
    pending = []
    for line in output.splitlines():
        if line.startswith(MARK):
            parts = line[len(MARK):].split(" ", 2)
            verdict, name = parts[0], parts[1] if len(parts) > 1 else ""
            reason = parts[2] if len(parts) > 2 else ""
            if verdict == "start":
                pending = []
            elif verdict in ("pass", "fail", "skip"):
                results[name] = (verdict, "\n".join(pending) or reason)
                pending = []
        else:
            pending.append(line)
    return results


def pytest_addoption(parser):
    parser.addini("mpy_test_dirs", "folders whose test modules also run under MicroPython",
                  default=DEFAULT_TEST_DIRS)
    parser.addini("mpy_path", "MICROPYPATH entries for those tests", default=DEFAULT_MPY_PATH)


def pytest_collect_file(file_path, parent):
    config = parent.config
    if file_path.suffix != ".py" or not file_path.name.startswith("test_"):
        return None
    root = Path(config.rootpath)
    dirs = [(root / d).resolve() for d in config.getini("mpy_test_dirs").split()]
    if file_path.parent.resolve() not in dirs:
        return None
    return MicroPythonFile.from_parent(parent, path=file_path)


class MicroPythonFile(pytest.File):
    def collect(self):
        source = self.path.read_text()
        self._heapsize = (_HEAPSIZE.findall(source) or [None])[0]
        self._timeout = int((_TIMEOUT.findall(source) or [HANG_S])[0])
        self._runs = {}
        names = _TEST_DEF.findall(source)
        for bits, suffix in ((64, "[micropython]"), (32, "[micropython-32]")):
            for name in names:
                yield MicroPythonItem.from_parent(self, name=name + suffix, test_name=name,
                                                  bits=bits)

    def results(self, bits=64):
        if bits not in self._runs:
            binary = None
            if bits == 32:
                from tests import shared

                binary = str(shared.micropython(32))   # skips (fails in CI) without ../shared
            mpy_path = micropython_path(self.config, self.path.parent)
            self._runs[bits] = run_micropython_file(self.path, mpy_path, self._heapsize,
                                                    self._timeout, binary)
        return self._runs[bits]


class MicroPythonFailure(Exception):
    pass


class MicroPythonItem(pytest.Item):
    def __init__(self, *, test_name, bits=64, **kwargs):
        super().__init__(**kwargs)
        self.test_name = test_name
        self.bits = bits

    def runtest(self):
        results, output = self.parent.results(self.bits)
        verdict, detail = results.get(self.test_name, (None, None))
        if verdict == "pass":
            return
        if verdict == "skip":
            pytest.skip("under MicroPython: " + detail)
        if verdict == "fail":
            raise MicroPythonFailure(detail)
        raise MicroPythonFailure("did not run under MicroPython; interpreter output:\n"
                                 + output[-4000:])

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, MicroPythonFailure):
            return "MicroPython: " + str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, "micropython-%d: %s" % (self.bits, self.test_name)
