"""Word list packer benchmark: our image next to dawgdic (DAWG2), marisa-trie and xz -9e.

    python bench/bench_packer.py [--lists DIR] [de en nb pl]

Each measurement runs in its own child process, which reports its wall time and peak
resident memory. Ours is the whole `wordpack build` from the compressed list (reading,
normalising, sorting, minimising, encoding). The peers get the already normalised, sorted
word list (one word per line, UTF-8, tiles written out) and are timed from reading that
file to holding the serialised structure; they need the `bench` extra
(`pip install dawg2==0.13.3 marisa-trie==1.4.1`). xz is Python's lzma with
preset 9 | PRESET_EXTREME on the same sorted list.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LISTS = REPO.parent / "shared" / "wordlists"
TARGET = {"pl": 0.55, "de": 0.55, "nb": 0.6, "en": 0.6}


def _child(kind: str, src: str, lang: str, out: str) -> None:
    import resource
    t0 = time.perf_counter()
    extra: dict = {}
    if kind == "ours":
        sys.path.insert(0, str(REPO))
        from wordlist_packer.cli import main
        rc = main(["build", src, "-l", lang, "-o", out, "--date", "0", "-q"])
        assert rc == 0
        size = os.path.getsize(out)
        from wordlist_packer.image import Image
        img = Image.load(out)
        extra = {"words": img.words, "arcs": img.arcs}
        elapsed = time.perf_counter() - t0
    else:
        words = Path(src).read_text(encoding="utf-8").split("\n")[:-1]
        if kind == "dawgdic":
            import dawg
            size = len(dawg.DAWG(words).tobytes())
        elif kind == "marisa":
            import marisa_trie
            size = len(marisa_trie.Trie(words).tobytes())
        elif kind == "xz":
            size = len(lzma.compress(("\n".join(words) + "\n").encode("utf-8"),
                                     preset=9 | lzma.PRESET_EXTREME))
        else:
            raise SystemExit(f"unknown {kind}")
        elapsed = time.perf_counter() - t0
        extra = {"words": len(words)}
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    try:  # ru_maxrss is inherited across fork; VmHWM belongs to this process image only
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    rss = int(line.split()[1]) * 1024
    except OSError:
        pass
    print(json.dumps({"bytes": size, "seconds": elapsed, "rss": rss, **extra}))


def run(kind: str, src: str, lang: str, out: str) -> dict:
    r = subprocess.run([sys.executable, __file__, "--child", kind, src, lang, out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return {"error": (r.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(*sys.argv[2:6])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("langs", nargs="*", default=["pl", "de", "nb", "en"])
    ap.add_argument("--lists", default=str(LISTS))
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    from wordlist_packer.image import Image
    rows = []
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        for lang in args.langs:
            src = str(Path(args.lists) / f"{lang}.txt.xz")
            img_path = os.path.join(tmp, f"{lang}.img")
            ours = run("ours", src, lang, img_path)
            if "error" in ours:
                print(f"{lang}: our build failed: {ours['error']}", file=sys.stderr)
                return 1
            words_file = os.path.join(tmp, f"{lang}.sorted.txt")
            img = Image.load(img_path)
            with open(words_file, "w", encoding="utf-8") as f:
                for w in img.word_list():
                    f.write(w + "\n")
            res = {"ours": ours}
            for kind in ("dawgdic", "marisa", "xz"):
                res[kind] = run(kind, words_file, lang, "")
            for kind, r in res.items():
                rows.append((lang, kind, ours["words"], ours["arcs"] if kind == "ours" else None, r))
            d, x = res["dawgdic"].get("bytes"), res["xz"].get("bytes")
            ob = ours["bytes"]
            ok_d = d is not None and ob <= TARGET[lang] * d
            ok_x = x is not None and ob < x
            verdicts.append(f"{lang}: ours/dawgdic = {ob / d:.3f} (target <= {TARGET[lang]}) "
                            f"{'OK' if ok_d else 'MISSED'}; ours/xz = {ob / x:.3f} (target < 1) "
                            f"{'OK' if ok_x else 'MISSED'}" if d and x else f"{lang}: peers missing")
    print("| list | structure | words | arcs | bytes | bits/word | build s | peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    names = {"ours": "wordpack image", "dawgdic": "dawgdic (DAWG2)", "marisa": "marisa-trie",
             "xz": "xz -9e sorted list"}
    for lang, kind, words, arcs, r in rows:
        if "error" in r:
            print(f"| {lang} | {names[kind]} | - | - | error: {r['error']} | | | |")
            continue
        print(f"| {lang} | {names[kind]} | {words:,} | {arcs:,} | {r['bytes']:,} | "
              f"{8 * r['bytes'] / words:.2f} | {r['seconds']:.1f} | {r['rss'] / 2**20:.0f} |"
              if arcs is not None else
              f"| {lang} | {names[kind]} | {words:,} | - | {r['bytes']:,} | "
              f"{8 * r['bytes'] / words:.2f} | {r['seconds']:.1f} | {r['rss'] / 2**20:.0f} |")
    print()
    for v in verdicts:
        print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
