"""Where the host tools keep what they fetch or work out once and use again: the
published drivers (host_tools/drivers.py), the word lists the clock's own check has
passed (host_tools/listcheck.py), the simulator's default device folder.

A kind of cache lives in one folder: the one its environment variable names, if set;
in a checkout of the repository its `build/<kind>/`; for installed tools the user's
cache folder, `$XDG_CACHE_HOME/tileclock/<kind>`, by default `~/.cache/tileclock/<kind>`,
on Windows `%LOCALAPPDATA%/tileclock/cache/<kind>`.  Never the installation's own
folder, which may be read-only or shared.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def is_checkout(root: Path | None = None) -> bool:
    """True if the host tools run from the repository (a clone, or `pip install -e`),
    not from an installed package (whose parent folder is site-packages)."""
    root = REPO if root is None else root
    return (root / "pyproject.toml").is_file() and (root / "firmware" / "main.py").is_file()


def user_cache_dir() -> Path:
    """The per-user cache folder of tileclock (XDG base directories; LOCALAPPDATA on
    Windows)."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "tileclock" / "cache"
    base = os.environ.get("XDG_CACHE_HOME")
    # The XDG specification: a relative path in the variable is invalid and ignored.
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tileclock"


def cache_dir(kind: str, variable: str) -> Path:
    """The folder of one kind of cache: $variable, else `build/<kind>/` of a checkout,
    else the user's cache folder."""
    override = os.environ.get(variable)
    if override:
        return Path(override)
    if is_checkout():
        return REPO / "build" / kind
    return user_cache_dir() / kind
