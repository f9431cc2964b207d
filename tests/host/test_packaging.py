"""Packaging as the Python ecosystem has it: `pip install .` (a real, not editable,
install) into a fresh virtual environment gives a `clockctl` that carries the firmware
and builds a whole clock image from it, away from the repository."""

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

from host_tools import image

REPO = Path(__file__).resolve().parents[2]


def test_the_package_list_names_every_folder_of_the_trees_it_ships():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert config["project"]["license"] == "MIT"          # an SPDX expression (PEP 639)
    listed = set(config["tool"]["setuptools"]["packages"])
    mapped = config["tool"]["setuptools"]["package-dir"]
    assert mapped == {"host_tools.firmware": "firmware"}
    wanted = {"wordlist_packer"}
    for module in (REPO / "host_tools").rglob("*.py"):     # every folder of host_tools' code
        if "__pycache__" not in module.parts:
            wanted.add(module.parent.relative_to(REPO).as_posix().replace("/", "."))
    for folder in (REPO / "firmware").rglob("*"):
        if folder.is_dir() and "__pycache__" not in folder.parts:
            wanted.add("host_tools.firmware." + folder.relative_to(REPO / "firmware")
                       .as_posix().replace("/", "."))
    wanted.add("host_tools.firmware")
    assert listed == wanted


def test_pip_install_gives_a_clockctl_that_builds_an_image_with_the_firmware(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    # The dependencies come from this environment (no download of those here); the
    # project itself is built (pip's build isolation) and installed like any package.
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    # from a copy of the sources, so that the build leaves nothing in the repository
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "__pycache__", "*.egg-info", ".hypothesis"))
    proc = subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--quiet",
                           "--disable-pip-version-check", str(source)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    clockctl = venv / "bin" / "clockctl"
    assert clockctl.exists()
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "TILECLOCK_DRIVER_CACHE")}
    # An installed clockctl keeps the driver in the user's cache folder, not beside
    # site-packages: seed that folder with the checked download (no download here).
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    user_cache = tmp_path / "xdg" / "tileclock" / "drivers"
    shutil.copytree(REPO / "build" / "drivers", user_cache)
    where_cache = subprocess.run([str(py), "-c", "from host_tools import drivers; "
                                  "print(drivers.cache_dir())"],
                                 capture_output=True, text=True, cwd=tmp_path, env=env)
    assert where_cache.stdout.strip() == str(user_cache), where_cache.stdout + where_cache.stderr
    where = subprocess.run([str(py), "-c", "import host_tools.image as i; print(i.__file__, "
                            "i.FIRMWARE)"], capture_output=True, text=True, cwd=work, env=env)
    module, firmware = where.stdout.split()
    assert module.startswith(str(venv)) and firmware.startswith(str(venv)), where.stdout
    from tests.host import esp_firmware

    fw = esp_firmware.firmware("s3", REPO / "build" / "firmware")
    proc = subprocess.run([str(clockctl), "image", "--firmware", str(fw), "--out", "out"],
                          capture_output=True, text=True, cwd=work, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    files = image.list_image((work / "out" / "vfs.bin").read_bytes())
    slot = {k[len("fw/a/"):]: v for k, v in files.items() if k.startswith("fw/a/")}
    assert slot == image.firmware_tree("s3")             # the same firmware, byte for byte
    assert files["boot.py"] == (REPO / "firmware" / "boot.py").read_bytes()
    assert not (Path(site) / "build").exists()            # nothing written beside the package


def test_the_driver_cache_is_build_drivers_in_a_checkout_else_the_users(tmp_path, monkeypatch):
    from host_tools import drivers

    monkeypatch.delenv("TILECLOCK_DRIVER_CACHE", raising=False)
    assert drivers.cache_dir() == REPO / "build" / "drivers"
    installed = tmp_path / "site-packages"          # host_tools' parent once installed
    (installed / "host_tools" / "firmware").mkdir(parents=True)
    monkeypatch.setattr(drivers, "REPO", installed)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert drivers.cache_dir() == tmp_path / "cache" / "tileclock" / "drivers"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")    # invalid by the XDG rules
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert drivers.cache_dir() == tmp_path / "home" / ".cache" / "tileclock" / "drivers"
    monkeypatch.setenv("TILECLOCK_DRIVER_CACHE", str(tmp_path / "mine"))
    assert drivers.cache_dir() == tmp_path / "mine"
