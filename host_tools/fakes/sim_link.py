# The simulated device's side of the simulator's channel: a TCP connection to
# the simulator on 127.0.0.1 (TILECLOCK_SIM_PORT).
#
# Out (written by the main thread, where the firmware drives its pins):
#     "hello\n", "pin G L\n", "pwm G F D\n", "wdt T\n", "reset CAUSE\n",
#     "frame NAME s0 .. s8 N\n" followed by N bytes of display RAM.
# In (read by a thread, applied in the main thread through
# micropython.schedule, as the chip's scheduled pin IRQs are):
#     "drive G 0|1|n", "key R C 0|1", "volt G MV", "wifi 0|1" (the access point:
#     host_tools/fakes/network.py), "ping".
# The same thread lets the watchdog bite: it checks it every 50 ms against
# real time and ends the process (sim_device.end_process) when it is due.

import socket

import machine
import micropython
import sim_device

_state = {"sock": None, "board": None, "sending": False}
_deferred = []


# Everything is sent from the main thread.  A scheduled callback (an input
# event, a pin IRQ) may run in the middle of a send and send itself: it must
# not interleave its bytes with a frame, so it is queued and sent right after.

def _write_all(sock, data):
    view = memoryview(data)
    while len(view):
        n = sock.send(view)
        view = view[n:]


def _send_parts(parts):
    sock = _state["sock"]
    if sock is None:
        return
    if _state["sending"]:
        _deferred.append(b"".join(bytes(p) for p in parts))
        return
    _state["sending"] = True
    try:
        for part in parts:
            _write_all(sock, part)
        while _deferred:
            _write_all(sock, _deferred.pop(0))
    except OSError:
        pass
    finally:
        _state["sending"] = False


def send(data):
    _send_parts((data,))


def send_frame(name, panel):
    head = "frame %s %s %d\n" % (name, " ".join(str(v) for v in panel.state()), len(panel.ram))
    _send_parts((head.encode(), panel.ram))


def _observer(kind, a, b, c):
    if kind == "pin":
        send(b"pin %d %d\n" % (a, b))
    elif kind == "pwm":
        send(b"pwm %d %d %d\n" % (a, b, c))
    elif kind == "wdt":
        send(b"wdt %d\n" % a)
    elif kind == "reset":
        if not _state["sending"]:  # from the watchdog thread, at the end
            send(b"reset %s\n" % a.encode())


def _apply(line):
    parts = line.split()
    if not parts:
        return
    cmd = parts[0]
    try:
        if cmd == "drive":
            level = None if parts[2] == "n" else int(parts[2])
            machine.sim_drive(int(parts[1]), level)
        elif cmd == "key":
            matrix = _state["board"].keypad
            if parts[3] == "1":
                matrix.press(int(parts[1]), int(parts[2]))
            else:
                matrix.release(int(parts[1]), int(parts[2]))
        elif cmd == "volt":
            machine.sim_set_voltage(int(parts[1]), int(parts[2]))
        elif cmd == "wifi":
            import network

            network.sim_set_air(parts[1] == "1")
        elif cmd == "ping":
            send(b"pong\n")
    except Exception as e:  # a bad line must not take the device down
        send(("error %s\n" % e).encode())


def _schedule(line):
    import time

    while True:
        try:
            micropython.schedule(_apply, line)
            return
        except RuntimeError:  # queue full: the main thread is busy (or hung)
            if machine.sim_wdt_due():
                sim_device.end_process("wdt")
            time.sleep_ms(1)


def _reader():
    import select
    import time

    sock = _state["sock"]
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    pending = b""
    while True:
        if machine.sim_wdt_due():
            sim_device.end_process("wdt")
        if not poller.poll(50):
            continue
        try:
            chunk = sock.recv(512)
        except OSError:
            chunk = b""
        if not chunk:
            # The simulator went away: the device loses power with it.
            sim_device.end_process("lost")
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            _schedule(line.decode())
        time.sleep_ms(0)


def start(port, board):
    import _thread

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.connect(socket.getaddrinfo("127.0.0.1", port)[0][-1])
    _state["sock"] = sock
    _state["board"] = board
    sim_device.add_observer(_observer)
    send(b"hello\n")
    _thread.start_new_thread(_reader, ())
