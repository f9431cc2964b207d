"""The firmware and the fakes use only the API each target's ESP32 port has: the
allow-list tests/host/data/esp32_port_api.json (tests/host/gen_port_api.py) and the
check of every use against it (tests/host/chip_api.py)."""

import inspect
import textwrap
import types
from pathlib import Path

import pytest

from tests.host import chip_api

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
DEVICE_FILES = sorted(p for p in FIRMWARE.rglob("*.py")
                      if "__pycache__" not in p.parts and p.name != "manifest.py")

_CACHE = {}


def _firmware(what):
    """The check of firmware/ (run once for the tests that read it)."""
    if not _CACHE:
        _CACHE["problems"], _CACHE["uses"] = chip_api.analyse(DEVICE_FILES, REPO)
    return _CACHE[what]


def _check(source, **modules):
    sources = {"probe": ("probe.py", textwrap.dedent(source))}
    for name, text in modules.items():
        sources[name] = (name + ".py", textwrap.dedent(text))
    return chip_api.problems_in_sources(sources)


def _at(found, line, target=None):
    return [f for f in found if f.startswith("probe.py:%d: " % line)
            and (target is None or "[%s]" % target in f)]


def test_the_data_names_what_it_was_read_from():
    data = chip_api.api()
    assert data["micropython"]["tag"] == "v1.26.0"
    assert len(data["micropython"]["commit"]) == 40
    assert data["esp-idf"]["tag"] == data["esp-idf"]["micropython_ci_builds_with"]
    assert set(data["targets"]) == {"wroom", "s3"}
    for target in data["targets"].values():
        assert set(target["modules"]) == {"machine", "esp32", "esp", "network", "micropython"}
        assert not target["preprocessor_errors"]


def test_the_firmware_uses_only_what_each_target_provides():
    found = _firmware("problems")
    assert not found, "\n".join(found)


def test_the_check_follows_chip_objects_through_the_firmware():
    """Uses reached only through variables, attributes, containers and arguments are
    seen (else the check above would pass by not looking)."""
    uses = {(path, what) for path, _line, target, what in _firmware("uses") if target == "s3"}
    for path, what in [
        ("firmware/hal_buttons.py", "machine.Pin.irq"),      # Button.pin, from create()
        ("firmware/hal_keypad.py", "machine.Pin.value"),     # rows in a list, a loop
        ("firmware/hal_battery.py", "machine.ADC.read_uv"),  # Battery._adc
        ("firmware/hal_buzzer.py", "machine.PWM.duty_u16"),
        ("firmware/terminal/pinlock.py", "esp32.NVS.set_blob"),  # nvs passed down
        ("firmware/store/state.py", "esp32.NVS.commit"),
        ("firmware/lexicon/partsource.py", "esp32.Partition.readblocks"),  # find()[0]
        ("firmware/hal_rtc.py", "machine.RTC.datetime"),
    ]:
        assert (path, what) in uses, (path, what)


PROBES = '''\
import esp32
import machine
from machine import ADC, I2C, Pin, RTC, SoftI2C, Timer

RTC().alarm(0, 1000)
Timer(-1)
width = ADC.WIDTH_10BIT
bus = I2C(0, scl=Pin(1), sda=Pin(2))
bus.start()
RTC().memory(b"x" * 2049)
rtc = machine.RTC()
rtc.alarm(0, 10)
getattr(bus, "start")()
button = Pin(4, Pin.IN, Pin.PULL_UP)
button.irq(handler=print, trigger=Pin.IRQ_FALLING, hard=True)
button.mode(Pin.OUT)
button.pull(Pin.PULL_HOLD)
Pin(5, Pin.OUT, alt=1)
esp32.Partition("vfs").erase(0)
print(esp32.raw_temperature())
getattr(machine, name_from_somewhere)
RTC().memory(bytearray(4096))
edges = button.irq().flags()
'''


@pytest.mark.parametrize("line, target, text", [
    (5, "wroom", "machine.RTC() has no alarm"),
    (5, "s3", "machine.RTC() has no alarm"),
    (6, "wroom", "machine.Timer(-1): the port takes 0 to 3"),
    (6, "s3", "machine.Timer(-1): the port takes 0 to 3"),
    (7, "s3", "machine.ADC has no WIDTH_10BIT"),
    (9, "wroom", "machine.I2C.start: raises OSError"),
    (9, "s3", "machine.I2C.start: raises OSError"),
    (10, "s3", "machine.RTC.memory() with 2049 bytes: the port keeps at most 2048"),
    (12, "s3", "machine.RTC() has no alarm"),            # through a variable
    (13, "s3", "machine.I2C.start: raises OSError"),     # through getattr
    (15, "s3", "machine.Pin.irq(hard=...): the port takes handler, trigger, wake"),
    (16, "s3", "machine.Pin() has no mode"),
    (17, "s3", "machine.Pin() has no pull"),
    (17, "s3", "machine.Pin has no PULL_HOLD"),
    (18, "s3", "machine.Pin(alt=...)"),
    (19, "s3", "esp32.Partition() has no erase"),
    (20, "s3", "esp32 has no raw_temperature"),
    (21, "s3", "getattr(machine, <not a constant>)"),
    (22, "wroom", "machine.RTC.memory() with 4096 bytes"),
    (23, "s3", "machine.Pin.irq() has no flags"),
])
def test_a_probe_the_port_lacks_or_refuses_is_refused(line, target, text):
    found = _check(PROBES)
    here = _at(found, line, target)
    assert any(text in f for f in here), "\n".join(found)
    # each report names where in the port's source
    assert all("(micropython v1.26.0 " in f for f in here if "getattr" not in text), here


