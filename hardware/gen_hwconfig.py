"""Write firmware's hwconfig files from the pin maps (standard library only).

    hardware/pinmap.csv        -> firmware/hwconfig.py         (ESP32-S3, the reference board)
    hardware/pinmap_wroom.csv  -> firmware/hwconfig_wroom.py   (ESP32-WROOM, the alternative)

    python hardware/gen_hwconfig.py           # check the pin maps, write both files
    python hardware/gen_hwconfig.py --check   # exit 1 if a file is stale or a map is bad
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import generated  # noqa: E402
import pinmap  # noqa: E402


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    status = 0
    for target, (csv_path, py_path) in pinmap.PINMAPS.items():
        rows = pinmap.load(csv_path)
        try:
            text = pinmap.render_hwconfig(rows, target)
        except pinmap.PinmapError as e:
            print("%s: %s" % (os.path.basename(csv_path), e), file=sys.stderr)
            status = 1
            continue
        if generated.update({py_path: text}, "--check" in argv, "gen_hwconfig.py"):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
