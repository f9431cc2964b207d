"""The host's run of the clock's own full check (host_tools/listcheck.py): a list that
passed is remembered, by its bytes and the check's code, so that the next `clockctl
image` or `flash` of it does not walk it again; a crafted list with valid checksums is
refused with the check's words and never remembered."""

import binascii
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import cache, listcheck
from host_tools.image import ImageBuildError, filesystem_files

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "firmware" / "data" / "lexicon_pl.dawg"


@pytest.fixture
def records(tmp_path, monkeypatch):
    """The records in a folder of this test's own, none remembered in this process."""
    folder = tmp_path / "checks"
    monkeypatch.setenv("TILECLOCK_CHECK_CACHE", str(folder))
    monkeypatch.setattr(listcheck, "_done", {})
    return folder


def _records(folder):
    return sorted(p.name for p in folder.glob("*.ok"))


def _no_check_may_run(monkeypatch):
    def refuse(*args, **kw):
        raise AssertionError("the check ran again: %r" % (args[0] if args else kw))

    monkeypatch.setattr(listcheck.subprocess, "run", refuse)


def _count_one_more(image: bytes) -> bytes:
    """One word more in the header than the graph holds, the header CRC recomputed: every
    checksum passes, only the walk of the graph finds it."""
    data = bytearray(image)
    data[20] += 1
    hlen = data[6] | data[7] << 8
    struct.pack_into("<I", data, hlen - 4, binascii.crc32(bytes(data[:hlen - 4])) & 0xFFFFFFFF)
    return bytes(data)


def test_a_checked_list_is_remembered_and_not_walked_again(records, monkeypatch):
    image = FIXTURE.read_bytes()
    digest = listcheck.checked_digest(image)
    assert _records(records) == [listcheck._record_path(image).name]
    monkeypatch.setattr(listcheck, "_done", {})         # a later command
    _no_check_may_run(monkeypatch)
    assert listcheck.checked_digest(image) == digest
    # the record is the digest the clock keeps in lexicon.ok
    assert (records / listcheck._record_path(image).name).read_text().strip() == digest


def test_another_byte_or_another_check_is_checked_again(records, monkeypatch):
    image = FIXTURE.read_bytes()
    listcheck.checked_digest(image)
    first = listcheck._record_path(image)
    other = bytearray(image)
    other[-1] ^= 0x01                                   # the body's last byte
    assert listcheck._record_path(bytes(other)) != first
    monkeypatch.setattr(listcheck, "_check_code", lambda: b"a changed check")
    assert listcheck._record_path(image) != first
    calls = []
    real = listcheck._run_check
    monkeypatch.setattr(listcheck, "_run_check", lambda data: calls.append(1) or real(data))
    listcheck.checked_digest(image)
    assert calls == [1]


def test_a_damaged_or_foreign_record_is_not_taken(records, monkeypatch):
    image = FIXTURE.read_bytes()
    digest = listcheck.checked_digest(image)
    record = listcheck._record_path(image)
    crc, size = digest.split()
    for text in ("", "garbage", "%s %d" % (crc, int(size) + 1), "%s" % crc):
        record.write_text(text)
        monkeypatch.setattr(listcheck, "_done", {})
        assert listcheck.checked_digest(image) == digest, text
        assert record.read_text().strip() == digest       # written again, whole


def test_a_crafted_list_is_refused_by_the_check_and_never_remembered(records):
    crafted = _count_one_more(FIXTURE.read_bytes())
    for _ in range(2):                                 # refused each time, not from memory
        with pytest.raises(listcheck.ListCheckError, match="refuses the word list: damaged"):
            listcheck.checked_digest(crafted)
    assert _records(records) == []
    with pytest.raises(ImageBuildError, match="refuses the word list"):
        filesystem_files("s3", lexicon=crafted)


def test_a_folder_that_cannot_be_written_costs_only_the_check(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("TILECLOCK_CHECK_CACHE", str(blocker / "checks"))
    monkeypatch.setattr(listcheck, "_done", {})
    image = FIXTURE.read_bytes()
    digest = listcheck.checked_digest(image)
    # within one command (a fleet) the check still runs once
    monkeypatch.setattr(listcheck.subprocess, "run", None)
    assert listcheck.checked_digest(image) == digest


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="Linux's /proc/locks")
def test_a_command_that_finds_another_checking_waits_and_takes_its_record(records, tmp_path):
    """Two commands on the same list at once: the one that comes second waits for the
    first's check (seen in /proc/locks) and then takes its record instead of walking the
    list itself."""
    import fcntl
    import time

    from tests.host.device_image import firmware_bin

    image = FIXTURE.read_bytes()
    script = ("import sys; from host_tools import listcheck; real = listcheck._run_check\n"
              "def run(data):\n    print('CHECKED', flush=True); return real(data)\n"
              "listcheck._run_check = run\n"
              "from host_tools.cli import main; sys.exit(main(sys.argv[1:]))")
    records.mkdir()
    with open(records / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)            # the first command, checking
        proc = subprocess.Popen([sys.executable, "-c", script, "image", "--target", "s3",
                                 "--firmware", str(firmware_bin("s3")), "--lexicon",
                                 str(FIXTURE), "--out", str(tmp_path / "out")],
                                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        deadline = time.monotonic() + 120
        while not _waits_for_a_lock(proc.pid):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the second command never waited"
            time.sleep(0.02)
        digest = listcheck._run_check(image)       # the first command's check ends
        listcheck._remember(listcheck._record_path(image), digest)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, out + err
    assert "CHECKED" not in out, out


def _waits_for_a_lock(pid: int) -> bool:
    """A blocked flock request of `pid` ("1: -> FLOCK  ADVISORY  WRITE 1234 ...")."""
    with open("/proc/locks") as f:
        return any(line.split()[1] == "->" and str(pid) in line.split()[5:6]
                   for line in f if len(line.split()) > 5)


def test_the_records_live_in_the_checkout_or_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("TILECLOCK_CHECK_CACHE", raising=False)
    assert cache.cache_dir("listchecks", "TILECLOCK_CHECK_CACHE") == REPO / "build" / "listchecks"
    monkeypatch.setattr(cache, "is_checkout", lambda root=None: False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir("listchecks", "TILECLOCK_CHECK_CACHE") == \
        tmp_path / "xdg" / "tileclock" / "listchecks"


def test_clockctl_image_twice_checks_the_list_once(records, tmp_path):
    """The command organisers run, twice in a row on the same list: the second finds the
    record the first left."""
    from tests.host.device_image import firmware_bin

    cmd = [sys.executable, "-m", "host_tools.cli", "image", "--target", "s3",
           "--firmware", str(firmware_bin("s3")), "--lexicon", str(FIXTURE)]
    firsts = []
    for n in range(2):
        out = tmp_path / ("out%d" % n)
        proc = subprocess.run(cmd + ["--out", str(out)], capture_output=True, text=True,
                              cwd=REPO, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        firsts.append(_records(records))
    assert len(firsts[0]) == 1 and firsts[1] == firsts[0]