def test_what_the_port_has_is_not_reported():
    found = _check(PROBES)
    for line in (1, 2, 3, 8, 11, 14):
        assert not _at(found, line), "\n".join(found)
    # the width the ESP32 has, and raw_temperature, are the WROOM's
    assert not _at(found, 7, "wroom") and not _at(found, 20, "wroom"), found
    assert not _check('''\
        from machine import RTC, SoftI2C, Pin, Timer
        RTC().memory(b"x" * 2048)
        Timer(3, mode=Timer.PERIODIC, period=10)
        SoftI2C(Pin(1), Pin(2)).start()
        ''')


def test_a_denied_method_through_a_firmware_object_is_refused():
    """The chip object is made in one module, kept by an object of another and used in
    a method there: the check follows it."""
    found = _check('''\
        from machine import RTC
        import keeper
        k = keeper.Keeper(RTC())
        k.ring()
        ''', keeper='''\
        class Keeper:
            def __init__(self, rtc):
                self.rtc = rtc
            def ring(self):
                parts = [self.rtc]
                for clock in parts:
                    clock.alarm(0, 5)
        ''')
    assert any(f.startswith("keeper.py:7: [s3] machine.RTC() has no alarm") for f in found), found


def test_a_chip_module_the_target_lacks_is_refused():
    found = _check("from machine import USBDevice\n")
    assert [f.split(" (")[0] for f in found] == [
        "probe.py:1: [wroom] machine has no USBDevice on ESP32_GENERIC"], found


# -- the fakes ----------------------------------------------------------------------

def _public(obj):
    names = set()
    for name in dir(obj):
        if name.startswith(("_", "sim_", "Sim")):
            continue
        if isinstance(getattr(obj, name, None), types.ModuleType):
            continue
        names.add(name)
    return names


def _fake_modules():
    import esp32
    import machine
    import micropython

    return {"machine": machine, "esp32": esp32, "micropython": micropython}


def _fake_module_names(mod):
    names = _public(mod) | {n for n in getattr(mod, "_LAZY", ()) if not n.startswith(
        ("_", "sim_", "Sim"))}
    return names


@pytest.mark.parametrize("module", ["machine", "esp32", "micropython"])
def test_the_fakes_offer_nothing_the_port_lacks(module):
    mod = _fake_modules()[module]
    extra = _fake_module_names(mod) - chip_api.port_names(module)
    # the fakes' own helpers for the unix port: none
    assert extra == set(), extra
    for name in sorted(_fake_module_names(mod)):
        obj = getattr(mod, name)
        if isinstance(obj, type):
            path = module + "." + name
            extra = _public(obj) - chip_api.port_names(path)
            assert extra == set(), (path, extra)


@pytest.mark.parametrize("module", ["machine", "esp32"])
def test_the_fakes_take_no_keyword_the_port_refuses(module):
    mod = _fake_modules()[module]
    checked = 0
    for name in sorted(_fake_module_names(mod)):
        obj = getattr(mod, name)
        members = [(name, obj, "new" if isinstance(obj, type) else None)]
        if isinstance(obj, type):
            members += [(name + "." + m, getattr(obj, m), m) for m in _public(obj)
                        if callable(getattr(obj, m))]
        for what, fn, member in members:
            if isinstance(fn, type):
                fn = fn.__init__
                sigs = [chip_api.api()["targets"][t]["classes"].get(module + "." + name, {})
                        .get("new") for t in chip_api.targets()]
            else:
                path = module if member is None else module + "." + name
                sigs = [d.get("sig") for d in chip_api.port_entry(path, member or name)]
            sigs = [s for s in sigs if s and s.get("kw") is not None]
            if not sigs or not callable(fn):
                continue
            try:
                params = inspect.signature(fn).parameters.values()
            except (TypeError, ValueError):
                continue
            kwonly = {p.name for p in params if p.kind == p.KEYWORD_ONLY}
            allowed = set().union(*(set(s["kw"]) for s in sigs))
            assert kwonly <= allowed, (module + "." + what, kwonly - allowed)
            checked += 1
    assert checked > 5
