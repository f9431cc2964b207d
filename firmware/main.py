# Started by MicroPython after boot.py: the tournament clock.
import app

app.run()
