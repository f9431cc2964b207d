"""The MicroPython half of the harness catches what CPython lets through."""

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


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
    assert "1 failed, 1 passed" in result.stdout, result.stdout
    assert "test_uses_dataclasses[micropython]" in result.stdout


def test_a_behaviour_difference_fails_the_suite(tmp_path):
    # CPython's ints grow without bound but MicroPython's str lacks casefold.
    result = run_suite(tmp_path, """
        def test_casefold():
            assert "Straße".casefold() == "strasse"
    """)
    assert "1 failed, 1 passed" in result.stdout, result.stdout


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
    assert "2 failed, 2 passed" in result.stdout, result.stdout


def test_passing_firmware_code_passes_on_both(tmp_path):
    result = run_suite(tmp_path, """
        import timebase
        def test_wrap():
            assert timebase.ticks_add(timebase.TICKS_MAX, 1) == 0
    """)
    assert result.returncode == 0, result.stdout
    assert "2 passed" in result.stdout, result.stdout
