# Player and terminal panels drawn into a 128x64 frame buffer (MicroPython's framebuf, or
# tests/firmware/panel_read.Bitmap where the view needs no 8x8 font) and read back as a
# person reads them (panel_read.find: the text's exact pixels).

from mpytest import only_micropython


class _D:
    """A display model as the engine's SideDisplay has it."""

    def __init__(self, text=b" 29:59", **kw):
        self.text = bytearray(text)
        self.remaining_ms = 0
        self.overtime_ms = 0
        for name in ("overtime", "on_turn", "running", "paused", "late", "lent", "window_open",
                     "hold", "challenging", "forfeit", "game_over", "accepted"):
            setattr(self, name, kw.get(name, False))
        self.move = kw.get("move", 0)
        self.remaining_ms = kw.get("remaining_ms", 0)
        self.window_s = kw.get("window_s", 0)
        self.penalty_points = kw.get("penalty_points", 0)


def _fb():
    import framebuf

    buf = bytearray(128 * 64 // 8)
    return framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)


def _segments_lit(fb, x, y):
    from render import sevenseg as s

    w, h, t = s.DIGIT_W, s.DIGIT_H, s.STROKE
    probes = ((x + w // 2, y + t // 2), (x + w - t // 2 - 1, y + h // 4),
              (x + w - t // 2 - 1, y + 3 * h // 4), (x + w // 2, y + h - t // 2 - 1),
              (x + t // 2, y + 3 * h // 4), (x + t // 2, y + h // 4), (x + w // 2, y + h // 2))
    bits = 0
    for i in range(7):
        if fb.pixel(probes[i][0], probes[i][1]):
            bits |= 1 << i
    return bits


def test_time_digits_are_seven_segment_and_readable_back():
    only_micropython("framebuf")
    from render import sevenseg
    from render.player import TIME_X, TIME_Y

    fb = _fb()
    sevenseg.time_text(fb, TIME_X, TIME_Y, b"-12:09")
    x = TIME_X + sevenseg.SIGN_W + sevenseg.GAP
    step = sevenseg.DIGIT_W + sevenseg.GAP
    xs = (x, x + step, x + 2 * step + sevenseg.COLON_W + sevenseg.GAP - sevenseg.DIGIT_W - sevenseg.GAP + step)
    got = [_segments_lit(fb, xs[0], TIME_Y), _segments_lit(fb, xs[1], TIME_Y)]
    assert got == [sevenseg.SEGMENTS[1], sevenseg.SEGMENTS[2]]
    x3 = x + 2 * step + sevenseg.COLON_W + sevenseg.GAP
    assert _segments_lit(fb, x3, TIME_Y) == sevenseg.SEGMENTS[0]
    assert _segments_lit(fb, x3 + step, TIME_Y) == sevenseg.SEGMENTS[9]
    assert fb.pixel(TIME_X + 2, TIME_Y + sevenseg.DIGIT_H // 2)       # overtime sign
    assert TIME_X >= 0 and TIME_X + sevenseg.time_width() <= 128


def _label(lang):
    from app.device import CLOCK_KEYS
    from i18n import tr

    return lambda key: tr("clock" if key in CLOCK_KEYS else "app", key, lang)


def _bitmap():
    from panel_read import Bitmap

    return Bitmap(128, 64)


def test_player_view_redraws_only_on_change():
    from render.player import EXTRA_RECOVERED, PlayerView, state_key

    fb = _bitmap()
    view = PlayerView()
    d = _D(on_turn=True, running=True, window_s=17, window_open=True, penalty_points=10)
    other = _D(b" 12:34")
    assert view.changed(d, other, 0)
    view.draw(fb, d, other, 0, _label("en"))
    assert not view.changed(d, other, 0)
    d.text[5] = ord("8")
    assert view.changed(d, other, 0)
    view.draw(fb, d, other, 0, _label("en"))
    other.text[5] = ord("3")                         # the opponent's time changes too
    assert view.changed(d, other, 0)
    view.draw(fb, d, other, 0, _label("en"))
    assert view.changed(d, other, 0, shift=1)
    d2 = _D(paused=True)
    assert state_key(d2, EXTRA_RECOVERED) == "recovered"
    assert state_key(d2, 0) == "pause"
    assert state_key(_D(forfeit=True, paused=True), EXTRA_RECOVERED) == "forfeit"
    assert state_key(_D(challenging=True), 0) == "challenge"
    assert state_key(_D(hold=True, window_open=True), 0) == "hold"
    assert state_key(_D(accepted=True), 0) == "accepted" and state_key(_D(), 0) is None
    assert state_key(_D(move=3, running=True), 0) == "move"
    assert state_key(_D(move=3, remaining_ms=180000), 0) == "move"
    assert state_key(_D(move=3), 0) == "time_up"
    assert state_key(_D(move=3, paused=True, running=True), 0) == "pause"
    moving = _D(move=3, running=True, on_turn=True)
    view.draw(fb, moving, other, 0, lambda key: "MOVE %d" if key == "move" else key.upper())
    assert not view.changed(moving, other, 0)
    moving.move = 4
    assert view.changed(moving, other, 0)


def test_player_panel_shows_the_whole_state_with_its_marks_and_the_opponents_time():
    from panel_read import find
    from render.player import EXTRA_RECOVERED, PlayerView
    from render.typeset import MEDIUM

    fb = _bitmap()
    view = PlayerView()
    px = fb.pixel
    # overtime while this side's clock runs: inverted top line, every letter and both
    # dots of the Ü there (the old 8x8 line clipped them and cut the word)
    d = _D(b"-01:05", on_turn=True, running=True, overtime=True, penalty_points=20)
    other = _D(b"-00:42", overtime=True)
    view.draw(fb, d, other, 0, _label("de"))
    assert find(px, "ZEITÜBERSCHREITUNG", MEDIUM, inverted=True) is not None
    assert find(px, "ZEITUBERSCHREITUNG", MEDIUM, inverted=True) is None
    # the opponent's time with its overtime minus, and this player's penalty
    assert find(px, "GEGNER", MEDIUM) is not None
    assert find(px, "-00:42", MEDIUM) is not None
    assert find(px, "-20", MEDIUM) is not None
    # a long state, paused after a power cut: not cut ("WIEDERHERGEST." before)
    view.invalidate()
    d = _D(b" 12:00", paused=True, window_s=17, window_open=True)
    view.draw(fb, d, _D(b" 09:59"), EXTRA_RECOVERED, _label("de"))
    assert find(px, "WIEDERHERGESTELLT", MEDIUM) is not None
    assert find(px, "09:59", MEDIUM) is not None
    view.invalidate()
    view.draw(fb, _D(b" 12:00", window_s=17, window_open=True), _D(b" 09:59"), 0, _label("pl"))
    assert find(px, "SPRAWDZIĆ?", MEDIUM) is not None and find(px, "17s", MEDIUM) is not None
    assert find(px, "PRZECIWNIK", MEDIUM) is not None


def test_pixel_shift_moves_everything_by_one_pixel_and_keeps_it_on_the_panel():
    from render.player import PlayerView

    d = _D(b"-88:88", on_turn=True, running=True, overtime=True, penalty_points=990)
    other = _D(b"-88:88", overtime=True)
    drawn = []
    for shift in range(4):
        fb = _bitmap()
        PlayerView().draw(fb, d, other, 0, _label("pl"), shift)
        drawn.append(fb)
    # nothing on the panel's last row and column unless shifted there
    assert not any(drawn[0].pixel(127, y) for y in range(12, 64))
    assert not any(drawn[0].pixel(x, 63) for x in range(128))
    for shift, (dx, dy) in ((1, (1, 0)), (2, (0, 1)), (3, (1, 1))):
        fb = drawn[shift]
        # the digits and the bottom line moved by (dx, dy) exactly
        for y in range(14, 63):
            for x in range(127):
                assert drawn[0].pixel(x, y) == fb.pixel(x + dx, y + dy), (shift, x, y)


def test_terminal_view_lays_out_lines_by_size_with_the_verdict_whole():
    only_micropython("framebuf")
    from panel_read import find
    from render.terminal import TerminalView
    from render.typeset import LARGE, MEDIUM
    from terminal.screen import Screen

    fb = _fb()
    px = fb.pixel
    screen = Screen()
    screen.show(["NIEDOPUSZCZALNE", "10 pkt. kary", "Zegar: prawy", "", "OSPS 2024",
                 "Klawisz: dalej"], b"\x02\x00\x00\x00\x00\x00")
    view = TerminalView()
    assert view.changed(screen)
    view.draw(fb, screen)
    assert not view.changed(screen)
    assert find(px, "NIEDOPUSZCZALNE", LARGE) == (0, 0)     # whole, 15 letters
    assert any(fb.pixel(x, 24 + 3) for x in range(60))        # the next line right below
    screen.show(["Gegner prüft:", "1 ABFLÜSSE", "2 ŻÓŁW", "", "", "C=ja *=ändern"],
                b"\x00\x01\x01\x01\x01\x00")
    view.draw(fb, screen)
    assert find(px, "1 ABFLÜSSE", MEDIUM) == (0, 8)
    assert find(px, "1 ABFLUSSE", MEDIUM) is None
    assert find(px, "2 ŻÓŁW", MEDIUM) == (0, 20)
    # a tab puts the rest against the right edge
    screen.show(["Bereit\t87%"])
    view.draw(fb, screen)
    assert any(fb.pixel(x, 3) for x in range(104, 127)) and not any(fb.pixel(x, 3) for x in range(50, 100))


def test_accented_letters_differ_from_their_base_letter():
    only_micropython("framebuf")
    from render import glyphs

    def bitmap(ch):
        fb = _fb()
        glyphs.text(fb, ch, 0, 0)
        return bytes(fb.pixel(x, y) for y in range(8) for x in range(8))

    for base, accented in (("Z", "Ż"), ("Z", "Ź"), ("A", "Ą"), ("L", "Ł"), ("A", "Å"),
                           ("O", "Ø"), ("O", "Ö"), ("A", "Æ")):
        assert bitmap(base) != bitmap(accented), accented
    assert bitmap("Ż") != bitmap("Ź")
