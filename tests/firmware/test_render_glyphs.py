# Every letter the terminal can show (the UI texts of every language, the tiles
# of every language profile of the packer) is drawn as its own, non-blank 8x8
# glyph: framebuf's font is ASCII only (the CPython half skips).
import json
import os

from mpytest import only_micropython

import i18n
from render import glyphs

HERE = os.getcwd() if not __file__.startswith("/") else __file__.rsplit("/", 1)[0]
PROFILES = HERE + "/../../wordlist_packer/profiles"


def _letters():
    chars = {}
    for package in i18n.PACKAGES:
        for lang in i18n.LANGUAGES:
            for text in i18n._load(package, lang).values():
                for ch in text:
                    chars[ch] = 1
    for name in os.listdir(PROFILES):
        if name.endswith(".json"):
            with open(PROFILES + "/" + name) as f:
                for tile in json.load(f)["tiles"]:
                    for ch in tile:
                        chars[ch] = 1
    for ch in (" ", "\n"):
        chars.pop(ch, None)
    return sorted(chars)


def _glyph(ch):
    import framebuf

    buf = bytearray(8)
    fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
    glyphs.text(fb, ch, 0, 0)
    return bytes(buf)


def test_the_letters_include_every_language_s_specials():
    letters = _letters()
    for ch in "ÄÖÜäöüĄĘĆŃÓŚŹŻŁąęćńóśźłÆØÅåøÑ":
        assert ch in letters, ch


def test_every_letter_shown_has_a_non_blank_glyph_of_its_own():
    only_micropython("framebuf")
    seen = {}
    for ch in _letters():
        g = _glyph(ch)
        assert g != bytes(8), "blank glyph for %r" % ch
        assert g not in seen, "%r looks like %r" % (ch, seen.get(g))
        seen[g] = ch
    assert len(seen) > 80
    for ch in glyphs.ACCENTS:
        g = _glyph(ch)
        assert g != bytes(8) and seen.get(g, ch) == ch, ch


def test_an_accented_letter_differs_from_its_base_letter_at_double_size():
    only_micropython("framebuf")
    import framebuf

    def big(ch):
        buf = bytearray(16 * 16 // 8 * 2)
        fb = framebuf.FrameBuffer(buf, 16, 16, framebuf.MONO_VLSB)
        glyphs.text(fb, ch, 0, 0, 1, 2)
        return bytes(buf)

    for ch, base in (("Ż", "Z"), ("Ź", "Z"), ("Ñ", "N"), ("Å", "A"), ("ł", "l")):
        assert big(ch) != big(base) and big(ch) != bytes(len(big(ch))), ch
