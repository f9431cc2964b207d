# The link's serial port.  On the WROOM the link is UART0, the REPL's UART, behind the
# board's USB-UART bridge; the host may ask for a faster rate (link/server.py, BAUD).
# machine.UART(0).init(baudrate=N) changes the rate of the REPL's UART in place: the
# driver and its buffers stay, and the call first waits until what was sent has left
# (ports/esp32/machine_uart.c:244-286 at v1.26.0).  On the S3's native USB the REPL
# is not on UART0 and the rate means nothing: the call changes an idle UART.
#
# Writing (sys.stdout.buffer.write): on the WROOM's UART0 a write takes its bytes' time on
# the wire and never waits for the host; on the S3's native USB it waits up to 500 ms while
# a host holds the port open and does not read, then returns what fitted
# (shared/tinyusb/mp_usbd_cdc.c).  link/server.py (Sender) bounds what that costs the
# clock; the simulator's port behaves the same (host_tools/sim/linkpty.py).


def set_baud(baud):
    from machine import UART

    UART(0).init(baudrate=baud)
