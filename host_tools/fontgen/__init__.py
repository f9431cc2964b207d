"""The panels' pixel font: host_tools/fontgen/font12.txt (the glyphs drawn as text) to
firmware/render/font12.py (bytes constants the firmware draws from).

    python -m host_tools.fontgen            # rewrite firmware/render/font12.py
    python -m host_tools.fontgen --check    # exit 1 if it differs from the art

Every glyph is a cell of 12 rows (font12.txt says which rows hold what); a column is
stored as two bytes, bit r = row r.  The printed keypad legend (wordlist_packer/legend.py)
draws its letters from the same bitmaps.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ART = HERE / "font12.txt"
OUT = HERE.parent.parent / "firmware" / "render" / "font12.py"
ROWS = 12
CAPS_TOP = 3          # a 7-row glyph sits on rows 3-9


def parse(text: str) -> tuple[dict[str, list[str]], dict[str, list[str]], list[tuple[str, str, str]]]:
    glyphs: dict[str, list[str]] = {}
    marks: dict[str, list[str]] = {}
    compose: list[tuple[str, str, str]] = []
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("# ") or line == "#" and current is None:
            current = None if not line else current
            continue
        if line.startswith(": "):
            name = line[2:]
            current = glyphs.setdefault(" " if name == "space" else name, [])
        elif line.startswith("mark "):
            current = marks.setdefault(line[5:], [])
        elif line.startswith("compose "):
            _, letter, base, mark = line.split()
            compose.append((letter, base, mark))
            current = None
        elif current is not None and set(line) <= {".", "#"}:
            current.append(line)
        else:
            raise ValueError("font12.txt: cannot read %r" % raw)
    return glyphs, marks, compose


def _cell(rows: list[str], name: str) -> list[str]:
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise ValueError("glyph %r: rows of different widths" % name)
    if len(rows) == 7:
        blank = "." * width
        return [blank] * CAPS_TOP + rows + [blank] * (ROWS - CAPS_TOP - 7)
    if len(rows) != ROWS:
        raise ValueError("glyph %r: %d rows (7 or 12)" % (name, len(rows)))
    return rows


def glyph_table(text: str | None = None) -> dict[str, list[str]]:
    """{character: 12 rows of '.'/'#'} with the composed letters."""
    glyphs, marks, compose = parse(ART.read_text(encoding="utf-8") if text is None else text)
    table = {ch: _cell(rows, ch) for ch, rows in glyphs.items()}
    for letter, base, mark in compose:
        rows = [list(r) for r in table[base]]
        overlay = _cell(marks[mark], mark)
        shift = (len(rows[0]) - len(overlay[0])) // 2
        for r in range(ROWS):
            for c, bit in enumerate(overlay[r]):
                if bit == "#":
                    if rows[r][c + shift] == "#":
                        raise ValueError("%s: the mark %s touches %s" % (letter, mark, base))
                    rows[r][c + shift] = "#"
        table[letter] = ["".join(r) for r in rows]
    return table


def columns(rows: list[str]) -> list[int]:
    return [sum(1 << r for r in range(ROWS) if rows[r][c] == "#") for c in range(len(rows[0]))]


def _bytes_literal(data: bytes, indent: str = "    ") -> str:
    out, line = [], ""
    for b in data:
        piece = "\\x%02x" % b
        if len(line) + len(piece) > 84:
            out.append(indent + 'b"' + line + '"')
            line = ""
        line += piece
    out.append(indent + 'b"' + line + '"')
    return "(\n" + "\n".join(out) + "\n)"


def module_source(table: dict[str, list[str]] | None = None) -> str:
    table = table or glyph_table()
    chars = "".join(sorted(table, key=lambda ch: (ord(ch) > 127, ch)))
    widths = bytes(len(table[ch][0]) for ch in chars)
    offsets = bytearray()
    cols = bytearray()
    n = 0
    for ch in chars:
        offsets += n.to_bytes(2, "little")
        for value in columns(table[ch]):
            cols += value.to_bytes(2, "little")
            n += 1
    escaped = chars.replace("\\", "\\\\").replace('"', '\\"')
    return "\n".join([
        "# The panels' pixel font, 12 rows a cell: made by `python -m host_tools.fontgen` from",
        "# host_tools/fontgen/font12.txt (the glyphs drawn as text, with the rows each part",
        "# takes); do not edit.  Bytes and a string: on the chip they stay in flash (ROMFS)",
        "# or take one object each in the heap.  render/typeset.py draws from it.",
        "",
        'CHARS = "%s"' % escaped,
        "# columns of each glyph",
        "WIDTHS = " + _bytes_literal(widths),
        "# index of each glyph's first column in COLS (two bytes each, little-endian)",
        "OFFSETS = " + _bytes_literal(bytes(offsets)),
        "# one column per two bytes, bit r = row r",
        "COLS = " + _bytes_literal(bytes(cols)),
        "",
    ])


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    source = module_source()
    if "--check" in argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != source:
            print("%s differs from %s: run python -m host_tools.fontgen" % (OUT, ART),
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(source, encoding="utf-8")
    print("wrote %s: %d glyphs" % (OUT, len(glyph_table())))
    return 0
