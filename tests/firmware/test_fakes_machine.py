# The fakes of the ESP32 `machine` module behave like the chip (runs under
# CPython and under MicroPython).

import machine
from machine import ADC, I2C, PWM, WDT, Pin, SoftI2C
from mpytest import raises
from timebase import ManualClock


def fresh():
    machine.sim_reset_all()
    machine.sim_chip("esp32")   # these tests check the ESP32 (WROOM) pin rules


def test_invalid_gpios_are_refused_like_the_chip():
    fresh()
    for gpio in (6, 7, 8, 9, 10, 11, 20, 24, 28, 31, 40, -1):
        raises(ValueError, Pin, gpio)
    Pin(0)
    Pin(39)


def test_input_only_pins_refuse_output_and_ignore_pulls():
    fresh()
    for gpio in (34, 35, 36, 37, 38, 39):
        raises(ValueError, Pin, gpio, Pin.OUT)
        raises(ValueError, Pin, gpio, Pin.OPEN_DRAIN)
        p = Pin(gpio, Pin.IN, Pin.PULL_UP)
        assert machine.sim_pull(gpio) is None
        assert p.value() == 0  # floating, no internal pull-up there
    raises(ValueError, PWM, Pin(34))


def test_constants_are_the_esp32_ones():
    assert (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN) == (1, 3, 7)
    assert (Pin.PULL_DOWN, Pin.PULL_UP) == (1, 2)
    assert (Pin.IRQ_RISING, Pin.IRQ_FALLING) == (1, 2)
    assert (machine.PWRON_RESET, machine.HARD_RESET, machine.WDT_RESET,
            machine.DEEPSLEEP_RESET, machine.SOFT_RESET) == (1, 2, 3, 4, 5)
    assert (ADC.ATTN_0DB, ADC.ATTN_2_5DB, ADC.ATTN_6DB, ADC.ATTN_11DB) == (0, 1, 2, 3)


def test_output_levels_and_value_kwarg():
    fresh()
    led = Pin(17, Pin.OUT, value=1)
    assert machine.sim_level(17) == 1 and led.value() == 1
    led.off()
    assert machine.sim_level(17) == 0
    led.on()
    led(0)
    assert led() == 0
    led.toggle()
    assert machine.sim_level(17) == 1
    # Two objects for one GPIO share the pad.
    assert Pin(17).value() == 1


def test_button_with_pull_up_reads_low_while_pressed():
    fresh()
    b = Pin(13, Pin.IN, Pin.PULL_UP)
    assert b.value() == 1
    machine.sim_press(13)
    assert b.value() == 0
    machine.sim_release(13)
    assert b.value() == 1


def test_irq_fires_at_once_filtered_by_edge():
    fresh()
    seen = []
    b = Pin(14, Pin.IN, Pin.PULL_UP)
    irq = b.irq(handler=lambda p: seen.append((p, p.value())), trigger=Pin.IRQ_FALLING)
    assert irq.trigger() == Pin.IRQ_FALLING
    machine.sim_press(14)
    assert len(seen) == 1 and seen[0][0] is b and seen[0][1] == 0
    machine.sim_release(14)
    assert len(seen) == 1  # rising edge filtered out
    irq()                  # calling the IRQ object runs the ISR, as on the chip
    assert len(seen) == 2 and seen[1][0] is b
    del seen[1:]
    b.irq(handler=lambda p: seen.append("r"), trigger=Pin.IRQ_RISING)
    machine.sim_press(14)
    machine.sim_release(14)
    assert seen[-1] == "r" and len(seen) == 2
    b.irq(handler=None)
    machine.sim_press(14)
    assert len(seen) == 2
    # No edge, no call: driving the level it already has.
    machine.sim_drive(14, 0)
    assert len(seen) == 2


def test_irq_waits_while_interrupts_are_disabled():
    fresh()
    seen = []
    Pin(4, Pin.IN, Pin.PULL_UP).irq(handler=lambda p: seen.append(1), trigger=Pin.IRQ_FALLING)
    state = machine.disable_irq()
    machine.sim_press(4)
    assert seen == []
    machine.enable_irq(state)
    assert seen == [1]


def test_irq_takes_only_the_ports_keywords():
    fresh()
    p = Pin(16, Pin.IN, Pin.PULL_UP)
    raises(TypeError, lambda: p.irq(handler=print, hard=True))
    raises(TypeError, lambda: p.irq(handler=print, priority=2))
    for name in ("mode", "pull", "drive", "PULL_HOLD"):
        assert not hasattr(p, name), name
    assert not hasattr(p.irq(), "flags")


