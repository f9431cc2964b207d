"""clockctl flash-lexicon: esptool's own write-flash through the simulated chip's serial
download mode (host_tools/sim/romloader.py, tests/host/bootrig.py) into the word list
partition not in use, then the firmware (real MicroPython, files in LittleFS on the fake
flash, the partitions through the esp32.Partition fake) checks the list and switches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host_tools import cli, partitions
from host_tools.image import list_image
from host_tools.link import Link
from tests.host.bootrig import BootRig, wroom_table, write_layout
from tests.host.linkrig import wait_for
from tests.host.test_link_pty import NEW, OLD
from wordlist_packer.image import Image

NEW_NAME, OLD_NAME = Image(NEW).name, Image(OLD).name
FLASH = 4 << 20
# The lean target's partitions as `clockctl flash` writes them: its board's table, the
# word list partitions lexa and lexb after it, the filesystem after those.
TABLE = wroom_table()
VFS = partitions.filesystem(TABLE, FLASH)
# A clock provisioned before the word list had partitions: MicroPython's default table.
OLD_TABLE = partitions.MICROPYTHON_4MB


def clock(folder: Path, *extra, table=TABLE, old_list: bool = True) -> BootRig:
    """A clock of the lean target, running, with the old list sent over the link."""
    write_layout(folder, table, FLASH)
    rig = BootRig(folder, args=("--flash", "--id", "c10cf1a5") + extra,
                  flash_size=FLASH).start()
    if old_list:
        with Link(rig.port, timeout=3.0) as link:
            link.push_lexicon(OLD, force=True)
            assert link.config_set({"table": 12})["ok"]
    return rig


def vfs_image(rig, size: int = VFS.size) -> bytes:
    data = (rig.folder / "flash-vfs.bin").read_bytes()
    return data + b"\xff" * (size - len(data))


def files(rig, size: int = VFS.size) -> dict[str, bytes]:
    return list_image(vfs_image(rig, size))


def flash(rig, image: bytes, tmp_path, *extra) -> tuple[int, str]:
    path = tmp_path / "new.dawg"
    path.write_bytes(image)
    code = cli.main(["flash-lexicon", str(path), "--target", "wroom", "--port", rig.port,
                     *extra])
    return code, path


def listed(rig) -> dict:
    wait_for(lambda: rig.alive() and rig.loader is None, 20, "the clock to start again")
    with Link(rig.port, timeout=3.0) as link:
        return link.info()


def test_esptool_writes_the_free_partition_and_the_firmware_switches(tmp_path, capsys):
    rig = clock(tmp_path / "dev")
    try:
        before = files(rig)
        code, _ = flash(rig, NEW, tmp_path)
        out = capsys.readouterr().out
        assert code == 0, out
        row = out.splitlines()[1].split()
        assert row[:4] == [rig.port, "ok", NEW_NAME, "2024.1"], out
        assert "lexb" in row, out
        assert rig.sessions == 1
        [loader] = rig.loaders
        assert set(loader.errors) == {"GET_SECURITY_INFO (not on the ESP32)"}
        # esptool wrote the list into lexb and nothing else: not one byte of the filesystem
        assert len(NEW) <= loader.written < len(NEW) + 4096
        lexb = next(p for p in TABLE if p.label == "lexb")
        assert [at for at, _ in loader.regions] == [lexb.offset]
        lexb = (rig.folder / "flash-lexb.bin").read_bytes()
        assert lexb[:len(NEW)] == NEW
        after = files(rig)
        assert after["lexicon.slot"] == b"lexb"
        assert not {"lexicon.dawg", "lexicon.new"} & (set(before) | set(after))
        assert (rig.folder / "flash-lexa.bin").read_bytes()[:len(OLD)] == OLD  # the pushed list
        assert json.loads(after["config.json"])["table"] == 12
        info = listed(rig)
        assert (info["lexicon"]["name"], info["lexicon"]["slot"]) == (NEW_NAME, "lexb")

        # the next list goes into lexa while lexb's is in use, then lexa's is
        code, _ = flash(rig, OLD, tmp_path)
        assert code == 0, capsys.readouterr().out
        assert files(rig)["lexicon.slot"] == b"lexa"
        assert (rig.folder / "flash-lexb.bin").read_bytes()[:len(NEW)] == NEW
        info = listed(rig)
        assert (info["lexicon"]["name"], info["lexicon"]["slot"]) == (OLD_NAME, "lexa")

        # a list sent over the link goes into the partition not in use too: lexb
        with Link(rig.port, timeout=3.0) as link:
            link.push_lexicon(NEW)
            assert link.info()["lexicon"]["slot"] == "lexb"
        assert files(rig)["lexicon.slot"] == b"lexb"
    finally:
        rig.stop()


def test_a_damaged_block_is_refused_and_sent_again(tmp_path, capsys):
    rig = clock(tmp_path / "dev")
    try:
        rig.damage_blocks = {2}
        code, _ = flash(rig, NEW, tmp_path)
        assert code == 0, capsys.readouterr().out
        assert sum(e.endswith("bad data checksum") for e in rig.loaders[0].errors) == 1
        assert listed(rig)["lexicon"]["name"] == NEW_NAME
    finally:
        rig.stop()


def _failed_write(tmp_path, capsys, **fault):
    rig = clock(tmp_path / "dev")
    try:
        for name, value in fault.items():
            setattr(rig, name, value)
        code, _ = flash(rig, NEW, tmp_path, "--reconnect", "5")
        out = capsys.readouterr().out
        assert code == 1, out
        rig.relay.cut = False                  # the cable goes back in
        info = listed(rig)
        assert info["lexicon"]["name"] == OLD_NAME and info["lexicon"]["slot"] == "lexa"
        assert files(rig)["lexicon.slot"] == b"lexa"
        assert (rig.folder / "flash-lexa.bin").read_bytes()[:len(OLD)] == OLD
        loaders = list(rig.loaders)
        # the clock is whole: the same command then succeeds
        rig.damage_blocks, rig.pull_block = set(), None
        code, _ = flash(rig, NEW, tmp_path)
        assert code == 0, capsys.readouterr().out
        assert listed(rig)["lexicon"]["name"] == NEW_NAME
        return out, loaders
    finally:
        rig.stop()


def test_a_line_that_keeps_damaging_fails_clearly_and_the_old_list_stays(tmp_path, capsys):
    out, loaders = _failed_write(tmp_path, capsys, damage_blocks=set(range(2, 100)))
    assert "Bad data checksum" in out and "the old list stays in use" in out
    # esptool sends a refused block three times before it gives up
    assert sum(e.endswith("bad data checksum") for e in loaders[0].errors) == 3


@pytest.mark.slow
def test_a_cable_pulled_mid_write_keeps_the_old_list(tmp_path, capsys):
    out, _ = _failed_write(tmp_path, capsys, pull_block=2)
    assert "esptool failed" in out and "the old list stays in use" in out


def test_refused_while_a_game_is_in_progress(tmp_path, capsys):
    rig = clock(tmp_path / "dev", "--game", old_list=False)
    try:
        code, _ = flash(rig, NEW, tmp_path)
        out = capsys.readouterr().out
        assert code == 1
        assert "a game is in progress (--force" in out
        assert rig.sessions == 0 and rig.alive()      # esptool never ran
    finally:
        rig.stop()


def test_force_during_a_game_switches_the_list_and_the_game_goes_on(tmp_path, capsys):
    rig = clock(tmp_path / "dev", "--game")
    try:
        assert listed(rig)["game"] is True
        code, _ = flash(rig, NEW, tmp_path, "--force")
        out = capsys.readouterr().out
        assert code == 0, out
        row = out.splitlines()[1].split()
        assert row[:3] == [rig.port, "ok", NEW_NAME] and "goes" in row, out
        assert rig.sessions == 1
        info = listed(rig)
        assert info["game"] is True                   # the recovered game goes on
        assert (info["lexicon"]["name"], info["lexicon"]["slot"]) == (NEW_NAME, "lexb")
    finally:
        rig.stop()


def test_a_clock_of_the_older_layout_is_told_to_reflash_and_nothing_is_written(tmp_path,
                                                                                capsys):
    rig = clock(tmp_path / "dev", table=OLD_TABLE)
    try:
        before = vfs_image(rig, 0x200000)
        code, _ = flash(rig, NEW, tmp_path)
        out = capsys.readouterr().out
        assert code == 1, out
        assert "no word list partitions" in out and "reflash it with clockctl flash" in out
        assert rig.sessions == 0 and rig.alive()      # esptool never ran
        assert vfs_image(rig, 0x200000) == before
    finally:
        rig.stop()


def test_a_list_too_large_for_the_partition_is_refused_before_writing(tmp_path, capsys):
    rig = clock(tmp_path / "dev", table=wroom_table(0x2000))
    try:
        code, _ = flash(rig, NEW, tmp_path)
        out = capsys.readouterr().out
        assert code == 1, out
        # the old list was pushed into lexa: lexb is the one that does not hold the new
        assert "does not fit the clock's lexb partition (8192 bytes)" in out
        assert rig.sessions == 0
    finally:
        rig.stop()


@pytest.mark.slow
def test_a_clock_logging_all_the_time_keeps_every_line_with_the_polish_list(tmp_path, capsys):
    """The race: the clock appends to its game log as fast as it can while the Polish
    list is written, twice: into each partition once (bench/bench_lexflash.py runs it
    twenty times)."""
    from tests.host import lexflash_race
    from tests.host.memory_game import polish_image

    image = polish_image()
    rig = lexflash_race.busy_clock(tmp_path / "dev")
    try:
        slots, boots = [], []
        for _ in range(2):
            r = lexflash_race.run(rig, image, tmp_path)
            slots.append(r["slot"])
            boots.append(r["boot"])
        capsys.readouterr()
        assert slots == ["lexb", "lexa"]     # the old list was pushed into lexa
        # each flash restarted the clock once (the log itself rotates its oldest starts away)
        assert boots == [boots[0], boots[0] + 1], boots
        assert files(rig)["config.json"] and json.loads(files(rig)["config.json"])["table"] == 12
    finally:
        rig.stop()
