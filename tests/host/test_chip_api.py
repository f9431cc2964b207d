"""The firmware and the fakes use only the API the ESP32 port has (tests/host/chip_api.py)."""

from pathlib import Path

import pytest

from tests.host import chip_api

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
DEVICE_FILES = sorted(p for p in FIRMWARE.rglob("*.py")
                      if "__pycache__" not in p.parts and p.name != "manifest.py")

PROBE = '''\
import esp32
import machine
from machine import Pin

button = Pin(4, Pin.IN, Pin.PULL_UP)
button.irq(handler=print, trigger=Pin.IRQ_FALLING, hard=True)
button.irq(print, Pin.IRQ_RISING, priority=2)
edges = button.irq().flags()
button.mode(Pin.OUT)
button.pull(Pin.PULL_HOLD)
button.drive(Pin.DRIVE_3)
Pin(5, Pin.OUT, alt=1)
esp32.Partition("vfs").erase(0)
print(esp32.raw_temperature())
'''


def test_firmware_names_no_api_the_esp32_port_lacks():
    found = chip_api.problems_in(DEVICE_FILES, REPO)
    assert not found, "\n".join(found)


def test_a_probe_with_what_the_port_lacks_fails_the_check(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    found = chip_api.problems(probe, "probe.py")
    text = "\n".join(found)
    expected = {
        6: "irq(hard=...)", 7: "irq(priority=...)", 8: ".flags()", 9: ".mode()",
        10: ".pull()", 11: ".drive()", 12: "Pin(alt=...)", 13: ".erase()",
        14: ".raw_temperature",
    }
    for line, what in expected.items():
        assert any(f.startswith("probe.py:%d: %s" % (line, what)) for f in found), (what, text)
    assert any(f.startswith("probe.py:10: .PULL_HOLD") for f in found), text
    # Every report names the place in the port's source.
    assert all("micropython v1.26.0 ports/esp32/" in f for f in found), text
    # A call the port has is not reported.
    assert not any(f.startswith(("probe.py:5:", "probe.py:1:")) for f in found), text


def test_the_probe_alone_is_caught_for_hard_irq(tmp_path):
    probe = tmp_path / "hard.py"
    probe.write_text("from machine import Pin\nPin(4).irq(hard=True)\n")
    assert [f.split(" (")[0] for f in chip_api.problems(probe, "hard.py")] == [
        "hard.py:2: irq(hard=...): the port's Pin.irq takes only handler, trigger, wake"]


def _fakes():
    import esp32
    import machine

    return machine, esp32


@pytest.mark.parametrize("kind", sorted(chip_api.PORT_API))
def test_the_fakes_offer_nothing_the_port_lacks(kind):
    machine, esp32 = _fakes()
    parts = kind.split(".")
    obj = {"machine": machine, "esp32": esp32}[parts[0]]
    for part in parts[1:]:
        if part == "irq()":
            obj = type(obj(4).irq())
        elif part == "RTC" and not hasattr(obj, "RTC"):
            pytest.skip("the fakes have no RTC")
        else:
            obj = getattr(obj, part)
    if kind in ("machine", "esp32"):
        names = set(getattr(obj, "_LAZY", ())) | set(dir(obj))
        obj = type("Module", (), {n: getattr(obj, n, None) for n in names
                                  if not n.startswith("_")})
    assert chip_api.extra_names(kind, obj) == set()
