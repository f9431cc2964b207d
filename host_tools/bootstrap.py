"""Get from a bare Python 3.11+ to the project's own virtual environment.

Standard library only: this module runs before anything is installed.  The
environment lives in `.venv/` at the repository root and is reinstalled
whenever `pyproject.toml` changes, so a fresh clone and a long-lived checkout
test the same pinned dependencies.
"""

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VENV = REPO / ".venv"
STUBS = VENV / "stubs"
# The API stubs of each supported board's port (host_tools/targets.py), at the oldest
# MicroPython version `clockctl flash` accepts, each in a folder of its own
# (.venv/stubs/<target>/): on the host's import path they would shadow nothing useful
# and confuse the CPython tools.  The merged `micropython-esp32-stubs` of a later
# version would accept calls the chip's port does not have.
STUBS_POST = ".post1"


def _targets():
    # Standard library only, like this module: load the table by path.
    import importlib.util

    spec = importlib.util.spec_from_file_location("_tileclock_targets",
                                                  Path(__file__).with_name("targets.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stub_requirements():
    """{target: [pinned stub packages]} for the static check of every target."""
    targets = _targets()
    version = targets.version_text() + STUBS_POST
    return {name: [entry["stubs"] + "==" + version, "micropython-stdlib-stubs==" + version]
            for name, entry in targets.TARGETS.items()}


def stubs_dir(target):
    return STUBS / target


def venv_python():
    return VENV / "bin" / "python"


def venv_bin(name):
    return VENV / "bin" / name


def _stamp():
    digest = hashlib.sha256((REPO / "pyproject.toml").read_bytes())
    digest.update(repr(sorted(stub_requirements().items())).encode())
    return digest.hexdigest()


def _installed(stamp_file):
    """The extras installed for the current pyproject.toml, or None if stale."""
    try:
        digest, extras = stamp_file.read_text().split("\n")[:2]
    except (OSError, ValueError):
        return None
    return set(extras.split(",")) - {""} if digest == _stamp() else None


def _say(message):
    print("[setup] " + message, file=sys.stderr, flush=True)


def _pip(*args):
    cmd = [str(venv_python()), "-m", "pip", "--disable-pip-version-check", *args]
    result = subprocess.run(cmd, cwd=REPO)
    if result.returncode != 0:
        raise SystemExit("[setup] failed: " + " ".join(cmd))


def ensure_environment(extras=("dev",)):
    """Create or refresh .venv so that it matches pyproject.toml; return its python."""
    stamp_file = VENV / ".tileclock-stamp"
    installed = _installed(stamp_file)
    if installed is not None and set(extras) <= installed and venv_python().exists():
        return venv_python()
    extras = sorted(set(extras) | (installed or set()))
    if not venv_python().exists():
        _say("creating " + str(VENV))
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    spec = ".[" + ",".join(extras) + "]" if extras else "."
    _say("installing pinned dependencies (" + spec + ")")
    _pip("install", "--quiet", "-e", spec)
    for target, requirements in stub_requirements().items():
        folder = stubs_dir(target)
        _say("installing the %s board's API stubs into %s" % (target, folder))
        if folder.exists():
            import shutil

            shutil.rmtree(folder)
        _pip("install", "--quiet", "--no-deps", "--target", str(folder), *requirements)
    stamp_file.write_text(_stamp() + "\n" + ",".join(extras) + "\n")
    return venv_python()


def inside_environment():
    return Path(sys.prefix).resolve() == VENV.resolve()


def reexec_inside(module, argv, extras=("dev",)):
    """Run `python -m module argv...` inside the project's environment."""
    python = ensure_environment(extras)
    if inside_environment():
        return
    os.chdir(REPO)
    os.execv(str(python), [str(python), "-m", module, *argv])


# Debian packages the tests drive: chromium for the simulator's and the hall's browser
# tests, openscad for the enclosure's CGAL renders, prusa-slicer to slice its parts
# (tests/host/test_hardware_enclosure.py), mosquitto for the hall's test against an existing
# broker (tests/host/test_hall_mosquitto.py).  Installed only when missing and only where
# we may (root with apt-get, as on CI).
SYSTEM_PACKAGES = {"chromium": "/usr/bin/chromium", "openscad": "/usr/bin/openscad",
                   "prusa-slicer": "/usr/bin/prusa-slicer", "mosquitto": "/usr/sbin/mosquitto"}
# KiCad's command line (`kicad-cli sch erc`) exists from KiCad 8 on; Debian 12 ships 6,
# its backports 9: fetched from Debian's bookworm-backports through a source list of our
# own, which leaves the machine's apt configuration as it was.
BACKPORTS_PACKAGES = {"kicad": "/usr/bin/kicad-cli"}
BACKPORTS_SOURCE = ("Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\n"
                    "Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")


def _apt_install(packages, options=(), release=None):
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq", *options], env=env, check=False)
    cmd = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *options]
    if release:
        cmd += ["-t", release]
    return subprocess.run(cmd + list(packages), env=env).returncode == 0


def _backports_options():
    """apt options that read Debian's sources plus bookworm-backports from a private list."""
    import tempfile
    root = Path(tempfile.mkdtemp(prefix="tileclock-apt-"))
    parts = root / "sources.list.d"
    parts.mkdir()
    for source in Path("/etc/apt/sources.list.d").glob("*.sources"):
        (parts / source.name).write_text(source.read_text())
    legacy = Path("/etc/apt/sources.list")
    (root / "sources.list").write_text(legacy.read_text() if legacy.exists() else "")
    (parts / "tileclock-backports.sources").write_text(BACKPORTS_SOURCE)
    (root / "lists" / "partial").mkdir(parents=True)
    return root, ("-o", "Dir::Etc::sourcelist=%s" % (root / "sources.list"),
                  "-o", "Dir::Etc::sourceparts=%s" % parts,
                  "-o", "Dir::State::Lists=%s" % (root / "lists"))


def ensure_system_packages():
    missing = [pkg for pkg, path in SYSTEM_PACKAGES.items() if not Path(path).exists()]
    backports = [pkg for pkg, path in BACKPORTS_PACKAGES.items() if not Path(path).exists()]
    if not missing and not backports:
        return
    if os.geteuid() != 0 or not Path("/usr/bin/apt-get").exists():
        _say("not installing " + ", ".join(missing + backports) + " (needs root and apt-get); "
             "the tests that need them will be skipped")
        return
    if missing:
        _say("installing " + ", ".join(missing) + " with apt-get")
        if not _apt_install(missing):
            _say("apt-get could not install " + ", ".join(missing))
    debian = Path("/etc/debian_version")
    if backports and debian.exists() and debian.read_text().startswith("12"):
        import shutil
        _say("installing " + ", ".join(backports) + " from bookworm-backports with apt-get")
        root, options = _backports_options()
        try:
            if not _apt_install(backports, options, "bookworm-backports"):
                _say("apt-get could not install " + ", ".join(backports))
        finally:
            shutil.rmtree(root, ignore_errors=True)
