# Started by MicroPython after boot.py: the tournament clock.  Ctrl-C off at once:
# MicroPython turned it on again for this script (boot.py says why).
import micropython

micropython.kbd_intr(-1)

import app  # noqa: E402

app.run()
