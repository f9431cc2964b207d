"""The keypad's letter layout where a person needs it: `wordpack legend` prints the
firmware's own key map for a list as a to-scale overlay (SVG and PDF) of the keypad in
hardware/, with every tile of the supported alphabets drawn in the panels' pixel font;
the font module is what host_tools/fontgen makes of its art."""

import re
import subprocess
import sys

import pytest

from host_tools import fontgen
from wordlist_packer import legend
from wordlist_packer.cli import main
from wordlist_packer.image import Image

from tests.host.test_sim_game import GERMAN

REPO = legend.HERE.parent
SCAD = REPO / "hardware" / "enclosure" / "tileclock.scad"


def test_the_font_module_is_made_from_its_art():
    assert fontgen.OUT.read_text(encoding="utf-8") == fontgen.module_source()
    r = subprocess.run([sys.executable, "-m", "host_tools.fontgen", "--check"], cwd=REPO,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_every_tile_of_the_supported_alphabets_has_a_glyph_with_its_mark_apart():
    table = fontgen.glyph_table()
    for tile in "AÄÖÜĄĆĘŁŃÓŚŹŻÆØÅÑ":
        assert tile in table, tile
    for letter, base in (("Ä", "A"), ("Ö", "O"), ("Ü", "U")):
        rows = table[letter]
        # two dots of 2x2 pixels, a blank column between them, a blank row under them
        assert rows[0] == rows[1] == "##.##" and rows[2] == "....."
        assert rows[3:] == table[base][3:]
    for a, b in (("Ż", "Ź"), ("Ż", "Z"), ("Ą", "A"), ("Ł", "L"), ("Ø", "O"), ("Å", "A"),
                 ("0", "O"), ("Ø", "0")):
        assert table[a] != table[b], (a, b)


def _recess():
    text = SCAD.read_text()
    w = float(re.search(r"^keypad_w\s*=\s*([\d.]+)", text, re.M).group(1))
    h = float(re.search(r"^keypad_h\s*=\s*([\d.]+)", text, re.M).group(1))
    return w, h


def test_the_keypad_fits_the_enclosures_recess_and_its_keys_the_keypad():
    w, h = _recess()
    pad = legend.KEYPAD
    assert pad.width <= w and pad.height <= h
    for r in range(4):
        for c in range(4):
            x, y, kw, kh = pad.key_box(r, c)
            assert 0 < x and x + kw < pad.width and 0 < y and y + kh < pad.height - 8


def test_the_layout_is_the_firmwares_key_map():
    image = Image.load(GERMAN)
    layout = legend.image_layout(image)
    assert ["".join(layout[k]) for k in "1234567890"] == [
        "ACB", "ED", "GF", "IH", "LKJ", "NM", "ROPQ", "S", "TUWVX", "ZÄÜÖY"]
    assert sorted(t for k in layout for t in layout[k]) == sorted(image.tile_strings)


def test_wordpack_legend_writes_a_to_scale_svg_and_pdf(tmp_path, capsys):
    out = tmp_path / "keypad-de"
    assert main(["legend", str(GERMAN), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "1 ACB" in printed and "0 ZÄÜÖY" in printed and "print at 100 %" in printed
    svg = out.with_suffix(".svg").read_text(encoding="utf-8")
    assert 'width="69mm" height="76mm" viewBox="0 0 69 76"' in svg
    assert svg.count("<rect ") == 17                 # the outline and 16 keys
    pdf = out.with_suffix(".pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    # A4 in points, and the cross-reference table points at each object
    assert b"/MediaBox [0 0 595.28 841.89]" in pdf
    xref = int(pdf[pdf.rindex(b"startxref") + 9:].split()[0])
    offsets = [int(line.split()[0]) for line in pdf[xref:].split(b"\n")[3:8]]
    for n, off in enumerate(offsets, 1):
        assert pdf[off:].startswith(b"%d 0 obj" % n)
    # the 50 mm scale bar: 50 mm = 141.73 points wide
    assert b"141.732" in pdf


def test_each_letter_is_drawn_with_its_marks(tmp_path):
    # the overlay's lit rectangles of key 0 (ZÄÜÖY) hold the dots of three umlauts
    d = legend.overlay({"0": ["Z", "Ä", "Ü", "Ö", "Y"]}, "DE")
    x0, y0, kw, kh = legend.KEYPAD.key_box(3, 1)
    inside = [r for r in d.fills if x0 <= r[0] < x0 + kw and y0 + 3 <= r[1] < y0 + kh]
    assert len(inside) > 30
    plain = legend.overlay({"0": ["Z", "A", "U", "O", "Y"]}, "DE")
    inside_plain = [r for r in plain.fills if x0 <= r[0] < x0 + kw and y0 + 3 <= r[1] < y0 + kh]
    assert len(inside) == len(inside_plain) + 12     # two 2-pixel columns per dot, two dots


@pytest.mark.parametrize("tiles", [["CH", "LL", "RR"]])
def test_a_tile_of_several_letters_is_marked_as_one(tiles):
    d = legend.overlay({"2": tiles}, "ES")
    x0, y0, kw, kh = legend.KEYPAD.key_box(0, 1)
    bars = [r for r in d.fills if x0 <= r[0] < x0 + kw and r[3] < r[2] / 4]
    assert len(bars) == 3
