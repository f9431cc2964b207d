# Drawing the panels into their frame buffers (anything with the
# framebuf.FrameBuffer drawing calls: fill, fill_rect, text, pixel, hline,
# vline, rect).  render.sevenseg: large digits; render.glyphs: framebuf's 8x8 text
# with the word lists' accented letters; render.typeset: the panels' own pixel font
# (render.font12) at three sizes; render.player / render.terminal: screens.
