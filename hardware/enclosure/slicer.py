"""Slice the enclosure's parts with PrusaSlicer (Debian: `prusa-slicer`) in their print
orientation, with automatic supports enabled, and report the support the slicer adds.

The mesh check (mesh.overhangs) decides by geometry; this asks a real slicer, with the print
guide's settings (hardware/README.md, "Enclosure"): 0.2 mm layers, 3 perimeters, 20 %
infill, 220 x 220 mm bed, supports on, the slicer's own overhang threshold (auto), bridges
not supported. Standard library only.

    python hardware/enclosure/slicer.py               # renders every part, slices, reports
                                                      # (filament: PETG, 1.27 g/cm3, support included)
    python hardware/enclosure/slicer.py --keep DIR    # also keeps the STLs and G-code in DIR
"""

import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import mesh  # noqa: E402

FILAMENT_D = 1.75             # mm
PETG_G_PER_CM3 = 1.27
# the print guide's settings; support on, threshold 0 = the slicer's automatic detection
SETTINGS = ["--support-material", "--support-material-threshold", "0",
            "--layer-height", "0.2", "--perimeters", "3", "--fill-density", "20%",
            "--bed-shape", "0x0,%gx0,%gx%g,0x%g" % (mesh.BED[0], mesh.BED[0], mesh.BED[1], mesh.BED[1]),
            "--max-print-height", "%g" % mesh.BED[2],
            "--center", "%g,%g" % (mesh.BED[0] / 2, mesh.BED[1] / 2),
            "--use-relative-e-distances"]


def slicer():
    return shutil.which("prusa-slicer")


def write_on_bed(tris, up, path):
    """An ASCII STL of the part turned into its print orientation: `up` along +z."""
    e1, e2, upv = mesh.print_frame(up)
    with open(path, "w", encoding="utf-8") as f:
        f.write("solid part\n")
        for t in tris:
            f.write(" facet normal 0 0 0\n  outer loop\n")
            for v in t:
                f.write("   vertex %.6f %.6f %.6f\n" % (mesh._dot(v, e1), mesh._dot(v, e2), mesh._dot(v, upv)))
            f.write("  endloop\n endfacet\n")
        f.write("endsolid part\n")


def extrusion_by_type(gcode_path):
    """{feature type (";TYPE:" comment): filament volume in mm3} of a G-code file with
    relative extrusion: the moves that extrude (retractions and their refills left out)."""
    area = math.pi * (FILAMENT_D / 2) ** 2
    out = {}
    kind = None
    with open(gcode_path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(";TYPE:"):
                kind = line[6:].strip()
            elif kind and line.startswith("G1 X") and " E" in line:
                e = float(re.search(r" E(-?[\d.]+)", line).group(1))
                if e > 0:
                    out[kind] = out.get(kind, 0.0) + e * area
    return out


def support_layers(gcode_path):
    """Heights (mm above the bed) of the layers that carry support material."""
    z = None
    kind = None
    zs = set()
    with open(gcode_path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(";Z:"):
                z = float(line[3:])
            elif line.startswith(";TYPE:"):
                kind = line[6:].strip()
            elif kind and kind.startswith("Support") and line.startswith("G1 X") and " E" in line:
                zs.add(z)
    return sorted(zs)


def slice_part(tris, up, work_dir, name="part", timeout=300):
    """Slice one part lying with `up` pointing up; returns (G-code path, {type: mm3})."""
    stl = os.path.join(work_dir, name + "_on_bed.stl")
    gcode = os.path.join(work_dir, name + ".gcode")
    write_on_bed(tris, up, stl)
    r = subprocess.run([slicer(), "--export-gcode", *SETTINGS, "--loglevel", "1", "-o", gcode, stl],
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0 or not os.path.exists(gcode):
        raise RuntimeError("prusa-slicer failed on %s:\n%s%s" % (name, r.stdout[-2000:], r.stderr[-2000:]))
    return gcode, extrusion_by_type(gcode)


def support_mm3(by_type):
    return sum(v for k, v in by_type.items() if k.startswith("Support"))


def main(argv):
    if not slicer():
        print("prusa-slicer not installed (apt-get install prusa-slicer)")
        return 2
    if not mesh.openscad():
        print("openscad not installed (apt-get install openscad)")
        return 2
    keep = argv[argv.index("--keep") + 1] if "--keep" in argv else None
    work = keep or tempfile.mkdtemp(prefix="tileclock-slice-")
    os.makedirs(work, exist_ok=True)
    try:
        print("%-14s %10s %10s %10s %8s  %s" % ("part", "model cm3", "filament g", "support g", "layers",
                                                 "support from-to mm"))
        total = 0.0
        for part in mesh.PARTS:
            stl = os.path.join(work, part + ".stl")
            mesh.render_stl(part, stl)
            gcode, by_type = slice_part(mesh.load_stl(stl), mesh.PRINT_UP[part], work, part)
            sup = support_mm3(by_type)
            model = sum(by_type.values()) - sup
            zs = support_layers(gcode)
            span = "%.1f-%.1f" % (zs[0], zs[-1]) if zs else "-"
            grams = (model + sup) / 1000 * PETG_G_PER_CM3
            total += grams
            print("%-14s %10.1f %10.0f %10.1f %8d  %s" % (part, model / 1000, grams, sup / 1000 * PETG_G_PER_CM3,
                                                         len(zs), span))
        print("%-14s %10s %10.0f" % ("all", "", total))
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
