"""Packaging as the Python ecosystem has it: `pip install .` (a real, not editable,
install) into a fresh virtual environment gives a `clockctl` that carries the firmware
and builds a whole clock image from it, away from the repository."""

import os
import shutil
import subprocess
import sys
import sysconfig
import time
import tomllib
from pathlib import Path

import pytest

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


class Installed:
    """tileclock as a user installs it: the wheel built from the sources (once for this
    module) and installed into a fresh virtual environment, run from a folder outside
    the checkout with an environment that names nothing of the repository."""

    def __init__(self, root: Path):
        self.root = root
        self.venv = root / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True)
        self.python = self.venv / "bin" / "python"
        # The dependencies come from this environment (no download of those here); the
        # project itself is built into a wheel (pip's build isolation) and installed like
        # any package.
        self.site = Path(subprocess.run(
            [str(self.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True).stdout.strip())
        (self.site / "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
        # from a copy of the sources, so that the build leaves nothing in the repository
        source = root / "source"
        shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "__pycache__", "*.egg-info", ".hypothesis"))
        dist = root / "dist"
        proc = subprocess.run([str(self.python), "-m", "pip", "wheel", "--no-deps", "--quiet",
                               "--disable-pip-version-check", "-w", str(dist), str(source)],
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        [self.wheel] = dist.glob("tileclock-*.whl")
        shutil.rmtree(source)
        proc = subprocess.run([str(self.python), "-m", "pip", "install", "--no-deps",
                               "--no-index", "--quiet", "--disable-pip-version-check",
                               str(self.wheel)], capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        self.clockctl = self.venv / "bin" / "clockctl"
        self.wordpack = self.venv / "bin" / "wordpack"
        self.work = root / "elsewhere"
        self.work.mkdir()
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "VIRTUAL_ENV", "TILECLOCK_DRIVER_CACHE")}
        # nothing of the checkout on PATH either (its .venv/bin holds a `micropython`)
        path = [d for d in env.get("PATH", "").split(os.pathsep)
                if d and not Path(d).resolve().is_relative_to(REPO)]
        env["PATH"] = os.pathsep.join([str(self.venv / "bin")] + path)
        # An installed clockctl keeps the driver in the user's cache folder, not beside
        # site-packages: seed that folder with the checked download (no download here).
        env["XDG_CACHE_HOME"] = str(root / "xdg")
        self.driver_cache = root / "xdg" / "tileclock" / "drivers"
        shutil.copytree(REPO / "build" / "drivers", self.driver_cache)
        self.env = env

    def run(self, *args, timeout=300):
        """An installed command (clockctl, wordpack, python), run in the folder elsewhere."""
        return subprocess.run([str(self.venv / "bin" / args[0]), *map(str, args[1:])],
                              capture_output=True, text=True, cwd=self.work, env=self.env,
                              timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    root = tmp_path_factory.mktemp("installed")
    yield Installed(root)
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
def test_pip_install_gives_a_clockctl_that_builds_an_image_with_the_firmware(installed):
    where_cache = installed.run("python", "-c", "from host_tools import drivers; "
                                "print(drivers.cache_dir())")
    assert where_cache.stdout.strip() == str(installed.driver_cache), \
        where_cache.stdout + where_cache.stderr
    where = installed.run("python", "-c", "import host_tools.image as i; print(i.__file__, "
                          "i.FIRMWARE)")
    module, firmware = where.stdout.split()
    venv = str(installed.venv)
    assert module.startswith(venv) and firmware.startswith(venv), where.stdout
    from tests.host import esp_firmware

    fw = esp_firmware.firmware("s3", REPO / "build" / "firmware")
    proc = installed.run("clockctl", "image", "--firmware", fw, "--out", "out")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    files = image.list_image((installed.work / "out" / "vfs.bin").read_bytes())
    slot = {k[len("fw/a/"):]: v for k, v in files.items() if k.startswith("fw/a/")}
    assert slot == image.firmware_tree("s3")             # the same firmware, byte for byte
    assert files["boot.py"] == (REPO / "firmware" / "boot.py").read_bytes()
    assert not (installed.site / "build").exists()        # nothing written beside the package


def test_the_installed_tools_find_what_they_carry_in_the_package(installed):
    """The firmware, the fakes and the simulator's files: all inside the installed
    package, none from the checkout."""
    code = ("from host_tools import resources, link; from host_tools.sim import device, web; "
            "from wordlist_packer import legend; "
            "print(resources.firmware_dir(), resources.fakes_dir(), device.SAMPLE_WORDS, "
            "web.PAGE, legend.firmware_dir(), link._frame.__file__)")
    proc = installed.run("python", "-c", code)
    assert proc.returncode == 0, proc.stderr
    package = installed.site / "host_tools"
    firmware, fakes, words, page, legend_fw, frame = map(Path, proc.stdout.split())
    assert firmware == legend_fw == package / "firmware"
    assert frame == package / "firmware" / "link" / "frame.py"
    assert fakes == package / "fakes" and (fakes / "sim_board.py").is_file()
    assert words.is_file() and words.is_relative_to(package / "sim")
    assert page == package / "sim" / "page.html" and page.is_file()


def test_the_installed_hall_reads_the_firmwares_own_message_modules(installed):
    code = ("from host_tools.hall import wire, server; "
            "print(wire.message().__file__, wire.sign().__file__, wire.display().__file__, "
            "server.PAGE, wire.time_text(-61000).strip())")
    proc = installed.run("python", "-c", code)
    assert proc.returncode == 0, proc.stderr
    message, sign, display, page, text = proc.stdout.split()
    package = installed.site / "host_tools"
    assert Path(message) == package / "firmware" / "hall" / "message.py"
    assert Path(sign) == package / "firmware" / "hall" / "sign.py"
    assert Path(display) == package / "firmware" / "clock" / "display.py"
    assert Path(page) == package / "hall" / "page.html" and Path(page).is_file()
    assert text == "-01:01"
    proc = installed.run("clockctl", "hall", "--help")
    assert proc.returncode == 0 and "--pairings" in proc.stdout, proc.stderr


def _until_ok(installed, *args, deadline_s=60.0):
    """An installed clockctl command, again until it succeeds (the clock may still boot)."""
    deadline = time.monotonic() + deadline_s
    while True:
        r = installed.run("clockctl", *args, timeout=120)
        if r.returncode == 0:
            return r
        if time.monotonic() > deadline:
            raise AssertionError("clockctl %s kept failing: %s\n%s"
                                 % (" ".join(map(str, args)), r.stdout, r.stderr[-2000:]))


def _row(out: str, port: str) -> list[str]:
    rows = [line.split() for line in out.splitlines() if line.startswith(str(port) + " ")]
    assert len(rows) == 1, out
    return rows[0]


def test_an_installed_clockctl_runs_the_simulator_and_works_its_clock(installed):
    """`clockctl sim` from the wheel runs the firmware it carries; the installed
    clockctl's device commands work that clock over its pseudo-terminal."""
    from tests.host.sim_helpers import Sim

    work = installed.work
    words = work / "words.txt"
    words.write_text("\n".join(["cat", "cats", "dog", "dogs", "tile", "tiles", "clock",
                                 "clocks", "word", "words", "game", "games"]) + "\n")
    built = installed.run("wordpack", "build", words, "--language", "en", "-o", "mine.dawg",
                          "--name", "mine")
    assert built.returncode == 0, built.stdout + built.stderr
    sim = Sim(work / "clock", command=[str(installed.clockctl), "sim"], cwd=work,
              env=installed.env, extra=["--link-pty", str(work / "tileclock-sim")])
    try:
        port = sim.link_port
        assert port == str(work / "tileclock-sim")
        r = _until_ok(installed, "devices", "--port", port)
        assert _row(r.stdout, port)[1] == "ok" and "sample-en.txt" in r.stdout, r.stdout
        assert "DEFAULT" in _row(r.stdout, port), r.stdout

        r = installed.run("clockctl", "config", "table=7", "--port", port)
        assert r.returncode == 0, r.stdout + r.stderr
        r = installed.run("clockctl", "config", "--show", "--port", port)
        assert r.returncode == 0 and '"table": "7"' in r.stdout, r.stdout + r.stderr

        r = installed.run("clockctl", "push-lexicon", "mine.dawg", "--port", port)
        assert r.returncode == 0, r.stdout + r.stderr
        r = installed.run("clockctl", "devices", "--port", port)
        assert r.returncode == 0 and "mine" in _row(r.stdout, port), r.stdout
        device = _row(r.stdout, port)[3]

        r = installed.run("clockctl", "logs", "--out", "logs", "--round", "1", "--port", port)
        assert r.returncode == 0, r.stdout + r.stderr
        assert sorted(p.name for p in (work / "logs").iterdir()) == [
            "1-table7-%s-%s.jsonl" % (device, kind) for kind in ("challenges", "games")]

        r = installed.run("clockctl", "results", "--out", "results.csv", "--port", port)
        assert r.returncode == 0 and "results.csv: 0 finished games" in r.stdout, \
            r.stdout + r.stderr
        assert (work / "results.csv").read_text("utf-8-sig").startswith("round,table,device")

        r = installed.run("clockctl", "reset", "--port", port)
        assert r.returncode == 0 and "1 of 1 device succeeded" in r.stdout, r.stdout + r.stderr
    finally:
        err = sim.stop()
    assert "Traceback" not in err, err[-3000:]


def test_an_installed_clockctl_flashes_a_word_list_with_esptool(installed):
    """flash-lexicon from the wheel: its esptool writes the list through a simulated
    chip's download mode (tests/host/bootrig.py), the firmware adopts it."""
    from host_tools.link import Link
    from tests.host.bootrig import BootRig, wroom_table, write_layout
    from tests.host.linkrig import wait_for
    from tests.host.test_link_pty import NEW, OLD
    from wordlist_packer.image import Image

    folder = installed.root / "flashed"     # provisioned as `clockctl flash` lays it out
    folder.mkdir()
    write_layout(folder, wroom_table(), 4 << 20)
    rig = BootRig(folder, args=("--flash", "--id", "c10cf1a5"), flash_size=4 << 20).start()
    try:
        with Link(rig.port, timeout=3.0) as link:       # the clock starts with the old list
            link.push_lexicon(OLD)
        (installed.work / "new.dawg").write_bytes(NEW)
        r = installed.run("clockctl", "flash-lexicon", "new.dawg", "--target", "wroom",
                          "--port", rig.port)
        assert r.returncode == 0, r.stdout + r.stderr
        assert _row(r.stdout, rig.port)[:3] == [rig.port, "ok", Image(NEW).name], r.stdout
        assert rig.sessions == 1                        # esptool wrote it
        wait_for(lambda: rig.alive() and rig.loader is None, 20, "the clock to start again")
        with Link(rig.port, timeout=3.0) as link:
            assert link.info()["lexicon"]["name"] == Image(NEW).name
    finally:
        rig.stop()


def test_the_driver_cache_is_build_drivers_in_a_checkout_else_the_users(tmp_path, monkeypatch):
    from host_tools import cache, drivers

    monkeypatch.delenv("TILECLOCK_DRIVER_CACHE", raising=False)
    assert drivers.cache_dir() == REPO / "build" / "drivers"
    installed = tmp_path / "site-packages"          # host_tools' parent once installed
    (installed / "host_tools" / "firmware").mkdir(parents=True)
    monkeypatch.setattr(cache, "REPO", installed)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert drivers.cache_dir() == tmp_path / "cache" / "tileclock" / "drivers"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")    # invalid by the XDG rules
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert drivers.cache_dir() == tmp_path / "home" / ".cache" / "tileclock" / "drivers"
    monkeypatch.setenv("TILECLOCK_DRIVER_CACHE", str(tmp_path / "mine"))
    assert drivers.cache_dir() == tmp_path / "mine"
