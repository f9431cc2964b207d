"""The host tools against the real firmware main program (firmware/main.py on the
reference board wired up with the fakes), its link on a pseudo-terminal."""

from pathlib import Path

import pytest

from host_tools.drivers import driver_dir
from host_tools.link import DeviceError, Link
from tests.host.linkrig import Rig
from tests.host.test_link_pty import NEW, OLD

ENTRY = Path(__file__).resolve().parent / "link_firmware_main.py"


@pytest.fixture
def firmware(tmp_path):
    log = b'{"game": 7, "result": [350, 301]}\n'
    rig = Rig(tmp_path / "dev", script=ENTRY, path_extra=[driver_dir()],
              files={"lexicon.dawg": OLD, "logs/games.1.jsonl": b'{"game": 6}\n',
                     "logs/games.jsonl": log})
    rig.start()
    yield rig
    rig.stop()


def test_real_firmware_info_config_logs(firmware):
    with Link(firmware.port, timeout=2) as link:
        info = link.info()
        assert info["proto"] == 1 and info["firmware"] == "0.1.0" and info["game"] is False
        assert info["lexicon"]["name"] == "old-list"
        link.config_set({"lang": "en"})
        assert link.config_get()["lang"] == "en"
        with pytest.raises(DeviceError):
            link.config_set({"verdict_ms": "soon"})
        from host_tools.cli import pull_log
        assert pull_log(link, "games") == b'{"game": 6}\n{"game": 7, "result": [350, 301]}\n'


def test_real_firmware_takes_a_new_list_and_keeps_the_old_one_on_failure(firmware):
    folder = firmware.folder
    with Link(firmware.port, timeout=2) as link:
        bad = bytearray(NEW)
        bad[-3] ^= 0x55
        with pytest.raises(DeviceError) as rejected:
            link.push_lexicon(bytes(bad))
        assert rejected.value.code == "E_VERIFY"
        assert (folder / "lexicon.dawg").read_bytes() == OLD
        result = link.push_lexicon(NEW)
        assert result["lexicon"]["name"] == "new-list"
        assert link.info()["lexicon"]["name"] == "new-list"
    assert (folder / "lexicon.dawg").read_bytes() == NEW
    assert firmware.alive()
