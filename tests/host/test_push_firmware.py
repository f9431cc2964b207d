"""`clockctl push-firmware` against the real firmware on a pseudo-terminal: the device
folder is what `clockctl image --target s3` writes (tests/host/provisioned_main.py runs
its boot.py and main.py), the new firmware goes into the other slot over the link, is
verified, switched to by one rename, and the clock restarts into it.  Cuts of the cable
and of the power at moments spread over the whole transfer and the commit leave the old
or the new firmware in use, never a mix, and never touch config, logs or word list."""

import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

from host_tools import cli, fwpush, image
from host_tools.link import Link, LinkError
from tests.host.linkrig import Rig, wait_for
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines

REPO = Path(__file__).resolve().parents[2]
ENTRY = Path(__file__).resolve().parent / "provisioned_main.py"
FAKES = REPO / "host_tools" / "fakes"
NEW_VERSION = "0.2.0-test"
RESET_MARKER = ".sim-reset"     # what a reset leaves in the simulated chip's folder


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    """The firmware as clockctl carries it, and a newer one (another version)."""
    new_dir = tmp_path_factory.mktemp("fw-new") / "firmware"
    shutil.copytree(REPO / "firmware", new_dir, ignore=shutil.ignore_patterns("__pycache__"))
    (new_dir / "version.py").write_text('# a newer firmware\nVERSION = "%s"\n' % NEW_VERSION)
    return {"old": image.firmware_tree("s3"), "new": image.firmware_tree("s3", new_dir),
            "new_dir": new_dir}


@pytest.fixture(scope="module")
def provisioned_files(tmp_path_factory):
    lexicon = build_from_lines(["ala", "kot", "ma", "pies"], Profile.builtin("pl"), name="mini",
                               version="1", date=1700000000)
    files = image.filesystem_files("s3", lexicon=lexicon, config={"lang": "pl"})
    files["logs/games.jsonl"] = b'{"seq": 0, "kind": "start"}\n'
    return files


class Clock:
    """A provisioned clock on a pty that comes back after each reset, as a chip does."""

    def __init__(self, folder, files):
        for path, data in files.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        self.files = files
        self.rig = Rig(folder, script=ENTRY, mpypath=str(FAKES) + ":.frozen",
                       env={"TILECLOCK_SIM": "1"})
        self.resets = 0
        self.stop = threading.Event()
        self.watch = threading.Thread(target=self._watch, daemon=True)

    def _watch(self):
        marker = self.rig.folder / RESET_MARKER
        while not self.stop.is_set():
            proc = self.rig.proc
            if proc is not None and proc.poll() is not None and marker.exists():
                marker.unlink()
                self.resets += 1
                self.rig.reboot()
            time.sleep(0.05)

    def __enter__(self):
        self.rig.start()
        self.watch.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.watch.join(timeout=2)
        self.rig.stop()

    def power_cut(self):
        self.rig.proc.send_signal(signal.SIGKILL)
        self.rig.reboot()

    def info(self, timeout=20.0):
        def ask():
            try:
                with Link(self.rig.port, timeout=1.0, retries=1) as link:
                    return link.info()
            except LinkError:
                return None
        return wait_for(ask, timeout, "the clock to answer")

    def slot_files(self):
        folder = self.rig.folder
        slot = (folder / "fw" / "slot").read_text().strip()
        base = folder / "fw" / slot
        return slot, {p.relative_to(base).as_posix(): p.read_bytes()
                      for p in base.rglob("*") if p.is_file()}

    def data_untouched(self):
        for path, data in self.files.items():
            if not path.startswith("fw/") and path not in ("boot.py", "main.py"):
                assert (self.rig.folder / path).read_bytes() == data, path


def test_clockctl_push_firmware_updates_verifies_and_restarts(tmp_path, trees, provisioned_files):
    with Clock(tmp_path / "dev", provisioned_files) as clock:
        assert clock.info()["firmware"] == "0.1.0"
        code = cli.main(["push-firmware", "--firmware-dir", str(trees["new_dir"]), "--port",
                         clock.rig.port, "--timeout", "2", "--reconnect", "30"])
        assert code == 0
        assert clock.resets == 1
        assert clock.info()["firmware"] == NEW_VERSION
        assert clock.slot_files() == ("b", trees["new"])
        clock.data_untouched()


