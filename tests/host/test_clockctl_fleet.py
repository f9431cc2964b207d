"""clockctl against several real-MicroPython devices at once (tests/host/linkrig.py)."""

import csv
import io
import json

import pytest

from serial.tools.list_ports_common import ListPortInfo

from host_tools import cli, fleet
import host_tools.link as hl
from tests.host.linkrig import Rig, wait_for
from tests.host.test_link_pty import NEW, OLD


def port_info(device, vid=None, pid=None):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


def test_usb_ids_of_esp32_bridges_are_recognised():
    ports = [port_info("/dev/ttyUSB0", 0x10C4, 0xEA60), port_info("/dev/ttyUSB1", 0x1A86, 0x7523),
             port_info("/dev/ttyACM0", 0x1A86, 0x55D4), port_info("/dev/ttyUSB2", 0x0403, 0x6001),
             port_info("/dev/ttyACM1", 0x303A, 0x1001), port_info("/dev/ttyS0"),
             port_info("/dev/ttyACM2", 0x2341, 0x0043), port_info("/dev/ttyUSB3", 0x10C4, 0xEA61)]
    assert cli.find_ports(ports) == [("/dev/ttyACM0", "CH9102"), ("/dev/ttyACM1", "ESP32 native USB"),
                                     ("/dev/ttyUSB0", "CP210x"), ("/dev/ttyUSB1", "CH340"),
                                     ("/dev/ttyUSB2", "FTDI FT232R")]


def test_assignments_parse_json_or_text():
    assert cli.parse_assignments(["lang=pl", "verdict_ms=8000", "sound_mute=true",
                                  'preset_edits={"initial_ms": 1500000}', "referee_pin=0123"]) == {
        "lang": "pl", "verdict_ms": 8000, "sound_mute": True,
        "preset_edits": {"initial_ms": 1500000}, "referee_pin": "0123"}


def test_progress_lines_and_table():
    out = io.StringIO()
    p = fleet.Progress(["/dev/a", "/dev/b"], out, live=False)
    p.update("/dev/a", "send", 50, 100)
    p.update("/dev/a", "send", 60, 100)   # same quarter: no new line
    p.update("/dev/b", "done", 10, 10)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and "50%" in lines[0] and "100% done" in lines[1]
    results = [fleet.Result("/dev/a", True, "", {"x": 1}), fleet.Result("/dev/b", False, "boom")]
    text = fleet.table(results, [("x", "X")])
    assert "FAILED" in text and "1 of 2 devices succeeded" in text
    assert fleet.exit_code(results) == 1 and fleet.exit_code(results[:1]) == 0


class _FakeLink:
    def __init__(self, info):
        self.device_info = info

    def config_get(self):
        return {"table": self.device_info["table"], "referee_pin": "4711"}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_devices_shows_a_clock_that_cannot_save(monkeypatch, capsys):
    # INFO's storage field: a line in the table and a warning for each clock concerned
    infos = {"/dev/a": {"table": "Saal-B-12345", "storage": "log_full", "lines_lost": 28},
             "/dev/b": {"table": "T2", "storage": "not_saving", "lines_lost": 0},
             "/dev/c": {"table": "T3", "storage": "", "lines_lost": 0}}
    monkeypatch.setattr(cli, "_link", lambda args, port: _FakeLink(infos[port]))
    code = cli.main(["devices", "--port", "/dev/a", "--port", "/dev/b", "--port", "/dev/c"])
    out, err = capsys.readouterr()
    assert code == 0
    rows = {l.split()[0]: " ".join(l.split()) for l in out.splitlines() if l.startswith("/dev/")}
    # ... game, storage, referee PIN
    assert rows["/dev/a"].endswith(" no log full, 28 log lines lost set")
    assert rows["/dev/b"].endswith(" no not saving set") and rows["/dev/c"].endswith(" no ok set")
    assert "warning: /dev/a (table Saal-B-12345): log full, 28 log lines lost" in err
    assert "warning: /dev/b (table T2): not saving" in err and "warning: /dev/c" not in err


def _rigs(tmp_path, *argsets, files=None):
    return [Rig(tmp_path / f"dev{i}", args=a + ("--id", f"c10c{i:04d}"),
                files={"lexicon.dawg": OLD, **(files or {})}) for i, a in enumerate(argsets)]


