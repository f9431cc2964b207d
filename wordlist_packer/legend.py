"""The keypad's letter layout for a word list, and a printable overlay of it.

    wordpack legend IMAGE [-o NAME]     -> NAME.svg and NAME.pdf

The layout is the firmware's own: terminal/keymap.py cuts the list's tiles into the ten
digit keys (the letters on a key in the order presses give them), exactly as the clock
does for this list, so the print, the terminal's help screen (key A) and the simulator's
keys show the same.  The letters are drawn with the panels' pixel font
(render/font12.py), so every tile of every supported alphabet prints, in PDF too, with no
font installed; both files are drawn to scale, in millimetres, for the keypad of
hardware/ (KEYPAD below).  Standard library only.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from .image import Image

HERE = Path(__file__).resolve().parent


def firmware_dir() -> Path:
    """The firmware folder the host tools carry (host_tools/resources.py): the
    repository's firmware/ in a clone, host_tools/firmware once installed."""
    from host_tools import resources

    return resources.firmware_dir()


def _firmware_module(relative: str):
    from host_tools import resources

    return resources.firmware_module(relative)


DIGITS = "1234567890"
# The keypad as hwconfig.KEYPAD_LAYOUT has it, rows top to bottom.
ROWS = ("123A", "456B", "789C", "*0#D")


def key_layout(tiles: list[str], language: str) -> dict[str, list[str]]:
    """{digit key: its tiles in press order}, as the firmware builds it for this list."""
    keymap_mod = _firmware_module("terminal/keymap.py")
    letterfreq = _firmware_module("terminal/letterfreq.py")
    # terminal.keymap.tile_frequencies imports terminal.letterfreq by its device name
    saved = {name: sys.modules.get(name) for name in ("terminal", "terminal.letterfreq")}
    package = type(sys)("terminal")
    package.letterfreq = letterfreq
    sys.modules["terminal"] = package
    sys.modules["terminal.letterfreq"] = letterfreq
    try:
        freq = keymap_mod.tile_frequencies(list(tiles), language, None)
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    keymap = keymap_mod.KeyMap(list(tiles), freq)
    return {key: [tiles[i] for i in keymap.cycle(key)] for key in DIGITS}


def image_layout(image: Image) -> dict[str, list[str]]:
    return key_layout(image.tile_strings, image.language)


# -- the keypad --------------------------------------------------------------------------

@dataclass(frozen=True)
class Keypad:
    """A 4x4 membrane keypad, millimetres.  Outline: the Parallax 27899 datasheet
    (hardware/bom.csv, line KEYPAD; 2.7 x 3.0 in, 69 x 76 mm), which the enclosure's
    recess (keypad_w x keypad_h in hardware/enclosure/tileclock.scad) holds.  The key
    grid is the usual one of this keypad type; keypads differ by a millimetre or so:
    measure yours and give --pitch / --key / --top if they do."""

    width: float = 69.0
    height: float = 76.0
    key: float = 12.0              # a key's square
    pitch_x: float = 16.5          # key centre to key centre
    pitch_y: float = 15.0
    top: float = 5.0               # outline to the first row of keys

    def key_box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(x, y, w, h) of a key, from the outline's top left corner."""
        span = 3 * self.pitch_x + self.key
        x0 = (self.width - span) / 2
        return (x0 + col * self.pitch_x, self.top + row * self.pitch_y, self.key, self.key)


KEYPAD = Keypad()


# -- drawing: boxes and pixel-font text as rectangles, then SVG or PDF -------------------

def font_tables():
    f = _firmware_module("render/font12.py")
    return f.CHARS, f.WIDTHS, f.OFFSETS, f.COLS


def text_width(text: str, gap: int = 1) -> int:
    """Width in font pixels (5-column letters, `gap` pixels between)."""
    chars, widths, _, _ = font_tables()
    n = 0
    for ch in text:
        i = chars.find(ch)
        n += (widths[i] if i >= 0 else 5) + gap
    return max(0, n - gap)


def text_rects(text: str, x: float, y: float, px: float,
               gap: int = 1) -> list[tuple[float, float, float, float]]:
    """The lit pixels of text in the panels' font as (x, y, w, h), one rectangle per run
    of a column; (x, y) is the cell's top left corner, px a pixel's size."""
    chars, widths, offsets, cols = font_tables()
    rects = []
    for ch in text:
        i = chars.find(ch)
        if i < 0:
            i = chars.find("?")
        at = offsets[2 * i] | offsets[2 * i + 1] << 8
        for c in range(widths[i]):
            bits = cols[2 * (at + c)] | cols[2 * (at + c) + 1] << 8
            row = 0
            while bits:
                if bits & 1:
                    n = 0
                    while bits & 1:
                        bits >>= 1
                        n += 1
                    rects.append((x + c * px, y + row * px, px, n * px))
                    row += n
                else:
                    bits >>= 1
                    row += 1
        x += (widths[i] + gap) * px
    return rects


@dataclass
class Drawing:
    width: float
    height: float
    boxes: list            # (x, y, w, h, stroke width, grey 0-1 fill or None)
    fills: list            # (x, y, w, h) filled black


