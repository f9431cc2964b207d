"""Published MicroPython drivers the firmware uses, fetched from PyPI and cached.

The firmware does not vendor its display driver.  It uses the `ssd1306` module of the
PyPI project `micropython-ssd1306` 0.3: a third-party repackaging (not published by
MicroPython or micropython-lib) of the SSD1306 driver as it stood in the MicroPython
repository's `drivers/display/ssd1306.py` in 2020 (commit 8680a74595, "Change the
SET_COM_PIN_CFG setting"; the file is that one with CRLF line ends).  micropython-lib's
`ssd1306` package, which a manifest's `require("ssd1306")` would pull, is a later version
of the same driver (it adds `rotate()` and the SSD1306's IREF setting); it is not on PyPI,
which is the only registry the builds may use.  So the tests, the filesystem images and
the freeze manifest (firmware/manifest.py) all take this one file.

`driver_path(name)` returns the path of the driver module.  The first call downloads
the pinned source distribution through the configured package index (PEP 503/691
simple API: $PIP_INDEX_URL, else `pip config get global.index-url`, else PyPI; with
pip's certificate setting, $PIP_CERT or `global.cert`), checks its SHA-256 against
both the index and the hash pinned here, and extracts the module into a cache folder (`cache_dir()`: $TILECLOCK_DRIVER_CACHE if set;
in a checkout of the repository its `build/drivers/`; for an installed clockctl the
user's cache folder, `$XDG_CACHE_HOME/tileclock/drivers`, by default
`~/.cache/tileclock/drivers`, on Windows `%LOCALAPPDATA%/tileclock/cache/drivers`;
never the installation's own folder, which may be read-only or shared).  (`pip download` cannot fetch these
packages: they are MicroPython-only sdists without setup.py, so pip refuses to prepare
them.)

    python -m host_tools.drivers       # fetch now and print the paths
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import urllib.parse
import urllib.request
from pathlib import Path

from host_tools import cache

PYPI_SIMPLE = "https://pypi.org/simple"

# module path without .py -> (PyPI project, version, member inside the sdist, SHA-256 of
# the sdist).  umqtt/simple: micropython-lib's MQTT client (micropython-lib
# micropython/umqtt.simple, published to PyPI by micropython-lib as
# micropython-umqtt.simple), the clock's publisher to the hall (firmware/hall/net.py);
# imported as umqtt.simple (a package without __init__.py, as micropython-lib ships it).
DRIVERS = {
    "ssd1306": ("micropython-ssd1306", "0.3", "ssd1306.py",
                "d00cae1ff680e6ae504e258e700f002874b0d924b1a604253b6ea63144b58289"),
    "umqtt/simple": ("micropython-umqtt.simple", "1.3.4", "umqtt/simple.py",
                     "b6a2520239e3992c63a7de9370ee9b3d9d27819a90359c521f1c0f7ccab8d12f"),
}


class DriverError(RuntimeError):
    pass


def cache_dir() -> Path:
    """Where the drivers are kept: $TILECLOCK_DRIVER_CACHE, else `build/drivers/` of a
    checkout, else the user's cache folder (host_tools/cache.py)."""
    return cache.cache_dir("drivers", "TILECLOCK_DRIVER_CACHE")


def _pip_config(key: str) -> str | None:
    try:
        out = subprocess.run([sys.executable, "-m", "pip", "config", "get", key],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    value = out.stdout.strip()
    return value if out.returncode == 0 and value else None


def index_url() -> str:
    return (os.environ.get("PIP_INDEX_URL") or _pip_config("global.index-url")
            or PYPI_SIMPLE).rstrip("/")


def _opener():
    import ssl

    cert = os.environ.get("PIP_CERT") or _pip_config("global.cert")
    context = ssl.create_default_context(cafile=cert if cert and Path(cert).exists() else None)
    return urllib.request.build_opener(urllib.request.HTTPSHandler(context=context))


def _files(opener, index: str, project: str) -> list[dict]:
    """The project's files from the simple API: [{"filename", "url", "hashes"}]."""
    url = "%s/%s/" % (index, project)
    request = urllib.request.Request(url, headers={
        "Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.1"})
    with opener.open(request, timeout=60) as response:
        body = response.read()
        kind = response.headers.get_content_type()
    if kind == "application/vnd.pypi.simple.v1+json":
        files = json.loads(body)["files"]
        for f in files:
            f["url"] = urllib.parse.urljoin(url, f["url"])
        return files
    # PEP 503 HTML: <a href="URL#sha256=HEX">FILENAME</a>
    from html.parser import HTMLParser

    files = []

    class Links(HTMLParser):
        def handle_starttag(self, tag, attrs):
            href = dict(attrs).get("href")
            if tag == "a" and href:
                link, _, fragment = href.partition("#")
                name, _, value = fragment.partition("=")
                files.append({"filename": link.rsplit("/", 1)[-1],
                              "url": urllib.parse.urljoin(url, link),
                              "hashes": {name: value} if value else {}})

    Links().feed(body.decode("utf-8", "replace"))
    return files


def download(project: str, version: str, sha256: str) -> bytes:
    """The sdist `project-version.tar.gz`, checked against the index and the pin."""
    opener = _opener()
    index = index_url()
    wanted = "%s-%s.tar.gz" % (project, version)
    try:
        found = [f for f in _files(opener, index, project) if f["filename"] == wanted]
        if not found:
            raise DriverError("%s is not on %s" % (wanted, index))
        with opener.open(found[0]["url"], timeout=60) as response:
            data = response.read()
    except OSError as exc:
        raise DriverError("cannot fetch %s from %s: %s" % (wanted, index, exc)) from exc
    digest = hashlib.sha256(data).hexdigest()
    listed = found[0].get("hashes", {}).get("sha256")
    if listed and listed != digest:
        raise DriverError("%s: SHA-256 does not match the index" % wanted)
    if digest != sha256:
        raise DriverError("%s: SHA-256 %s is not the pinned %s" % (wanted, digest, sha256))
    return data


def driver_path(name: str) -> Path:
    """The cached driver module `name` (e.g. "ssd1306", "umqtt/simple"), fetched once."""
    project, version, member, sha256 = DRIVERS[name]
    target = cache_dir() / (name + ".py")
    stamp = cache_dir() / (name + ".version")
    if target.exists() and stamp.exists() and stamp.read_text().split() == [version, sha256]:
        return target
    data = download(project, version, sha256)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        wanted = [m for m in tar.getmembers()
                  if m.name.split("/", 1)[-1] == member and m.isfile()]
        if not wanted:
            raise DriverError("%s has no %s" % (project, member))
        source = tar.extractfile(wanted[0]).read()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_bytes(source)
    tmp.replace(target)
    stamp.write_text("%s %s\n" % (version, sha256))
    return target


def driver_dir() -> Path:
    """A folder holding every driver (for MICROPYPATH / sys.path, the freeze manifest)."""
    for name in DRIVERS:
        driver_path(name)
    return cache_dir()


if __name__ == "__main__":
    for module in DRIVERS:
        print(driver_path(module))
