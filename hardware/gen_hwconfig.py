"""Write firmware/hwconfig.py from hardware/pinmap.csv (standard library only).

    python hardware/gen_hwconfig.py           # check the pin map, write hwconfig.py
    python hardware/gen_hwconfig.py --check   # exit 1 if hwconfig.py is stale or the map is bad
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pinmap  # noqa: E402


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    rows = pinmap.load()
    try:
        text = pinmap.render_hwconfig(rows)
    except pinmap.PinmapError as e:
        print(e, file=sys.stderr)
        return 1
    if "--check" in argv:
        try:
            with open(pinmap.HWCONFIG_PY, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            print("firmware/hwconfig.py is not what hardware/pinmap.csv gives: run"
                  " python hardware/gen_hwconfig.py", file=sys.stderr)
            return 1
        return 0
    with open(pinmap.HWCONFIG_PY, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote %s" % os.path.relpath(pinmap.HWCONFIG_PY))
    return 0


if __name__ == "__main__":
    sys.exit(main())
