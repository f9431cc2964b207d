"""The esptool row of bench/bench_push.py, on a small list: `clockctl flash-lexicon`
(its own process) onto a simulated WROOM clock whose download mode is paced at esptool's
baud; after esptool's reset the clock talks at its boot rate again and adopts the list.
The row reports the measured time beside what the wire and the flash bound it to.  The
figures themselves come from the full Polish run (README.md, docs/host-tools.md);
nothing here asserts a time."""

import importlib.util
import re
import zlib

from tests.host.sim_helpers import REPO
from tests.host.test_link_pty import NEW


def _bench():
    spec = importlib.util.spec_from_file_location("bench_push", REPO / "bench" / "bench_push.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_esptool_row_flashes_a_clock_and_reports_its_bounds(tmp_path, capsys):
    image = tmp_path / "small.dawg"
    image.write_bytes(NEW)
    code = _bench().main(["--only", "esptool", "--devices", "1", "--image", str(image)])
    out = capsys.readouterr().out
    assert code == 0, out
    rows = [line.split() for line in out.splitlines() if line.startswith("WROOM, esptool")]
    # the row: label, rate, clocks, wall, x one, wire/B, resends, ok
    assert [(r[3], r[4], r[-1]) for r in rows] == [("921600", "1", "yes")], out
    bounds = re.findall(r"per clock: clockctl ([\d.]+)[^;]*; bound by the wire ([\d.]+) s "
                        r"\(esptool (\d+) B, link (\d+) B\), by the flash ([\d.]+) s", out)
    assert len(bounds) == 1, out
    for measured, wire_s, esptool_bytes, link_bytes, flash_s in bounds:
        # the whole list crossed the wire to each clock (esptool compresses it) ...
        assert int(esptool_bytes) > len(zlib.compress(NEW, 9))
        assert int(link_bytes) > 0                       # the partition asked for, the adoption
        # ... and the bound counts those bytes at no more than esptool's rate
        assert float(wire_s) >= int(esptool_bytes) * 10 / 921600 - 0.05
        assert float(flash_s) > 0 and float(measured) > 0
