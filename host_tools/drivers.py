"""Published MicroPython drivers the firmware uses, fetched from PyPI and cached.

The firmware does not vendor its display driver: it uses micropython-lib's
`ssd1306`, published on PyPI as `micropython-ssd1306`.  `driver_path(name)`
returns the path of the driver module, downloading the pinned source
distribution once through pip's own index client (with pip's configuration:
index URL, certificates, proxy), checking its SHA-256 against the index, and
extracting the module into a cache folder (`build/drivers/`, or
$TILECLOCK_DRIVER_CACHE).  The host tools put the same file onto the device;
tests and the simulator put the cache folder on MICROPYPATH.

(`pip download` cannot fetch these packages: they are MicroPython-only sdists
without setup.py, so pip refuses to prepare them.)
"""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# module name -> (PyPI project, version, member inside the sdist)
DRIVERS = {
    "ssd1306": ("micropython-ssd1306", "0.3", "ssd1306.py"),
}


def cache_dir() -> Path:
    return Path(os.environ.get("TILECLOCK_DRIVER_CACHE") or REPO / "build" / "drivers")


def _find_link(project: str, version: str):
    from pip._internal.index.collector import LinkCollector
    from pip._internal.index.package_finder import PackageFinder
    from pip._internal.models.search_scope import SearchScope
    from pip._internal.models.selection_prefs import SelectionPreferences
    from pip._internal.network.session import PipSession

    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple")
    session = PipSession()
    cert = os.environ.get("PIP_CERT")
    if cert:
        session.verify = cert
    scope = SearchScope.create(find_links=[], index_urls=[index], no_index=False)
    finder = PackageFinder.create(link_collector=LinkCollector(session=session, search_scope=scope),
                                  selection_prefs=SelectionPreferences(allow_yanked=False))
    for candidate in finder.find_all_candidates(project):
        if str(candidate.version) == version and candidate.link.filename.endswith(".tar.gz"):
            return session, candidate.link
    raise LookupError("%s==%s not found on %s" % (project, version, index))


def _download(project: str, version: str) -> bytes:
    session, link = _find_link(project, version)
    response = session.get(link.url.split("#")[0], timeout=60)
    response.raise_for_status()
    data = response.content
    if link.hash_name == "sha256" and hashlib.sha256(data).hexdigest() != link.hash:
        raise ValueError("%s: SHA-256 does not match the index" % link.filename)
    return data


def driver_path(name: str) -> Path:
    """The cached driver module `name` (e.g. "ssd1306"), fetched once."""
    project, version, member = DRIVERS[name]
    target = cache_dir() / (name + ".py")
    stamp = cache_dir() / (name + ".version")
    if target.exists() and stamp.exists() and stamp.read_text().strip() == version:
        return target
    data = _download(project, version)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        wanted = [m for m in tar.getmembers() if m.name.endswith("/" + member) and m.isfile()]
        if not wanted:
            raise LookupError("%s has no %s" % (project, member))
        source = tar.extractfile(wanted[0]).read()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_bytes(source)
    tmp.replace(target)
    stamp.write_text(version + "\n")
    return target


def driver_dir() -> Path:
    """A folder holding every driver (for MICROPYPATH / sys.path)."""
    for name in DRIVERS:
        driver_path(name)
    return cache_dir()


if __name__ == "__main__":
    for module in DRIVERS:
        print(driver_path(module))
