"""clockctl flash-lexicon: esptool's own write-flash through the simulated chip's serial
download mode (host_tools/sim/romloader.py, tests/host/bootrig.py), then the firmware
(real MicroPython, files in LittleFS on the fake flash) checks and adopts the list."""

import json

from host_tools import cli
from host_tools.image import list_image
from host_tools.link import Link
from tests.host.bootrig import BootRig
from tests.host.linkrig import wait_for
from tests.host.test_link_pty import NEW, OLD
from wordlist_packer.image import Image

NEW_NAME, OLD_NAME = Image(NEW).name, Image(OLD).name


def _clock(tmp_path, *extra):
    rig = BootRig(tmp_path / "dev", args=("--flash", "--id", "c10cf1a5") + extra).start()
    with Link(rig.port, timeout=3.0) as link:       # the clock starts with the old list
        link.push_lexicon(OLD)
        assert link.config_set({"table": 12})["ok"]
    return rig


def _files(rig):
    data = (rig.folder / "flash-vfs.bin").read_bytes()
    return list_image(data + b"\xff" * (0x200000 - len(data)))


def _file(rig, name):
    """One file of the clock's filesystem (after a pulled cable lexicon.new may name
    blocks that never arrived: reading everything would trip over it)."""
    from littlefs import LittleFS

    data = (rig.folder / "flash-vfs.bin").read_bytes()
    fs = LittleFS(block_size=4096, block_count=512, mount=False)
    fs.context.buffer[:] = data + b"\xff" * (0x200000 - len(data))
    fs.mount()
    with fs.open(name, "rb") as f:
        return f.read()


def _retry_works(rig, tmp_path, capsys):
    """After a failed write the clock is whole: the same command then succeeds."""
    rig.damage_blocks, rig.pull_block = set(), None
    image = tmp_path / "new.dawg"
    code = cli.main(["flash-lexicon", str(image), "--target", "wroom", "--port", rig.port])
    assert code == 0, capsys.readouterr().out
    assert _files(rig)["lexicon.dawg"] == NEW


def _listed(rig):
    wait_for(lambda: rig.alive() and rig.loader is None, 20, "the clock to start again")
    with Link(rig.port, timeout=3.0) as link:
        return link.info()["lexicon"]["name"]


def test_esptool_writes_the_list_and_the_firmware_adopts_it(tmp_path, capsys):
    rig = _clock(tmp_path)
    try:
        image = tmp_path / "new.dawg"
        image.write_bytes(NEW)
        code = cli.main(["flash-lexicon", str(image), "--target", "wroom", "--port", rig.port])
        out = capsys.readouterr().out
        assert code == 0, out
        row = out.splitlines()[1].split()
        assert row[:3] == [rig.port, "ok", NEW_NAME], out
        assert rig.sessions == 1
        [loader] = rig.loaders
        # esptool asks twice for what the ESP32 lacks (chip id, security info), nothing else
        assert set(loader.errors) == {"GET_SECURITY_INFO (not on the ESP32)"}
        # only what the list needs: its blocks and the directory's, not the partition
        assert len(NEW) <= loader.written < len(NEW) + 8 * 4096
        files = _files(rig)
        assert files["lexicon.dawg"] == NEW
        assert "lexicon.new" not in files and "lexicon.job" not in files
        assert json.loads(files.get("config.json", b"{}")).get("table") == 12, sorted(files)
        assert _listed(rig) == NEW_NAME
    finally:
        rig.stop()


def _failed_write(tmp_path, capsys, **fault):
    rig = _clock(tmp_path)
    try:
        for name, value in fault.items():
            setattr(rig, name, value)
        image = tmp_path / "new.dawg"
        image.write_bytes(NEW)
        code = cli.main(["flash-lexicon", str(image), "--target", "wroom", "--port", rig.port,
                         "--reconnect", "5"])
        out = capsys.readouterr().out
        assert code == 1, out
        rig.relay.cut = False                  # the cable goes back in
        assert _listed(rig) == OLD_NAME
        assert _file(rig, "lexicon.dawg") == OLD
        loaders = list(rig.loaders)
        _retry_works(rig, tmp_path, capsys)
        return out, loaders
    finally:
        rig.stop()


def test_a_damaged_block_is_refused_and_sent_again(tmp_path, capsys):
    rig = _clock(tmp_path)
    try:
        rig.damage_blocks = {2}
        image = tmp_path / "new.dawg"
        image.write_bytes(NEW)
        code = cli.main(["flash-lexicon", str(image), "--target", "wroom", "--port", rig.port])
        assert code == 0, capsys.readouterr().out
        assert sum(e.endswith("bad data checksum") for e in rig.loaders[0].errors) == 1
        assert _files(rig)["lexicon.dawg"] == NEW
    finally:
        rig.stop()


def test_a_line_that_keeps_damaging_fails_clearly_and_the_old_list_stays(tmp_path, capsys):
    out, loaders = _failed_write(tmp_path, capsys, damage_blocks=set(range(2, 100)))
    assert "Bad data checksum" in out and "the old list stays in use" in out
    # esptool sends a refused block three times before it gives up
    assert sum(e.endswith("bad data checksum") for e in loaders[0].errors) == 3


def test_a_cable_pulled_mid_write_keeps_the_old_list(tmp_path, capsys):
    out, _ = _failed_write(tmp_path, capsys, pull_block=2)
    assert "esptool failed" in out and "the old list stays in use" in out


def test_refused_while_a_game_is_in_progress(tmp_path, capsys):
    rig = BootRig(tmp_path / "dev", args=("--flash", "--game")).start()
    try:
        image = tmp_path / "new.dawg"
        image.write_bytes(NEW)
        code = cli.main(["flash-lexicon", str(image), "--target", "wroom", "--port", rig.port])
        out = capsys.readouterr().out
        assert code == 1
        assert "a game is in progress (--force" in out
        assert rig.sessions == 0 and rig.alive()      # esptool never ran
    finally:
        rig.stop()
