"""Where the host tools find the files they carry: the firmware, the fakes of the chip
and the simulator's data.

They are package data of the host tools (pyproject.toml: `host_tools.firmware` is the
repository's firmware/, `host_tools.fakes`, `host_tools.sim`), found through the import
system as packages, wherever the host tools are: an installed wheel (site-packages/
host_tools/firmware), an editable install or a checkout.  In a checkout the firmware is
not inside host_tools/: there pyproject.toml's package-dir names its folder, the same
table that lays out the wheel.  Nothing is looked up relative to the current folder.

The firmware's pure modules (the link's framing and message types, the hall's messages)
are used by the host as they are: `firmware_module("link/frame.py")`,
`firmware_module("link/messages.py")` (host_tools/hall/wire.py for the hall's).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from functools import lru_cache
from pathlib import Path

FIRMWARE_PACKAGE = "host_tools.firmware"
FAKES_PACKAGE = "host_tools.fakes"
SIM_PACKAGE = "host_tools.sim"


class ResourceError(FileNotFoundError):
    pass


def _found(name: str, marker: str) -> Path | None:
    """The folder of package `name` that holds `marker`, as the import system finds it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / marker).is_file():
            return Path(location).resolve()
    return None


def _mapped(name: str, marker: str) -> Path | None:
    """A checkout: the folder pyproject.toml's package-dir maps the package to."""
    import tomllib

    top = _found("host_tools", "__init__.py")
    pyproject = top.parent / "pyproject.toml" if top else None
    if pyproject is None or not pyproject.is_file():
        return None
    try:
        config = tomllib.loads(pyproject.read_text())
        folder = config["tool"]["setuptools"]["package-dir"][name]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    path = (pyproject.parent / folder).resolve()
    return path if (path / marker).is_file() else None


@lru_cache(maxsize=None)
def package_dir(name: str, marker: str) -> Path:
    """The folder of the host tools' package `name` (dotted) holding the file `marker`."""
    path = _found(name, marker) or _mapped(name, marker)
    if path is None:
        raise ResourceError("%s (with %s) is not installed with the host tools: reinstall "
                            "tileclock (pip install .)" % (name, marker))
    return path


def firmware_dir() -> Path:
    """The firmware the host tools carry (the clock's files, as sources)."""
    return package_dir(FIRMWARE_PACKAGE, "main.py")


def fakes_dir() -> Path:
    """The fakes of the chip's modules that the simulator runs the firmware with."""
    return package_dir(FAKES_PACKAGE, "sim_board.py")


def sim_file(name: str) -> Path:
    """A file of the simulator's package (its page, data/ with the sample word list)."""
    path = package_dir(SIM_PACKAGE, "__init__.py") / name
    if not path.is_file():
        raise ResourceError("%s is not installed with the simulator: reinstall tileclock "
                            "(pip install .)" % name)
    return path


def firmware_module(relative: str):
    """A pure firmware module (no machine, no MicroPython-only names), loaded by its path
    in the firmware folder, which is the device's filesystem root rather than a host
    package: one implementation on both ends (the link's framing and message types).
    Such a module imports no other firmware module."""
    name = "tileclock_fw_" + relative[:-3].replace("/", "_")
    # One load at a time: the simulator's page server answers in several threads, and a
    # module is in sys.modules before its code has run (another thread would take it
    # half made: "has no attribute").
    with _LOADING:
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, firmware_dir() / relative)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        return module


_LOADING = threading.RLock()
