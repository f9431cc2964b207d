"""Perfboard layout (hardware/perfboard.svg): drawn from the pin map and the nets, every part of
the carrier on its own holes, every lead on a connector, every net's holes joined."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import board  # noqa: E402
import gen_perfboard  # noqa: E402
import pinmap  # noqa: E402

# parts that sit elsewhere in the enclosure and reach the carrier through no lead of their own
OFF_CARRIER = {"BT1", "Q2", "F1"}


def test_layout_is_fresh():
    r = subprocess.run([sys.executable, os.path.join(HW, "gen_perfboard.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_every_part_has_holes_of_its_own():
    used = gen_perfboard.occupancy()          # raises on a shared or off-board hole
    parts = board.parts(pinmap.load())
    placed = set(gen_perfboard.PLACES) | set(gen_perfboard.CONNECTORS) | {"U1"}
    assert set(parts) - placed == OFF_CARRIER
    for ref, holes in gen_perfboard.PLACES.items():
        assert len(holes) == len(parts[ref][3]), ref
    assert len(used) == len(set(used))


def test_every_gpio_sits_in_its_socket_hole():
    holes = gen_perfboard.header_holes()
    for r in pinmap.signals(pinmap.load()):
        num = board.devkit_pin(r["gpio"])
        col = gen_perfboard.J1_COL if board.header_of("s3", num).startswith("J1") else gen_perfboard.J3_COL
        assert holes[num][0] == col
        idx = int(board.header_of("s3", num).split("-")[1]) - 1
        assert holes[num][1] == gen_perfboard.HEADER_ROW + idx


def test_every_net_reaching_the_carrier_is_wired_through_all_its_holes():
    nets = gen_perfboard.net_holes()
    svg = gen_perfboard.render_svg()
    for r in pinmap.signals(pinmap.load()):
        assert r["signal"] in nets, r["signal"]
        # the signal's own pin and each lead or part of its net have a hole
        for c in r["connects"]:
            ref = c.split(".")[0]
            assert ref in gen_perfboard.PLACES or ref in gen_perfboard.CONNECTORS, c
    for name, holes in nets.items():
        path = gen_perfboard.chain(holes)
        assert set(path) == set(holes)
        assert " ".join("%d,%d" % (200 + h[0] * 24, 170 + h[1] * 24) for h in path) in svg, name
    for power in ("GND", "+3V3", "VBAT_SW", "3V3_REG", "VUSB", "OLED_RES"):
        assert power in nets


def test_a_moved_pin_moves_its_wire():
    before = gen_perfboard.render_svg()
    rows = [dict(r) for r in pinmap.load()]
    for r in rows:
        if r["signal"] == "LED_STATUS":
            r["gpio"] = 21
    assert pinmap.check(rows) == []
    original = pinmap.load
    pinmap.load = lambda target=pinmap.REFERENCE: rows
    try:
        after = gen_perfboard.render_svg()
    finally:
        pinmap.load = original
    assert after != before and "IO21 LED_STATUS" in after
