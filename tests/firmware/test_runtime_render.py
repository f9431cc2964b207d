# Player and terminal panels drawn into a 128x64 frame buffer (MicroPython's
# framebuf; the CPython half skips).

from mpytest import only_micropython


class _D:
    """A display model as the engine's SideDisplay has it."""

    def __init__(self, text=b" 29:59", **kw):
        self.text = bytearray(text)
        self.remaining_ms = 0
        self.overtime_ms = 0
        for name in ("overtime", "on_turn", "running", "paused", "late", "window_open", "hold",
                     "challenging", "forfeit", "game_over", "accepted"):
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


def test_player_view_redraws_only_on_change_and_shows_states():
    only_micropython("framebuf")
    from render.player import EXTRA_RECOVERED, PlayerView, state_key

    fb = _fb()
    view = PlayerView()
    d = _D(on_turn=True, running=True, window_s=17, window_open=True, penalty_points=10)
    assert view.changed(d, 0)
    view.draw(fb, d, 0, lambda key: key.upper())
    assert not view.changed(d, 0)
    assert fb.pixel(64, 4) or fb.pixel(100, 4)       # inverted top bar while running
    d.text[5] = ord("8")
    assert view.changed(d, 0)
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
    view.draw(fb, moving, 0, lambda key: "MOVE %d" if key == "move" else key.upper())
    assert not view.changed(moving, 0)
    moving.move = 4
    assert view.changed(moving, 0)


def test_terminal_view_draws_lines_big_line_and_status():
    only_micropython("framebuf")
    from render.terminal import TerminalView, status_text
    from terminal.screen import Screen

    fb = _fb()
    screen = Screen()
    screen.show(["ŻÓŁW", "", "", "", "", "", "", ""], big=0)
    view = TerminalView()
    assert view.changed(screen, "x")
    view.draw(fb, screen, status_text(87, "ok", "PL", "tso30"))
    assert not view.changed(screen, "87% PL tso30")
    lit_big = sum(1 for y in range(16) for x in range(64) if fb.pixel(x, y))
    assert lit_big > 100                            # double-size word
    assert any(fb.pixel(x, 58) for x in range(128))  # status on the empty last line
    assert status_text(-1, "usb", "", "nsf") == "USB -- nsf"
    assert status_text(5, "low", "DE", "tso30") == "LOW! DE tso30"


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