def overlay(layout: dict[str, list[str]], caption: str, pad: Keypad = KEYPAD) -> Drawing:
    """The keypad overlay: the outline (cut line), every key, and on each digit key its
    digit and its letters in press order (two lines where they do not fit one)."""
    d = Drawing(pad.width, pad.height, [(0, 0, pad.width, pad.height, 0.3, None)], [])
    for r, keys in enumerate(ROWS):
        for c, key in enumerate(keys):
            x, y, w, h = pad.key_box(r, c)
            d.boxes.append((x, y, w, h, 0.2, 0.93 if key in DIGITS else None))
            label_px = 0.42
            d.fills += text_rects(key, x + 0.8, y + 0.8 - 3 * label_px, label_px)
            letters = layout.get(key, [])
            if not letters:
                continue
            d.fills += _letters(letters, x, y + 3.9, w, h - 4.2)
    px = 0.28
    width = text_width(caption) * px
    if width > pad.width - 4:
        px *= (pad.width - 4) / width
        width = text_width(caption) * px
    d.fills += text_rects(caption, (pad.width - width) / 2, pad.height - 14 * px - 2, px)
    return d


# Letters on a key are tiles of their own: two pixels apart, so that the marks of
# neighbours (ÄÜÖ) do not run into one dotted line.
_GAP = 2


def _letters(letters: list[str], x: float, y: float, w: float, h: float) -> list:
    """The key's letters centred in the box (x, y, w, h): in as few lines as fit at the
    largest pixel size."""
    longest = max(len(t) for t in letters)
    px = 0.65
    while True:
        per_line = int((w - 1) / ((5 + _GAP) * px * longest) + _GAP / (5 + _GAP))
        if per_line >= 1:
            n_lines = -(-len(letters) // per_line)
            if n_lines * 12 * px <= h or px <= 0.15:
                break
        px -= 0.01
    out = []
    lines = [letters[i:i + per_line] for i in range(0, len(letters), per_line)]
    top = y + (h - len(lines) * 12 * px) / 2
    for n, line in enumerate(lines):
        text = "".join(line)
        lw = text_width(text, _GAP) * px
        cx = x + (w - lw) / 2
        cy = top + n * 12 * px
        for tile in line:
            out += text_rects(tile, cx, cy, px, 1)
            tw = text_width(tile) * px
            if len(tile) > 1:    # a tile of several letters: a bar under them, as on the panels
                out.append((cx, cy + 11 * px, tw, px))
            cx += tw + _GAP * px
    return out


def svg(d: Drawing) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" '
           'viewBox="0 0 %g %g">' % (d.width, d.height, d.width, d.height)]
    for x, y, w, h, stroke, grey in d.boxes:
        fill = "none" if grey is None else "#%02x%02x%02x" % ((round(255 * grey),) * 3)
        out.append('<rect x="%.3f" y="%.3f" width="%.3f" height="%.3f" rx="0.8" fill="%s" '
                   'stroke="#000" stroke-width="%g"/>' % (x, y, w, h, fill, stroke))
    out.append('<path fill="#000" d="%s"/>' % " ".join(
        "M%.3f %.3fh%.3fv%.3fh%.3fz" % (x, y, w, h, -w) for x, y, w, h in d.fills))
    out.append("</svg>")
    return "\n".join(out) + "\n"


MM = 72 / 25.4          # PDF points per millimetre
A4 = (210.0, 297.0)


def pdf(d: Drawing, title: str) -> bytes:
    """One A4 page: the overlay at 1:1 in its top left part, a 50 mm bar to check that
    it printed at 100 %, and the title."""
    page_w, page_h = A4
    ox, oy = 20.0, 20.0          # the overlay's top left corner on the page, mm

    def r(x, y, w, h):            # a rectangle, page mm from the top -> PDF points
        return "%.3f %.3f %.3f %.3f re" % ((ox + x) * MM, (page_h - oy - y - h) * MM, w * MM, h * MM)

    ops = []
    for x, y, w, h, stroke, grey in d.boxes:
        if grey is not None:
            ops.append("%.3f g %s f" % (grey, r(x, y, w, h)))
        ops.append("0 G %.3f w %s S" % (stroke * MM, r(x, y, w, h)))
    ops.append("0 g")
    ops += [r(x, y, w, h) + " f" for x, y, w, h in d.fills]
    # scale check: a 50 mm bar with 10 mm ticks below the overlay
    bar_y = d.height + 10
    ops.append(r(0, bar_y, 50, 0.4) + " f")
    for i in range(6):
        ops.append(r(i * 10, bar_y - 1.5, 0.3, 1.9) + " f")
    ops += [r(x, y, w, h) + " f" for x, y, w, h in text_rects("50 MM", 52, bar_y - 2.2, 0.4)]
    ops += [r(x, y, w, h) + " f" for x, y, w, h in text_rects(title, 0, bar_y + 6, 0.45)]
    content = "\n".join(ops).encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Contents 4 0 R "
        b"/Resources << >> >>" % (page_w * MM, page_h * MM),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Title (%s) /Producer (wordpack legend) >>" % _pdf_text(title),
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, len(objects), xref)
    return bytes(out)


def _pdf_text(text: str) -> bytes:
    # a PDF string in the Info dictionary: ASCII, the rest as '?'
    safe = "".join(ch if 32 <= ord(ch) < 127 and ch not in "()\\" else "?" for ch in text)
    return safe.encode("ascii")


def caption_of(image: Image) -> str:
    return " ".join(part for part in (image.language.upper(), image.name, image.list_version)
                    if part).upper()


def write(image: Image, stem: Path, pad: Keypad = KEYPAD) -> tuple[Path, Path]:
    layout = image_layout(image)
    caption = caption_of(image)
    d = overlay(layout, caption, pad)
    svg_path = stem.with_suffix(".svg")
    pdf_path = stem.with_suffix(".pdf")
    svg_path.write_text(svg(d), encoding="utf-8")
    pdf_path.write_bytes(pdf(d, "TILECLOCK KEYPAD " + caption))
    return svg_path, pdf_path
