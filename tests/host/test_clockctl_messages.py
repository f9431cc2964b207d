"""clockctl's refusals: one clear line, a non-zero exit, nothing sent, nothing changed
(a missing word list file, preset_edits that are no object), and the default-PIN
warning naming the clocks as the user named them."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import cli
from host_tools.link import DeviceError, Link
from tests.host.linkrig import Rig
from tests.host.test_link_pty import OLD

REPO = Path(__file__).resolve().parents[2]


def clockctl(*args, cwd):
    return subprocess.run([sys.executable, "-m", "host_tools.cli", *map(str, args)], cwd=str(cwd),
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("command, verb", [("push-lexicon", "sent"), ("flash-lexicon", "written")])
def test_a_missing_word_list_file_is_one_clear_line(tmp_path, command, verb):
    r = clockctl(command, "no-such-list.dawg", "--port", tmp_path / "no-such-port", cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == ("clockctl: no-such-list.dawg: cannot read the word list image (No such "
                        "file or directory); nothing was %s, the clocks keep their lists\n" % verb)
    folder = tmp_path / "a-folder.dawg"
    folder.mkdir()
    r = clockctl(command, folder.name, "--port", tmp_path / "no-such-port", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.startswith("clockctl: a-folder.dawg: cannot read the "
                                                     "word list image (Is a directory)")
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("value", ["5", "abc", "[1]", "null", '"x"'])
def test_preset_edits_that_are_no_object_are_refused_before_anything_is_sent(tmp_path, value):
    r = clockctl("config", "preset=tso25", "preset_edits=" + value, "--port",
                 tmp_path / "no-such-port", cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("clockctl: preset_edits must be a JSON object of the preset's "
                               "fields, e.g. preset_edits='{\"initial_ms\": 1500000}'")
    assert r.stderr.rstrip().endswith("nothing was changed") and r.stderr.count("\n") == 1


def test_the_firmware_refuses_preset_edits_that_are_no_object_with_a_preset(tmp_path):
    """Another host (or an older clockctl) may send them: the clock names the setting
    instead of failing inside, whichever key comes first."""
    with Rig(tmp_path / "dev", files={"lexicon.dawg": OLD}) as rig:
        with Link(rig.port, timeout=3.0) as link:
            assert link.config_set({"preset_edits": {"initial_ms": 1500000}})["ok"]
            before = link.config_get()
            for changes in ({"preset": "tso25", "preset_edits": 5},
                            {"preset_edits": "abc", "preset": "tso25"}):
                with pytest.raises(DeviceError) as refused:
                    link.config_set(changes)
                assert (refused.value.code, refused.value.msg) == (
                    "E_CONFIG", "preset_edits: must be an object")
            assert link.config_get() == before


def _args(*argv):
    p = argparse.ArgumentParser()
    p.add_argument("--port", action="append")
    p.add_argument("--all", action="store_true")
    return p.parse_args(argv)


def test_the_default_pin_warning_addresses_the_clocks_as_the_user_did():
    assert cli.addressing(_args("--all"), ["/dev/ttyUSB0", "/dev/ttyUSB1"]) == "--all"
    assert cli.addressing(_args("--port", "/dev/ttyUSB0", "--port", "/dev/ttyUSB1"),
                          ["/dev/ttyUSB1"]) == "--port /dev/ttyUSB1"
    assert cli.addressing(_args("--port", "/tmp/my clock", "--all"),
                          ["/tmp/my clock", "/dev/ttyUSB0"]) == "--all --port '/tmp/my clock'"


def test_devices_and_config_by_port_suggest_the_same_ports(tmp_path, capsys):
    rigs = [Rig(tmp_path / ("dev%d" % i), args=("--id", "c10c%04d" % i),
                files={"lexicon.dawg": OLD}) for i in range(2)]
    for rig in rigs:
        rig.start()
    try:
        a, b = (rig.port for rig in rigs)
        with Link(b, timeout=3.0) as link:
            assert link.config_set({"referee_pin": "4711"})["ok"]
        for argv in (["devices"], ["config", "lang=en"]):
            assert cli.main([*argv, "--port", a, "--port", b]) == 0
            err = capsys.readouterr().err
            assert ("warning: 1 clock still has the default referee PIN 0000 (anyone can open "
                    "the referee menu): clockctl config referee_pin=NNNN --port %s\n" % a) in err
            assert "--all" not in err
    finally:
        for rig in rigs:
            rig.stop()
