"""Render every printable part of the enclosure with OpenSCAD (CGAL), record what it is made
of in parts.csv, and draw the views in views/ (standard library; needs openscad, and
xvfb-run for the pictures on a machine without a display).

    python hardware/enclosure/render.py             # STLs into build/enclosure/, parts.csv, views/
    python hardware/enclosure/render.py --no-views  # STLs and parts.csv only

Print the STLs from build/enclosure/ as hardware/README.md ("Enclosure") describes.
"""

import csv
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import mesh  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "build", "enclosure")
PARTS_CSV = os.path.join(HERE, "parts.csv")
VIEWS = os.path.join(HERE, "views")
PETG_G_PER_CM3 = 1.27
# name: (part, camera "tx,ty,tz,rx,ry,rz,dist"), drawn from the CGAL render
VIEW_LIST = {
    "assembly_referee": ("assembly", "0,0,40,60,0,330,900"),
    "assembly_rear": ("assembly", "0,0,40,60,0,150,900"),
    "centre_inside": ("centre", "0,0,50,130,0,20,520"),
    "right_inside": ("right", "135,0,50,130,0,300,450"),
    "right_panel": ("panel_right", "100,6,85,130,0,240,260"),
    "bottom_plates": ("bottoms", "0,0,0,40,0,20,800"),
}
COLUMNS = ["part", "volume_cm3", "petg_g", "size_x_mm", "size_y_mm", "size_z_mm", "triangles"]


def render_all(out_dir=OUT):
    """{part: (stl path, triangles)} for every printable part."""
    os.makedirs(out_dir, exist_ok=True)
    done = {}
    for i, part in enumerate(mesh.PARTS, start=1):
        path = os.path.join(out_dir, "tileclock_%s.stl" % part)
        t0 = time.time()
        mesh.render_stl(part, path)
        tris = mesh.load_stl(path)
        print("[%d/%d] %-14s %6.1f s  %6d triangles" % (i, len(mesh.PARTS), part, time.time() - t0, len(tris)),
              flush=True)
        done[part] = (path, tris)
    return done


def part_rows(done):
    rows = []
    for part in mesh.PARTS:
        tris = done[part][1]
        lo, hi = mesh.bounds(tris)
        vol = mesh.volume(tris) / 1000.0
        rows.append({"part": part, "volume_cm3": "%.1f" % vol, "petg_g": "%.0f" % (vol * PETG_G_PER_CM3),
                     "size_x_mm": "%.1f" % (hi[0] - lo[0]), "size_y_mm": "%.1f" % (hi[1] - lo[1]),
                     "size_z_mm": "%.1f" % (hi[2] - lo[2]), "triangles": str(len(tris))})
    return rows


def write_parts_csv(rows, path=PARTS_CSV):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def scad_digest():
    import hashlib
    with open(mesh.SCAD, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def draw_views():
    os.makedirs(VIEWS, exist_ok=True)
    xvfb = [] if os.environ.get("DISPLAY") else [shutil.which("xvfb-run") or "xvfb-run", "-a", "-s",
                                                  "-screen 0 1280x1024x24"]
    for name, (part, camera) in VIEW_LIST.items():
        out = os.path.join(VIEWS, name + ".png")
        cmd = xvfb + [mesh.openscad(), "--render", "--imgsize=1200,800", "--camera=" + camera,
                      "-D", 'part="%s"' % part, "-o", out, mesh.SCAD]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if r.returncode != 0 or not os.path.exists(out):
            raise RuntimeError("view %s failed:\n%s" % (name, r.stderr))
        print("view %s" % os.path.relpath(out, ROOT), flush=True)
    # which model the views show (the tests compare it with tileclock.scad)
    with open(os.path.join(VIEWS, "SOURCE"), "w", encoding="utf-8") as f:
        f.write("tileclock.scad sha256 %s\n" % scad_digest())


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not mesh.openscad():
        print("openscad is not installed (Debian: apt-get install openscad)", file=sys.stderr)
        return 1
    rows = part_rows(render_all())
    write_parts_csv(rows)
    total = sum(float(r["petg_g"]) for r in rows)
    print("wrote %s: %.0f g of PETG in all" % (os.path.relpath(PARTS_CSV, ROOT), total))
    if "--no-views" not in argv:
        draw_views()
    return 0


if __name__ == "__main__":
    sys.exit(main())
