"""The simulator's device folder: one simulator per folder (a second one refuses and
changes nothing), a default folder per checkout, and `python3 -m host_tools` with only
the simulator's options."""

from __future__ import annotations

import subprocess
import sys

from host_tools.__main__ import clockctl_argv
from host_tools.sim import default_device_dir
from host_tools.sim.device import LOCK_FILE, FolderInUse, lock_device_dir
from tests.host.sim_helpers import REPO, Sim


def test_a_second_simulator_on_the_same_folder_refuses_and_changes_nothing(tmp_path):
    folder = tmp_path / "clock"
    first = Sim(folder, extra=["--link-pty", str(tmp_path / "tileclock-sim")])
    try:
        before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
        assert "lexicon.dawg" in before
        second = subprocess.run([sys.executable, "-m", "host_tools.sim", "--device-dir",
                                 str(folder), "--fresh"], cwd=str(REPO), capture_output=True,
                                text=True, timeout=120)
        assert second.returncode == 2, second.stdout + second.stderr
        assert second.stderr.strip() == (
            "clockctl sim: the device folder %s is in use by another simulator (process %d); "
            "give each simulator a folder of its own (--device-dir DIR)"
            % (folder.resolve(), first.proc.pid)), second.stderr
        assert second.stdout == ""
        assert (folder / "lexicon.dawg").read_bytes() == before["lexicon.dawg"]   # not --fresh'ed
        assert first.state()["status"] == "running" and first.state()["boots"] == 1
    finally:
        err = first.stop()
    assert "Traceback" not in err, err[-3000:]
    held = lock_device_dir(folder)          # released when the first simulator ended
    try:
        try:
            lock_device_dir(folder)
            raise AssertionError("the folder was held twice")
        except FolderInUse as e:
            assert "in use by another simulator" in str(e)
    finally:
        held.close()


def test_python_m_host_tools_with_only_the_simulators_options_starts_it(tmp_path):
    folder = tmp_path / "clock"
    folder.mkdir()
    (folder / "config.json").write_text('{"table": 3}')
    sim = Sim(folder, command=[sys.executable, "-m", "host_tools", "--fresh"],
              extra=["--link-pty", str(tmp_path / "tileclock-sim")])
    try:
        assert not (folder / "config.json").exists()         # --fresh emptied the folder
        assert (folder / "lexicon.dawg").is_file() and (folder / LOCK_FILE).is_file()
    finally:
        err = sim.stop()
    assert "Traceback" not in err, err[-3000:]


def test_the_run_command_gives_options_alone_to_the_simulator():
    assert clockctl_argv([]) == ["sim"]
    assert clockctl_argv(["--fresh"]) == ["sim", "--fresh"]
    assert clockctl_argv(["--preset", "duplicate", "--open"]) == ["sim", "--preset", "duplicate",
                                                                 "--open"]
    assert clockctl_argv(["devices", "--all"]) == ["devices", "--all"]
    assert clockctl_argv(["sim", "--fresh"]) == ["sim", "--fresh"]
    assert clockctl_argv(["--help"]) == ["--help"]


def _checkout(root):
    (root / "firmware").mkdir(parents=True)
    (root / "firmware" / "main.py").write_text("")
    (root / "pyproject.toml").write_text("")
    return root


def test_the_default_device_folder_is_one_per_checkout(tmp_path, monkeypatch):
    from host_tools import cache as cache_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache = tmp_path / "cache" / "tileclock"
    monkeypatch.setattr(cache_module, "REPO", _checkout(tmp_path / "one"))
    one = default_device_dir()
    monkeypatch.setattr(cache_module, "REPO", _checkout(tmp_path / "two"))
    two = default_device_dir()
    assert one != two and one.parent == two.parent == cache
    assert one.name.startswith("sim-device-") and two.name.startswith("sim-device-")
    monkeypatch.setattr(cache_module, "REPO", tmp_path / "one")
    assert default_device_dir() == one                         # the same checkout: the same
    installed = tmp_path / "site-packages"                     # an installed clockctl
    installed.mkdir()
    monkeypatch.setattr(cache_module, "REPO", installed)
    assert default_device_dir() == cache / "sim-device"
