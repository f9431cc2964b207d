# A model of an SSD1306/SSD1309 OLED controller on I2C: decodes the command
# and data stream the firmware writes (through machine.I2C) into the
# controller's display RAM and settings, and renders the 128x64 pixels the
# panel shows.  Runs under MicroPython (inside the simulated device) and
# CPython (the simulator's host side renders frames with it).
#
# Orientation: the module is mounted so that segment remap on (0xA1) and COM
# scan remapped (0xC8) - what the ssd1306 driver (host_tools/drivers.py) sends by
# default - shows RAM column 0 at the left and RAM row 0 at the top.

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8

# Commands followed by this many argument bytes.
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x82: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1,
         0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD8: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
         0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xFD: 1}

HORIZONTAL = 0
VERTICAL = 1
PAGE = 2


def _picture_memory(n):
    # The controller's picture memory is in the display, not in the chip: on the test
    # interpreters (tests/mpbuild.py) it is kept outside the heap the firmware is measured in.
    try:
        import romimage

        return romimage.ram(n)
    except ImportError:
        return bytearray(n)


class SSD1306Panel:
    def __init__(self, width=WIDTH, height=HEIGHT):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.ram = _picture_memory(self.width * self.pages)
        self.reset()
        self.frames = 0          # completed transactions that wrote display data
        self.commands = 0
        self.on_frame = None     # called with the panel after such a transaction
        self._wrote_data = False
        self._changed = False    # a command changed the picture (on/off, invert...)
        self._mode = 0           # 0: expect a control byte
        self._cmd = bytearray(8)
        self._cmd_len = 0
        self._cmd_need = 0

    def reset(self):
        """The controller's power-on state (datasheet defaults)."""
        self.display_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.start_line = 0
        self.offset = 0
        self.mux = 64
        self.charge_pump = False
        self.addr_mode = PAGE
        self.col_start = 0
        self.col_end = self.width - 1
        self.page_start = 0
        self.page_end = self.pages - 1
        self.col = 0
        self.page = 0

    # -- I2C device interface (see machine.sim_attach_i2c) -------------------

    def i2c_start(self):
        # A command's argument bytes may come in later transactions (the
        # ssd1306 driver sends every byte as its own 0x80-prefixed
        # write), so only the control-byte state starts afresh.
        self._mode = 0

    def i2c_write(self, mv):
        n = len(mv)
        i = 0
        while i < n:
            mode = self._mode
            if mode == 0:  # control byte: Co (bit 7), D/C# (bit 6)
                c = mv[i]
                i += 1
                if c & 0x40:
                    self._mode = 3 if c & 0x80 else 2   # one data byte / data stream
                else:
                    self._mode = 5 if c & 0x80 else 4   # one command byte / command stream
            elif mode == 2:  # data stream to the end of the transaction
                i += self._data(mv, i, n - i)
            elif mode == 3:
                self._data(mv, i, 1)
                i += 1
                self._mode = 0
            else:
                self._command_byte(mv[i])
                i += 1
                if mode == 5:  # Co = 1: a control byte follows every byte
                    self._mode = 0
        return n

    def i2c_read(self, buf):
        # Status byte: bit 6 = display off.
        for j in range(len(buf)):
            buf[j] = 0 if self.display_on else 0x40

    def i2c_stop(self):
        if self._wrote_data or self._changed:
            if self._wrote_data:
                self.frames += 1
            self._wrote_data = False
            self._changed = False
            if self.on_frame is not None:
                self.on_frame(self)

    # -- command decoding ---------------------------------------------------

    def _command_byte(self, b):
        if self._cmd_need:
            self._cmd[self._cmd_len] = b
            self._cmd_len += 1
            self._cmd_need -= 1
            if not self._cmd_need:
                self._execute(self._cmd[0], self._cmd, self._cmd_len)
            return
        need = _ARGS.get(b, 0)
        if need:
            self._cmd[0] = b
            self._cmd_len = 1
            self._cmd_need = need
        else:
            self._execute(b, self._cmd, 0)

    def _execute(self, c, args, n):
        self.commands += 1
        if c >= 0x40 and c not in (0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7):
            self._changed = True
        if c == 0xAE or c == 0xAF:
            self.display_on = c == 0xAF
        elif c == 0x81:
            self.contrast = args[1]
        elif c == 0xA4 or c == 0xA5:
            self.entire_on = c == 0xA5
        elif c == 0xA6 or c == 0xA7:
            self.inverted = c == 0xA7
        elif c == 0xA0 or c == 0xA1:
            self.seg_remap = c == 0xA1
        elif c == 0xC0 or c == 0xC8:
            self.com_remap = c == 0xC8
        elif 0x40 <= c <= 0x7F:
            self.start_line = c & 0x3F
        elif c == 0xD3:
            self.offset = args[1] & 0x3F
        elif c == 0xA8:
            self.mux = (args[1] & 0x3F) + 1
        elif c == 0x8D:
            self.charge_pump = bool(args[1] & 0x04)
        elif c == 0x20:
            self.addr_mode = args[1] & 0x03
            if self.addr_mode == 3:
                self.addr_mode = PAGE
        elif c == 0x21:
            self.col_start = args[1] % self.width
            self.col_end = args[2] % self.width
            self.col = self.col_start
        elif c == 0x22:
            self.page_start = args[1] % self.pages
            self.page_end = args[2] % self.pages
            self.page = self.page_start
        elif 0xB0 <= c <= 0xB7:
            self.page = (c & 0x07) % self.pages
        elif c <= 0x0F:
            self.col = (self.col & 0xF0) | c
        elif c <= 0x1F:
            self.col = ((self.col & 0x0F) | ((c & 0x0F) << 4)) % self.width
        # Scrolling (0x26/0x27/0x29/0x2A/0x2E/0x2F), clock, precharge, VCOMH,
        # COM pins, IREF, NOP: accepted, no effect on the picture here.

    def _data(self, mv, i, count):
        self._wrote_data = True
        ram = self.ram
        w = self.width
        if self.addr_mode == HORIZONTAL:
            done = 0
            while done < count:
                run = min(count - done, self.col_end - self.col + 1)
                if run <= 0:
                    run = 1
                base = self.page * w + self.col
                ram[base:base + run] = mv[i + done:i + done + run]
                done += run
                self.col += run
                if self.col > self.col_end:
                    self.col = self.col_start
                    self.page += 1
                    if self.page > self.page_end:
                        self.page = self.page_start
            return count
        for k in range(count):
            ram[self.page * w + self.col] = mv[i + k]
            if self.addr_mode == VERTICAL:
                self.page += 1
                if self.page > self.page_end:
                    self.page = self.page_start
                    self.col += 1
                    if self.col > self.col_end:
                        self.col = self.col_start
            else:  # page mode: the column wraps within the page
                self.col += 1
                if self.col >= w:
                    self.col = 0
        return count

    # -- what the panel shows ------------------------------------------------

    def ram_pixel(self, col, row):
        return (self.ram[(row >> 3) * self.width + col] >> (row & 7)) & 1

    def pixel(self, x, y):
        """1 when the pixel at (x, y), seen from the front, is lit."""
        if not self.display_on:
            return 0
        if self.entire_on:
            return 1
        h = self.height
        line = y if self.com_remap else h - 1 - y  # which COM output drives row y
        if line >= self.mux:
            return 0
        row = (line + self.start_line + self.offset) % h
        col = x if self.seg_remap else self.width - 1 - x
        return self.ram_pixel(col, row) ^ (1 if self.inverted else 0)

    def pixels(self, out=None):
        """The visible picture, one byte (0/1) per pixel, row by row."""
        if out is None:
            out = bytearray(self.width * self.height)
        i = 0
        for y in range(self.height):
            for x in range(self.width):
                out[i] = self.pixel(x, y)
                i += 1
        return out

    def text(self, on="#", off="."):
        """The picture as lines of text (tests, debugging)."""
        lines = []
        for y in range(self.height):
            lines.append("".join(on if self.pixel(x, y) else off for x in range(self.width)))
        return "\n".join(lines)

    def lit(self):
        """How many pixels are lit."""
        n = 0
        for y in range(self.height):
            for x in range(self.width):
                n += self.pixel(x, y)
        return n

    # -- transfer to the simulator's host side -------------------------------

    STATE_FIELDS = ("display_on", "contrast", "inverted", "entire_on", "seg_remap",
                    "com_remap", "start_line", "offset", "mux")

    def state(self):
        return [int(getattr(self, name)) for name in self.STATE_FIELDS]

    def load(self, state, ram):
        for name, value in zip(self.STATE_FIELDS, state):
            cur = getattr(self, name)
            setattr(self, name, bool(value) if isinstance(cur, bool) else int(value))
        self.ram[:] = ram
