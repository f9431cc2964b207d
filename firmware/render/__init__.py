# Drawing the panels into their frame buffers (anything with the
# framebuf.FrameBuffer drawing calls: fill, fill_rect, text, pixel, hline,
# vline, rect).  render.sevenseg: large digits; render.glyphs: 8x8 text with
# the word lists' accented letters; render.player / render.terminal: screens.