def test_soft_irq_queue_holds_eight_callbacks_and_drops_the_rest():
    fresh()
    seen = []
    b = Pin(14, Pin.IN, Pin.PULL_UP)
    b.irq(handler=lambda p: seen.append(p.value()))
    machine.sim_busy_begin()           # the main thread is busy: nothing runs yet
    for _ in range(10):                # 20 edges of a bouncing contact
        machine.sim_press(14)
        machine.sim_release(14)
    assert seen == []
    stats = machine.sim_irq_stats()
    assert stats["queued"] == 8 and stats["dropped"] == 12
    machine.sim_busy_end()             # free again: the eight queued callbacks run, late
    assert len(seen) == 8 and seen == [1] * 8   # each reads the level now, not at its edge
    assert machine.sim_irq_stats() == {"run": 8, "dropped": 12, "queued": 0}


def test_a_full_queue_also_drops_another_pins_edge():
    fresh()
    seen = []
    a = Pin(14, Pin.IN, Pin.PULL_UP)
    b = Pin(4, Pin.IN, Pin.PULL_UP)
    a.irq(handler=lambda p: seen.append("a"), trigger=Pin.IRQ_FALLING)
    b.irq(handler=lambda p: seen.append("b"), trigger=Pin.IRQ_FALLING)
    machine.sim_busy_begin()
    for _ in range(8):
        machine.sim_press(14)
        machine.sim_release(14)
    machine.sim_press(4)               # the queue is full: this press is not seen
    machine.sim_busy_end()
    assert seen == ["a"] * 8
    assert b.value() == 0              # only its level tells


def test_rtc_memory_holds_2048_bytes():
    rtc = machine.RTC()
    rtc.memory(b"x" * 2048)
    assert machine.RTC().memory() == b"x" * 2048
    raises(ValueError, rtc.memory, b"x" * 2049)


def test_open_drain_only_pulls_low():
    fresh()
    p = Pin(26, Pin.OPEN_DRAIN, value=1)
    machine.sim_external_pull(26, 1)
    assert p.value() == 1
    p.value(0)
    assert p.value() == 0


def test_key_matrix_reads_like_a_scanned_keypad():
    fresh()
    rows = (33, 25, 26, 27)
    cols = (36, 39, 34, 32)
    matrix = machine.SimKeyMatrix(rows, cols, ("123A", "456B", "789C", "*0#D"))
    row_pins = [Pin(r, Pin.OUT, value=1) for r in rows]
    col_pins = [Pin(c, Pin.IN) for c in cols]

    def scan():
        found = []
        for r, rp in enumerate(row_pins):
            rp.value(0)
            for c, cp in enumerate(col_pins):
                if cp.value() == 0:
                    found.append("123A456B789C*0#D"[r * 4 + c])
            rp.value(1)
        return "".join(found)

    assert scan() == ""
    matrix.press_key("5")
    assert scan() == "5"
    matrix.press_key("D")
    assert scan() == "5D"
    matrix.release_key("5")
    assert scan() == "D"
    matrix.release_all()
    assert scan() == ""


def test_column_irq_sees_a_key_in_a_driven_row():
    fresh()
    matrix = machine.SimKeyMatrix((33,), (36,))
    row = Pin(33, Pin.OUT, value=0)
    seen = []
    Pin(36, Pin.IN).irq(handler=lambda p: seen.append(p.value()), trigger=Pin.IRQ_FALLING)
    matrix.press(0, 0)
    assert seen == [0]
    matrix.release(0, 0)
    row.value(1)
    matrix.press(0, 0)  # row high: the column stays high
    assert seen == [0]


class Recorder:
    def __init__(self):
        self.writes = []
        self.stops = 0

    def i2c_start(self):
        self.writes.append(b"")

    def i2c_write(self, mv):
        self.writes[-1] += bytes(mv)
        return len(mv)

    def i2c_read(self, buf):
        for i in range(len(buf)):
            buf[i] = 0xA0 + i

    def i2c_stop(self):
        self.stops += 1


