# Runs the real firmware main program (app.run: asyncio tasks, SystemClock,
# hardware watchdog) under MicroPython with the fakes, as the simulator does,
# plus a test hook: the right player presses at once (starting the left
# clock), and after TC_HANG_MS one task hangs in a loop that never yields.
# A thread stands in for the chip's watchdog timer (sim_wdt_check).
# Prints "H left0 left1" when the hang begins.

import _thread
import asyncio
import os
import time

import hwconfig
import machine
import sim_ssd1306

for addr, bus in ((hwconfig.ADDR_DISPLAY_LEFT, hwconfig.I2C_PLAYERS_ID),
                  (hwconfig.ADDR_DISPLAY_RIGHT, hwconfig.I2C_PLAYERS_ID),
                  (hwconfig.ADDR_DISPLAY_TERMINAL, hwconfig.I2C_TERMINAL_ID)):
    machine.sim_attach_i2c(sim_ssd1306.SSD1306Panel(), addr, bus=bus)
machine.SimKeyMatrix(hwconfig.KEYPAD_ROWS, hwconfig.KEYPAD_COLS, hwconfig.KEYPAD_LAYOUT)
machine.sim_set_voltage(hwconfig.PIN_BATTERY_ADC, 1950)

import app  # noqa: E402

HANG_MS = int(os.getenv("TC_HANG_MS") or "1500")


def watchdog_timer():
    while True:
        time.sleep_ms(20)
        machine.sim_wdt_check()


async def script():
    await asyncio.sleep_ms(300)
    machine.sim_press(hwconfig.PIN_BUTTON_RIGHT)
    await asyncio.sleep_ms(80)
    machine.sim_release(hwconfig.PIN_BUTTON_RIGHT)
    await asyncio.sleep_ms(HANG_MS)
    import gc

    gc.collect()
    from app import device

    dev = device.LAST[0]
    d0, d1 = dev.engine.display(0), dev.engine.display(1)
    print("H %d %d %d" % (d0.remaining_ms, d1.remaining_ms, d0.running))
    while True:          # hung: never yields again
        pass


_thread.start_new_thread(watchdog_timer, ())
app.run(link=False, wdt_timeout_ms=int(os.getenv("TC_WDT_MS") or "1000"), extra=(script(),))
