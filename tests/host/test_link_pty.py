"""The host link against the firmware's link task in the real MicroPython
interpreter, over pseudo-terminals and pyserial (tests/host/linkrig.py)."""

import json
import random
import zlib

import pytest

from host_tools.link import DeviceError, Link, LinkError, NoAnswer, encode, INFO
from tests.host.linkrig import Rig, wait_for
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines


def make_image(name, version, n_words=3000, seed=1):
    rnd = random.Random(seed)
    letters = "abcdefghijklmnoprstuwyz"
    words = {"".join(rnd.choice(letters) for _ in range(rnd.randint(2, 9))) for _ in range(n_words)}
    return build_from_lines(sorted(words), Profile.builtin("en"), name=name, version=version,
                            date=1700000000)


OLD = make_image("old-list", "1", n_words=300, seed=2)
NEW = make_image("new-list", "2024.1", n_words=6000, seed=3)


def device(tmp_path, *args, files=None):
    base = {"lexicon.dawg": OLD}
    base.update(files or {})
    return Rig(tmp_path / "dev", args=args, files=base)


def test_info_names_device_firmware_list_and_game(tmp_path):
    with device(tmp_path) as rig, Link(rig.port) as link:
        info = link.info()
    assert info["device"] == "a0b1c2d3e4f5"
    assert info["firmware"] == "0.1.0"
    assert info["proto"] == 1
    assert info["game"] is False
    lex = info["lexicon"]
    assert (lex["name"], lex["version"]) == ("old-list", "1")
    assert lex["crc"] == zlib.crc32(OLD[OLD.index(b"TCLX") + 0:][int.from_bytes(OLD[8:12], "little"):])
    assert lex["size"] == len(OLD)


def test_config_get_set_validates_through_the_store(tmp_path):
    with device(tmp_path) as rig, Link(rig.port) as link:
        assert link.config_get()["lang"] == "de"
        assert link.config_set({"lang": "pl", "referee_pin": "4321"})["ok"] is True
        with pytest.raises(DeviceError) as bad:
            link.config_set({"lang": "xx"})
        assert bad.value.code == "E_CONFIG" and "lang" in bad.value.msg
        with pytest.raises(DeviceError) as unknown:
            link.config_set({"warp_speed": 9})
        assert unknown.value.code == "E_CONFIG"
        got = link.config_get()
    assert got["lang"] == "pl" and got["referee_pin"] == "4321"
    stored = json.loads((tmp_path / "dev" / "config.json").read_text())
    assert stored == {"lang": "pl", "referee_pin": "4321"}


def test_logs_are_pulled_whole_rotated_generation_first(tmp_path):
    old = "".join(json.dumps({"game": i, "winner": i % 2}) + "\n" for i in range(40)).encode()
    cur = "".join(json.dumps({"game": 40 + i, "note": "x" * 30}) + "\n" for i in range(30)).encode()
    files = {"logs/games.1.jsonl": old, "logs/games.jsonl": cur,
             "logs/challenges.jsonl": b'{"word": "ZA\xc5\xbb\xc3\x93\xc5\x81\xc4\x86", "ok": true}\n'}
    with device(tmp_path, files=files) as rig, Link(rig.port) as link:
        games = link.read_log("games")
        challenges = link.read_log("challenges")
        with pytest.raises(DeviceError) as bad:
            link.read_log("passwords")
    assert games == old + cur and len(games) > 2048
    assert json.loads(challenges)["word"] == "ZAŻÓŁĆ"
    assert bad.value.code == "E_LOG"


def test_push_lexicon_swaps_in_the_new_list(tmp_path):
    seen = []
    with device(tmp_path) as rig, Link(rig.port) as link:
        result = link.push_lexicon(NEW, progress=lambda phase, done, total: seen.append((phase, done)))
        info = link.info()
    assert result["resumed_from"] == 0 and result["sent"] == len(NEW)
    assert (tmp_path / "dev" / "lexicon.dawg").read_bytes() == NEW
    assert not (tmp_path / "dev" / "lexicon.new").exists()
    assert not (tmp_path / "dev" / "lexicon.job").exists()
    assert info["lexicon"]["name"] == "new-list" and info["lexicon"]["size"] == len(NEW)
    assert info["test"]["swaps"] == 1 and info["transfer"] is None
    assert seen[0] == ("send", 0) and seen[-1] == ("done", len(NEW))
    assert ("verify", len(NEW)) in seen


def test_cable_pulled_mid_transfer_keeps_old_list_and_resumes(tmp_path):
    folder = tmp_path / "dev"
    with device(tmp_path) as rig:
        rig.relay.cut_after = len(NEW) // 2
        with Link(rig.port, timeout=0.3, retries=2) as link:
            with pytest.raises(NoAnswer):
                link.push_lexicon(NEW)
        # The old list is untouched and still the one in use.
        assert (folder / "lexicon.dawg").read_bytes() == OLD
        assert rig.alive()
        rig.relay.cut = False   # cable back in
        with Link(rig.port) as link:
            info = link.info()
            assert info["lexicon"]["name"] == "old-list"
            assert 0 < info["transfer"]["have"] < len(NEW)
            result = link.push_lexicon(NEW)
    assert 0 < result["resumed_from"] < len(NEW)
    assert result["sent"] == len(NEW) - result["resumed_from"]
    assert (folder / "lexicon.dawg").read_bytes() == NEW