def test_i2c_reaches_devices_by_bus_or_pins_and_refuses_missing_ones():
    fresh()
    left = machine.sim_attach_i2c(Recorder(), 0x3C, scl=22, sda=21)
    right = machine.sim_attach_i2c(Recorder(), 0x3D, bus=0)
    bus = I2C(0, scl=Pin(22), sda=Pin(21), freq=400000)
    assert bus.scan() == [0x3C, 0x3D]
    assert bus.writeto(0x3C, b"\x80\xae") == 2
    assert left.writes == [b"\x80\xae"] and left.stops == 1
    assert bus.writevto(0x3D, [b"\x40", bytearray(b"\x01\x02")]) == 3
    assert right.writes == [b"\x40\x01\x02"]
    err = raises(OSError, bus.writeto, 0x3E, b"\x00")
    assert err.errno == 19
    assert bus.readfrom(0x3C, 2) == b"\xa0\xa1"
    # The other controller with other pins sees neither device.
    assert I2C(1, scl=5, sda=15).scan() == []
    # SoftI2C on the same pins reaches the pin-attached device only.
    assert SoftI2C(scl=Pin(22), sda=Pin(21)).scan() == [0x3C]
    raises(ValueError, I2C, 2, scl=22, sda=21)


def test_i2c_memory_device_round_trip():
    fresh()
    mem = machine.sim_attach_i2c(machine.SimI2CMemory(), 0x50, bus=1)
    bus = I2C(1)
    bus.writeto_mem(0x50, 0x10, b"abc")
    assert bus.readfrom_mem(0x50, 0x10, 3) == b"abc"
    buf = bytearray(2)
    bus.readfrom_mem_into(0x50, 0x11, buf)
    assert buf == bytearray(b"bc")
    assert mem.transactions == 2 + 1


def test_pwm_state_and_history():
    fresh()
    clock = ManualClock(1000)
    machine.sim_set_clock(clock)
    buzzer = PWM(Pin(23), freq=2700, duty_u16=0)
    assert machine.sim_pwm(23) == (2700, 0)
    clock.advance(10)
    buzzer.duty_u16(32768)
    assert buzzer.duty_u16() == 32768 and buzzer.freq() == 2700
    buzzer.freq(3000)
    buzzer.duty(1023)
    assert buzzer.duty() == 1023 and buzzer.duty_u16() == 65535
    buzzer.deinit()
    assert machine.sim_pwm(23) is None
    hist = machine.sim_pwm_history(23)
    assert hist[0] == (1000, 2700, 0)
    assert hist[1] == (1010, 2700, 32768)
    assert hist[-1] == (1010, 0, 0)
    raises(ValueError, PWM, Pin(23), freq=0)
    # Default: 5 kHz at 50 %, as the port.
    assert PWM(Pin(23)).duty_u16() == 32768
    machine.sim_set_clock(None)


def test_adc_reads_the_set_voltage():
    fresh()
    raises(ValueError, ADC, Pin(5))
    adc = ADC(Pin(35), atten=ADC.ATTN_11DB)
    machine.sim_set_voltage(35, 1950)
    assert adc.read_uv() == 1950000
    assert adc.read() == 1950 * 4095 // 3100
    assert adc.read_u16() >> 4 == adc.read()
    adc.atten(ADC.ATTN_0DB)
    assert adc.read() == 4095  # over the range: saturates
    raises(ValueError, adc.atten, 7)


def test_watchdog_due_by_the_sim_clock():
    fresh()
    clock = ManualClock()
    machine.sim_set_clock(clock)
    assert not machine.sim_wdt_due()
    raises(ValueError, WDT, 1)
    raises(ValueError, WDT, timeout=0)
    wdt = WDT(timeout=2000)
    clock.advance(1999)
    assert not machine.sim_wdt_due()
    wdt.feed()
    clock.advance(1999)
    machine.sim_wdt_check()
    clock.advance(1)
    assert machine.sim_wdt_due()
    exc = raises(machine.SimReset, machine.sim_wdt_check)
    assert exc.cause == "wdt"
    machine.sim_set_clock(None)


def test_reset_is_not_an_exception_the_firmware_swallows():
    fresh()
    caught = []
    try:
        try:
            machine.reset()
        except Exception:
            caught.append("swallowed")
    except machine.SimReset as exc:
        caught.append(exc.cause)
    assert caught == ["reset"]
    raises(SystemExit, machine.soft_reset)


def test_reset_cause_unique_id_freq():
    fresh()
    assert machine.reset_cause() == machine.PWRON_RESET
    machine.sim_set_reset_cause(machine.WDT_RESET)
    assert machine.reset_cause() == machine.WDT_RESET
    assert len(machine.unique_id()) == 6
    assert machine.freq() == 160000000
    machine.freq(240000000)
    assert machine.freq() == 240000000
    raises(ValueError, machine.freq, 123)
    machine.idle()
    fresh()
