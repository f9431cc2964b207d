"""The run command: `python3 -m host_tools [clockctl arguments]`.

Installs what it needs into `.venv` on first use.  With no arguments it
starts the simulator: the real firmware under the real MicroPython
interpreter, shown as a local web page.
"""

import sys

from host_tools import bootstrap


def main(argv):
    bootstrap.reexec_inside("host_tools", argv, extras=())
    from host_tools.cli import main as clockctl

    return clockctl(argv or ["sim"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
