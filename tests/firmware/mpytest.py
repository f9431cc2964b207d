# Helpers for firmware tests that run under both CPython and MicroPython,
# and the runner that the pytest plugin starts inside the `micropython`
# interpreter.  Nothing here may import pytest.

import sys

MICROPYTHON = sys.implementation.name == "micropython"
_MARK = "@@mpytest "


class Skip(Exception):
    pass


def skip(reason):
    if not MICROPYTHON:
        import pytest  # only ever under CPython, where pytest runs the test

        pytest.skip(reason)
    raise Skip(reason)


def only_micropython(reason="needs the MicroPython heap or runtime"):
    if not MICROPYTHON:
        skip(reason)


def raises(exc_type, func, *args, **kwargs):
    """Call func and return the exception it raised; fail if it raised none."""
    try:
        func(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("expected %s from %r" % (exc_type.__name__, func))


_tmp_count = [0]


def tmpdir():
    """A fresh, empty directory for one test."""
    import os

    base = os.getenv("MPYTEST_TMP")
    if not base:
        import tempfile

        return tempfile.mkdtemp(prefix="fwtest-")
    _tmp_count[0] += 1
    path = base + "/t" + str(_tmp_count[0])
    os.mkdir(path)
    return path


def run_module(name):
    mod = __import__(name)
    names = sorted(n for n in dir(mod) if n.startswith("test_"))
    failed = 0
    for test_name in names:
        print(_MARK + "start " + test_name)
        try:
            getattr(mod, test_name)()
        except Skip as exc:
            print(_MARK + "skip " + test_name + " " + str(exc))
            continue
        except Exception as exc:  # report and go on with the next test
            failed += 1
            sys.print_exception(exc)
            print(_MARK + "fail " + test_name)
            continue
        print(_MARK + "pass " + test_name)
    print(_MARK + "done " + str(failed))
