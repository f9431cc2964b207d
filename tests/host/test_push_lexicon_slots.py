"""clockctl push-lexicon onto a clock whose partition table has the word list partitions
(the lean target as `clockctl flash` lays it out): the list goes over the link into the
partition not in use, never into the 320 KB filesystem, is checked in full there and
switched to; a pulled cable and a restart mid-push resume without touching the list in
use.  Real MicroPython, LittleFS on the fake flash, the partitions through the
esp32.Partition fake (tests/host/bootrig.py, as tests/host/test_flash_lexicon.py)."""

from __future__ import annotations

import pytest

from host_tools.link import Link, NoAnswer
from tests.host.linkrig import wait_for
from tests.host.memory_game import polish_image
from tests.host.test_flash_lexicon import OLD, OLD_NAME, VFS, clock, files
from wordlist_packer.image import Image

SECTOR = 4096


def polish() -> tuple[bytes, str]:
    data = polish_image().read_bytes()
    return data, Image(data).name


def slot_bytes(rig, label: str, n: int) -> bytes:
    return (rig.folder / ("flash-%s.bin" % label)).read_bytes()[:n]


@pytest.mark.slow
def test_a_polish_push_goes_into_the_free_partition_and_the_clock_answers_with_it(tmp_path):
    image, name = polish()
    assert len(image) > VFS.size       # more than the whole filesystem could hold
    rig = clock(tmp_path / "dev")      # the old list pushed: into lexa
    try:
        assert files(rig)["lexicon.slot"] == b"lexa"
        assert slot_bytes(rig, "lexa", len(OLD)) == OLD
        with Link(rig.port, timeout=3.0) as link:
            result = link.push_lexicon(image)
            info = link.info()
        assert result["resumed_from"] == 0 and result["sent"] == len(image)
        assert result["lexicon"]["slot"] == "lexb"
        lex = info["lexicon"]
        assert (lex["name"], lex["slot"], lex["size"]) == (name, "lexb", len(image))
        assert info["transfer"] is None
        assert slot_bytes(rig, "lexb", len(image)) == image
        assert slot_bytes(rig, "lexa", len(OLD)) == OLD       # the old list untouched
        after = files(rig)
        assert after["lexicon.slot"] == b"lexb"
        assert not {"lexicon.dawg", "lexicon.new", "lexicon.job"} & set(after)
        # the clock restarted opens the new list from lexb
        rig.reboot()
        wait_for(rig.alive, 10, "the clock to start again")
        with Link(rig.port, timeout=3.0) as link:
            lex = link.info()["lexicon"]
        assert (lex["name"], lex["slot"]) == (name, "lexb")
    finally:
        rig.stop()


@pytest.mark.slow
def test_a_pull_and_a_restart_mid_push_resume_and_never_touch_the_list_in_use(tmp_path):
    image, name = polish()
    rig = clock(tmp_path / "dev")
    try:
        # the cable pulled at a third of the upload
        rig.relay.cut_after = rig.relay.to_device + len(image) // 3
        with Link(rig.port, timeout=0.3, retries=2) as link, pytest.raises(NoAnswer):
            link.push_lexicon(image)
        rig.relay.cut = False
        with Link(rig.port, timeout=3.0) as link:
            info = link.info()
            assert (info["lexicon"]["name"], info["lexicon"]["slot"]) == (OLD_NAME, "lexa")
            first = info["transfer"]["have"]
            assert 0 < first < len(image)
        # put back: the upload goes on from where it was, then the cable is pulled again
        rig.relay.cut_after = rig.relay.to_device + len(image) // 3
        with Link(rig.port, timeout=0.3, retries=2) as link, pytest.raises(NoAnswer):
            link.push_lexicon(image)
        rig.relay.cut = False
        assert files(rig)["lexicon.slot"] == b"lexa"
        assert slot_bytes(rig, "lexa", len(OLD)) == OLD
        # a restart: the job on the disk names lexb and the bytes read back there
        rig.reboot()
        wait_for(rig.alive, 10, "the clock to start again")
        with Link(rig.port, timeout=3.0) as link:
            info = link.info()
            assert (info["lexicon"]["name"], info["lexicon"]["slot"]) == (OLD_NAME, "lexa")
            result = link.push_lexicon(image)
            lex = link.info()["lexicon"]
        resumed = result["resumed_from"]
        assert first < resumed < len(image) and resumed % SECTOR == 0
        assert result["sent"] == len(image) - resumed
        assert (lex["name"], lex["slot"]) == (name, "lexb")
        assert slot_bytes(rig, "lexb", len(image)) == image
        assert slot_bytes(rig, "lexa", len(OLD)) == OLD
        assert not {"lexicon.new", "lexicon.job"} & set(files(rig))
    finally:
        rig.stop()


def test_a_damaged_upload_is_refused_and_the_list_in_use_stays(tmp_path):
    rig = clock(tmp_path / "dev")
    try:
        bad = bytearray(OLD)
        bad[len(bad) // 2] ^= 0x55            # a page's bytes, with a matching whole CRC
        with Link(rig.port, timeout=3.0) as link:
            with pytest.raises(Exception) as e:
                link.push_lexicon(bytes(bad))
            assert "E_VERIFY" in str(e.value)
            lex = link.info()["lexicon"]
        assert (lex["name"], lex["slot"]) == (OLD_NAME, "lexa")
        assert files(rig)["lexicon.slot"] == b"lexa"
        assert "lexicon.job" not in files(rig)
    finally:
        rig.stop()