def _push(clock, tree, timeout=2.0, retries=4):
    with Link(clock.rig.port, timeout=timeout, retries=retries) as link:
        return fwpush.push_firmware(link, tree, NEW_VERSION)


def test_a_pulled_cable_anywhere_leaves_the_old_firmware(tmp_path, trees, provisioned_files):
    total = sum(len(v) for v in trees["new"].values())
    with Clock(tmp_path / "dev", provisioned_files) as clock:
        for share in (0.1, 0.5, 0.97):
            relay = clock.rig.relay
            relay.cut_after = relay.to_device + int(total * share)
            with pytest.raises(LinkError):
                _push(clock, trees["new"], timeout=0.3, retries=1)
            relay.cut = False                       # the cable goes back in
            assert clock.info()["firmware"] == "0.1.0"
            assert clock.slot_files() == ("a", trees["old"])
            clock.data_untouched()
        _push(clock, trees["new"])                  # and the next try goes through
        wait_for(lambda: clock.resets == 1, 20, "the restart")
        assert clock.info()["firmware"] == NEW_VERSION
        assert clock.slot_files() == ("b", trees["new"])


def _cut_power_during(clock, tree, moment):
    """Push `tree`, the power failing at `moment`: ("data", share) once the link has
    carried that share of the files' bytes, ("commit", seconds) that long after the
    commit was sent (while the clock reads the files back and switches slots)."""
    relay = clock.rig.relay
    start = relay.to_device
    total = sum(len(v) for v in tree.values())
    done = threading.Event()
    committed = []

    def cutter():
        while not done.is_set():
            if moment[0] == "data" and relay.to_device - start >= int(total * moment[1]):
                break
            if moment[0] == "commit" and committed and time.monotonic() >= committed[0]:
                break
            time.sleep(0.0005)
        else:
            return
        clock.rig.proc.send_signal(signal.SIGKILL)

    class CommitWatch(Link):
        def request_json(self, kind, obj=None, **kw):
            if kind == fwpush.FW_COMMIT:
                committed.append(time.monotonic() + moment[1])
            return Link.request_json(self, kind, obj, **kw)

    t = threading.Thread(target=cutter, daemon=True)
    t.start()
    try:
        with CommitWatch(clock.rig.port, timeout=0.5, retries=1) as link:
            fwpush.push_firmware(link, tree, NEW_VERSION, commit_timeout=2.0)
    except LinkError:
        pass
    done.set()
    t.join()


MOMENTS = [("data", 0.01), ("data", 0.3), ("data", 0.7), ("data", 0.99),
           ("commit", 0.0), ("commit", 0.01), ("commit", 0.03), ("commit", 0.1),
           ("commit", 0.25)]


@pytest.mark.slow
def test_a_power_cut_anywhere_leaves_the_old_or_the_new_firmware(tmp_path, trees,
                                                                provisioned_files):
    """The power goes at moments spread over the transfer and the commit; the clock
    starts again each time and runs one firmware, whole.  (Every single change the
    update makes to the filesystem is cut in turn by tests/firmware/test_link_fwupdate.py.)"""
    seen = []
    for n, moment in enumerate(MOMENTS):
        with Clock(tmp_path / ("dev%d" % n), provisioned_files) as clock:
            clock.info()
            _cut_power_during(clock, trees["new"], moment)
            time.sleep(0.5)                         # a reset restarts by itself
            if clock.rig.proc.poll() is not None and not (clock.rig.folder / RESET_MARKER).exists():
                clock.rig.reboot()                  # power back on
            version = clock.info()["firmware"]
            slot, files = clock.slot_files()
            assert (slot, files, version) in (("a", trees["old"], "0.1.0"),
                                              ("b", trees["new"], NEW_VERSION)), moment
            clock.data_untouched()
            seen.append(slot)
    assert seen[:4] == ["a"] * 4 and seen[-1] == "b", seen
