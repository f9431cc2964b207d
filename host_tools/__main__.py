"""The run command: `python3 -m host_tools [clockctl arguments]`.

Installs what it needs into `.venv` on first use.  With no command (no
arguments, or only the simulator's options: `--fresh`, `--preset duplicate`)
it starts the simulator: the real firmware under the real MicroPython
interpreter, shown as a local web page.
"""

import sys

from host_tools import bootstrap


def clockctl_argv(argv):
    """clockctl's arguments: the simulator's when there is no command, only options
    (`python3 -m host_tools --fresh`); clockctl's own help stays clockctl's."""
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        return ["sim", *argv]
    return list(argv)


def main(argv):
    bootstrap.reexec_inside("host_tools", argv, extras=())
    from host_tools.cli import main as clockctl

    return clockctl(clockctl_argv(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
