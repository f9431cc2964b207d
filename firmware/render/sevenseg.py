# Large seven-segment digits drawn with filled rectangles: readable across a
# table, and drawing them allocates nothing.
#
#    aaa
#   f   b
#    ggg
#   e   c
#    ddd

SEGMENTS = bytes((
    0b0111111,  # 0: a b c d e f
    0b0000110,  # 1: b c
    0b1011011,  # 2: a b d e g
    0b1001111,  # 3: a b c d g
    0b1100110,  # 4: b c f g
    0b1101101,  # 5: a c d f g
    0b1111101,  # 6: a c d e f g
    0b0000111,  # 7: a b c
    0b1111111,  # 8
    0b1101111,  # 9: a b c d f g
))


def digit(fb, x, y, w, h, t, value, color=1):
    """Draw digit `value` (0-9) in a w x h box at (x, y) with stroke t."""
    bits = SEGMENTS[value]
    half = h // 2
    if bits & 1:    # a
        fb.fill_rect(x + t, y, w - 2 * t, t, color)
    if bits & 2:    # b
        fb.fill_rect(x + w - t, y + t, t, half - t, color)
    if bits & 4:    # c
        fb.fill_rect(x + w - t, y + half, t, h - half - t, color)
    if bits & 8:    # d
        fb.fill_rect(x + t, y + h - t, w - 2 * t, t, color)
    if bits & 16:   # e
        fb.fill_rect(x, y + half, t, h - half - t, color)
    if bits & 32:   # f
        fb.fill_rect(x, y + t, t, half - t, color)
    if bits & 64:   # g
        fb.fill_rect(x + t, y + half - t // 2, w - 2 * t, t, color)


# Layout of the engine's 6-character time text (" mm:ss" / "-mm:ss") on a
# 128-pixel-wide panel: sign, two digits, colon, two digits.
DIGIT_W = 22
DIGIT_H = 36
STROKE = 5
SIGN_W = 10
COLON_W = 6
GAP = 3


def time_width():
    return SIGN_W + GAP + 4 * DIGIT_W + 2 * GAP + 2 * GAP + COLON_W


def time_text(fb, x, y, text, color=1):
    """Draw a 6-byte time text (bytes/bytearray: sign, m, m, ':', s, s)."""
    t = STROKE
    half = DIGIT_H // 2
    if text[0] == 45:   # '-': overtime
        fb.fill_rect(x, y + half - t // 2, SIGN_W, t, color)
    x += SIGN_W + GAP
    for i in range(1, 6):
        ch = text[i]
        if ch == 58:    # ':'
            fb.fill_rect(x + (COLON_W - 4) // 2 + 1, y + DIGIT_H // 3 - 2, 4, 4, color)
            fb.fill_rect(x + (COLON_W - 4) // 2 + 1, y + 2 * DIGIT_H // 3 - 2, 4, 4, color)
            x += COLON_W + GAP
            continue
        if 48 <= ch <= 57:
            digit(fb, x, y, DIGIT_W, DIGIT_H, t, ch - 48, color)
        x += DIGIT_W + GAP


def lit(fb, x, y):
    """Whether a pixel is set (tests and the self-test read the panel back)."""
    return fb.pixel(x, y) != 0
