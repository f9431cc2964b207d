"""The MicroPython half of the harness catches what CPython lets through.

Each firmware test runs under CPython, the 64-bit `micropython` and the 32-bit build from
../shared (`[micropython-32]`, skipped with a reason where ../shared is missing)."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

from tests import mpbuild

REPO = Path(__file__).resolve().parents[2]


def counts(stdout):
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped)", stdout)}


def expect(stdout, failed_on_micropython, passed_on_cpython):
    """The counts for tests that fail on MicroPython and pass on CPython (or both)."""
    got = counts(stdout)
    if mpbuild.available():
        want = {"failed": 2 * failed_on_micropython, "passed": passed_on_cpython}
    else:
        want = {"failed": failed_on_micropython, "passed": passed_on_cpython,
                "skipped": failed_on_micropython}
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}, stdout


def run_suite(tmp_path, module_source):
    (tmp_path / "fw").mkdir()
    (tmp_path / "fw" / "test_probe.py").write_text(textwrap.dedent(module_source))
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nmpy_test_dirs = fw\nmpy_path = %s\n" % (REPO / "firmware"))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.mpy_plugin", "-p", "no:cacheprovider",
         "-q", str(tmp_path / "fw")],
        cwd=tmp_path, capture_output=True, text=True,
        env={"PYTHONPATH": "%s:%s" % (REPO, REPO / "firmware"), "PATH": str(Path(sys.executable).parent)})


def test_a_module_micropython_lacks_fails_the_suite(tmp_path):
    result = run_suite(tmp_path, """
        def test_uses_dataclasses():
            import dataclasses
            assert dataclasses.is_dataclass(int) is False
    """)
    assert result.returncode == 1, result.stdout
    expect(result.stdout, 1, 1)
    assert "test_uses_dataclasses[micropython]" in result.stdout


def test_a_behaviour_difference_fails_the_suite(tmp_path):
    # CPython's ints grow without bound but MicroPython's str lacks casefold.
    result = run_suite(tmp_path, """
        def test_casefold():
            assert "Straße".casefold() == "strasse"
    """)
    expect(result.stdout, 1, 1)


def test_an_import_error_fails_every_test_of_the_module(tmp_path):
    result = run_suite(tmp_path, """
        try:
            import typing
        except ImportError:
            raise
        def test_one():
            pass
        def test_two():
            pass
    """)
    expect(result.stdout, 2, 2)


def test_passing_firmware_code_passes_on_both(tmp_path):
    result = run_suite(tmp_path, """
        import timebase
        def test_wrap():
            assert timebase.ticks_add(timebase.TICKS_MAX, 1) == 0
    """)
    assert result.returncode == 0, result.stdout
    got = counts(result.stdout)
    assert got.get("passed") == (3 if mpbuild.available() else 2), result.stdout