def test_devices_push_config_logs_on_a_fleet(tmp_path, capsys):
    log = b'{"game": 1, "scores": [312, 287], "overtime_ms": [0, 4000]}\n{"game": 2, "scores": [400, 390]}\n'
    rigs = _rigs(tmp_path, (), ("--game",), (), files={"logs/games.jsonl": log})
    for r in rigs:
        r.start()
    try:
        ports = [a for r in rigs for a in ("--port", r.port)]
        # devices: one missing port fails alone
        code = cli.main(["devices", *ports, "--port", str(tmp_path / "no-such-port")])
        out = capsys.readouterr().out
        assert code == 1
        assert "c10c0000" in out and "c10c0002" in out and "old-list" in out
        assert "3 of 4 devices succeeded" in out and "FAILED" in out
        row = [l for l in out.splitlines() if "c10c0001" in l][0].split()
        assert row[-3:] == ["yes", "-", "DEFAULT"]          # game, storage, referee PIN

        image = tmp_path / "new.dawg"
        image.write_bytes(NEW)
        code = cli.main(["push-lexicon", str(image), *ports])
        out = capsys.readouterr().out
        assert code == 1 and "game is in progress" in out and "2 of 3 devices succeeded" in out
        assert (tmp_path / "dev0" / "lexicon.dawg").read_bytes() == NEW
        assert (tmp_path / "dev1" / "lexicon.dawg").read_bytes() == OLD
        assert cli.main(["push-lexicon", str(image), "--force", "--port", rigs[1].port]) == 0
        assert (tmp_path / "dev1" / "lexicon.dawg").read_bytes() == NEW
        capsys.readouterr()

        assert cli.main(["config", "lang=nb", "referee_pin=9876", *ports]) == 0
        for i in range(3):
            stored = json.loads((tmp_path / f"dev{i}" / "config.json").read_text())
            assert stored["lang"] == "nb" and stored["referee_pin"] == "9876"
        assert cli.main(["config", "lang=klingon", "--port", rigs[0].port]) == 1
        assert "lang" in capsys.readouterr().out

        out_dir = tmp_path / "pulled"
        assert cli.main(["logs", "--format", "csv", "--out", str(out_dir), *ports]) == 0
        rows = list(csv.DictReader((out_dir / "c10c0000-games.csv").open(encoding="utf-8-sig")))
        # one column per value: a spreadsheet opens it as it is
        assert [r["game"] for r in rows] == ["1", "2"]
        assert (rows[0]["scores.0"], rows[0]["scores.1"]) == ("312", "287")
        assert rows[0]["overtime_ms.1"] == "4000" and rows[1]["overtime_ms.1"] == ""
        assert cli.main(["logs", "--kind", "games", "--out", str(out_dir), "--port", rigs[0].port]) == 0
        assert (out_dir / "c10c0000-games.jsonl").read_bytes().splitlines()[1] == \
            b'{"game": 2, "scores": [400, 390]}'
        assert (out_dir / "c10c0001-challenges.csv").read_text(encoding="utf-8-sig") == "\n"
    finally:
        for r in rigs:
            r.stop()


def test_push_reconnects_and_resumes_after_the_cable_comes_back(tmp_path, capsys):
    [rig] = _rigs(tmp_path, ())
    rig.start()
    try:
        image = tmp_path / "new.dawg"
        image.write_bytes(NEW)
        rig.relay.cut_after = len(NEW) // 2
        import threading

        def replug():
            # The cable goes back in once the tool has given up on the first connection
            # and opened the port again: its first request then (INFO, which every
            # connection starts with, setting the clock's time) is lost in the cut too.
            def begins():
                frames = hl.Decoder().feed(bytes(rig.relay.dropped))
                return sum(1 for f in frames if f[0] == hl.OK
                           and f[2] in (hl.LEX_BEGIN, hl.INFO)) >= 1
            wait_for(begins, timeout=60, what="the tool to reconnect")
            rig.relay.cut = False
        t = threading.Thread(target=replug)
        t.start()
        code = cli.main(["push-lexicon", str(image), "--reconnect", "30", "--timeout", "0.3",
                         "--port", rig.port])
        t.join()
        out = capsys.readouterr().out
        assert code == 0, out
        assert "resumed at" in out
        assert (tmp_path / "dev0" / "lexicon.dawg").read_bytes() == NEW
    finally:
        rig.stop()


def test_push_refuses_a_list_of_no_words_before_touching_a_clock(tmp_path, capsys):
    from tests.host.lexicon_fixtures import empty_image

    image = tmp_path / "empty.dawg"
    image.write_bytes(empty_image())
    with pytest.raises(SystemExit) as stop:
        cli.main(["push-lexicon", str(image), "--port", str(tmp_path / "no-such-port")])
    assert "holds no words" in str(stop.value) and "keep their lists" in str(stop.value)