def test_transfer_resumes_after_the_device_restarted(tmp_path):
    folder = tmp_path / "dev"
    with device(tmp_path) as rig:
        rig.relay.cut_after = len(NEW) // 3
        with Link(rig.port, timeout=0.3, retries=1) as link, pytest.raises(NoAnswer):
            link.push_lexicon(NEW)
    # Power cycle: a new interpreter finds lexicon.new and lexicon.job on the disk.
    partial = (folder / "lexicon.new").stat().st_size
    assert 0 < partial < len(NEW)
    with Rig(folder) as rig, Link(rig.port) as link:
        assert link.info()["lexicon"]["name"] == "old-list"
        result = link.push_lexicon(NEW)
    assert result["resumed_from"] == partial
    assert (folder / "lexicon.dawg").read_bytes() == NEW


def test_a_stale_partial_file_of_another_image_is_not_resumed(tmp_path):
    folder = tmp_path / "dev"
    other = make_image("other", "9", n_words=6000, seed=9)
    with device(tmp_path) as rig:
        rig.relay.cut_after = len(other) // 2
        with Link(rig.port, timeout=0.3, retries=1) as link, pytest.raises(NoAnswer):
            link.push_lexicon(other)
        rig.relay.cut = False
        with Link(rig.port, timeout=10.0) as link:      # a bound against a hang only
            result = link.push_lexicon(NEW)
    assert result["resumed_from"] == 0
    assert (folder / "lexicon.dawg").read_bytes() == NEW


def test_corrupted_chunk_is_sent_again(tmp_path):
    with device(tmp_path) as rig:
        rig.relay.corrupt_at = [len(NEW) // 3, 2 * len(NEW) // 3]
        with Link(rig.port) as link:
            result = link.push_lexicon(NEW)
            naks = link.stats["naks"] + link.stats["retransmits"]
    assert rig.relay.corrupted == 2
    assert naks >= 2
    assert result["sent"] > len(NEW) - 1 or result["sent"] == len(NEW)
    assert (tmp_path / "dev" / "lexicon.dawg").read_bytes() == NEW


def test_push_refused_during_a_game_unless_forced(tmp_path):
    folder = tmp_path / "dev"
    with device(tmp_path, "--game") as rig, Link(rig.port) as link:
        before = link.info()
        assert before["game"] is True
        with pytest.raises(DeviceError) as refused:
            link.push_lexicon(NEW)
        assert refused.value.code == "E_GAME"
        assert (folder / "lexicon.dawg").read_bytes() == OLD
        result = link.push_lexicon(NEW, force=True)
        after = link.info()
    assert result["lexicon"]["name"] == "new-list"
    assert (folder / "lexicon.dawg").read_bytes() == NEW
    # The game went on: same phase and turn, and its loop kept running.
    assert after["game"] is True
    assert after["test"]["phase"] == before["test"]["phase"]
    assert after["test"]["on_turn"] == before["test"]["on_turn"]
    assert after["test"]["loops"] > before["test"]["loops"]


def test_damaged_image_is_rejected_and_the_old_list_stays(tmp_path):
    folder = tmp_path / "dev"
    bad = bytearray(NEW)
    bad[-10] ^= 0xFF   # the body no longer matches the CRC in its header
    with device(tmp_path) as rig, Link(rig.port) as link:
        with pytest.raises(DeviceError) as rejected:
            link.push_lexicon(bytes(bad))
        assert rejected.value.code == "E_VERIFY"
        info = link.info()
    assert info["lexicon"]["name"] == "old-list" and info["transfer"] is None
    assert (folder / "lexicon.dawg").read_bytes() == OLD
    assert not (folder / "lexicon.new").exists()


def test_not_an_image_is_rejected(tmp_path):
    with device(tmp_path) as rig, Link(rig.port) as link:
        with pytest.raises(DeviceError) as rejected:
            link.push_lexicon(b"hello world, not a word list" * 50)
        assert rejected.value.code == "E_VERIFY"
        assert link.info()["lexicon"]["name"] == "old-list"


@pytest.mark.slow
def test_device_at_the_repl_gives_a_clear_error(tmp_path):
    repl = tmp_path / "repl.py"
    # What a device without the firmware does: the REPL reads and echoes the line.
    repl.write_text("import sys\nprint('MicroPython v1.24.1 on 2024-11-29; Generic ESP32 module')\n"
                    "print('>>> ', end='')\nwhile True:\n    b = sys.stdin.buffer.read(1)\n"
                    "    sys.stdout.buffer.write(b)\n")
    # (long enough for the echo to come back from a busy machine: the error names the REPL
    # only when the device's echo was seen)
    with Rig(tmp_path / "dev", script=repl) as rig, Link(rig.port, timeout=5.0, retries=1) as link:
        with pytest.raises(NoAnswer) as silent:
            link.info()
    assert "REPL" in silent.value.msg


def test_wrong_protocol_version_is_named(tmp_path):
    import host_tools.link as hl
    with device(tmp_path) as rig, Link(rig.port) as link:
        wire = hl.escape(bytes([2]) + hl.body(INFO, 77)[1:-4])
        body = bytes([2]) + hl.body(INFO, 77)[1:-4]
        wire = b"\x7e" + hl.escape(body + zlib.crc32(body).to_bytes(4, "little")) + b"\x7e"
        link.ser.write(wire)
        got = wait_for(lambda: [r for r in link.decoder.feed(link.ser.read(256)) if r[0] == hl.OK],
                       what="a reply")
        assert got[0][2] == hl.ERROR and got[0][3] == 77
        assert json.loads(got[0][4])["code"] == "E_VERSION"
        assert link.info()["proto"] == 1
