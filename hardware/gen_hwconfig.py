"""Write firmware's hwconfig files from the pin maps (standard library only).

    hardware/pinmap.csv        -> firmware/hwconfig.py         (ESP32-S3, the reference board)
    hardware/pinmap_wroom.csv  -> firmware/hwconfig_wroom.py   (ESP32-WROOM, the alternative)

    python hardware/gen_hwconfig.py           # check the pin maps, write both files
    python hardware/gen_hwconfig.py --check   # exit 1 if a file is stale or a map is bad
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

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
        try:
            with open(py_path, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current == text:
            continue
        if "--check" in argv:
            print("firmware/%s is not what hardware/%s gives: run python hardware/gen_hwconfig.py"
                  % (os.path.basename(py_path), os.path.basename(csv_path)), file=sys.stderr)
            status = 1
            continue
        with open(py_path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote firmware/%s" % os.path.basename(py_path))
    return status


if __name__ == "__main__":
    sys.exit(main())
