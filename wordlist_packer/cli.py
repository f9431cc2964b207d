"""wordpack: word lists to word graph images (see docs/packer.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from .image import KIND_NAMES, HeaderTooLong, Image, ImageError
from .normalise import REASONS, Profile, ProfileError, builtin_languages
from .pipeline import (DEFAULT_MAX_DROP_SHARE, InputError, build_date, build_image, check_drops,
                       check_profile_fits, load_words, verify)

EXIT_DAMAGED = 3
EXIT_INPUT = 2
EXIT_VERIFY = 1


def _profile(args) -> Profile:
    if getattr(args, "alphabet", None):
        return Profile.from_alphabet_file(args.alphabet, language=args.language or "xx")
    if not args.language:
        raise ProfileError("give --language (one of " + ", ".join(builtin_languages())
                           + ", or a profile .json) or --alphabet FILE")
    return Profile.load(args.language)


class Progress:
    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.t0 = time.perf_counter()

    def __call__(self, msg: str) -> None:
        if not self.quiet:
            print(f"[{time.perf_counter() - self.t0:6.1f}s] {msg}", file=sys.stderr, flush=True)


def _dropped_summary(dropped: Counter) -> dict:
    return {r: dropped[r] for r in REASONS if dropped.get(r)}


def cmd_build(args) -> int:
    prof = _profile(args)
    if args.max_length:
        prof.max_length = args.max_length
    say = Progress(args.quiet)
    say(f"reading {args.input}")
    loaded = load_words(args.input, prof, args.encoding, args.skip_bad,
                        want_report=bool(args.report))
    res = loaded.result
    say(f"{res.lines} entries, {len(res.words)} words kept, dropped: "
        f"{json.dumps(_dropped_summary(res.dropped))}")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("# line\treason\tentry\n")
            for line, reason, entry in res.report or []:
                f.write(f"{line}\t{reason}\t{entry}\n")
        say(f"dropped entries written to {args.report}")
    check_drops(res, None if args.allow_drops else args.max_drops / 100)
    if not args.force_language:
        check_profile_fits(loaded, prof)
    date = build_date(args.date)
    try:
        data, g = build_image(res.words, prof, name=args.name or Path(args.input).name,
                              version=args.list_version or "", date=date, progress=say)
    except HeaderTooLong as e:
        raise InputError(str(e)) from None
    Path(args.output).write_bytes(data)
    say(f"wrote {args.output}: {len(data)} bytes, {g.words} words, {g.arc_count} arcs, "
        f"{8 * len(data) / max(1, g.words):.2f} bits/word")
    return 0


def cmd_verify(args) -> int:
    prof = _profile(args)
    say = Progress(args.quiet)
    try:
        img = Image.load(args.image)
    except ImageError as e:
        print(f"{args.image}: DAMAGED: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    if args.max_length:
        prof.max_length = args.max_length
    loaded = load_words(args.input, prof, args.encoding, args.skip_bad)
    say(f"{len(loaded.result.words)} words from {args.input}")
    if not args.force_language:
        try:
            check_profile_fits(loaded, prof)
        except InputError as e:
            print(f"wordpack: {e}", file=sys.stderr)
            print("FAILED", file=sys.stderr)
            return EXIT_VERIFY
    try:
        rep = verify(img, loaded.result.words, prof, samples=args.samples,
                     edits_per_word=args.edits, seed=args.seed, full_lookup=args.full,
                     progress=say)
    except ImageError as e:
        print(f"{args.image}: DAMAGED: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    print(json.dumps(rep.as_dict(), ensure_ascii=False, indent=1))
    print("OK" if rep.ok else "FAILED", file=sys.stderr)
    return 0 if rep.ok else EXIT_VERIFY


def cmd_lookup(args) -> int:
    try:
        img = Image.load(args.image)
    except ImageError as e:
        print(f"{args.image}: DAMAGED: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    prof = None
    if args.language:
        prof = Profile.load(args.language)
    all_ok = True
    for w in args.words:
        if prof is not None:
            codes, _ = prof.normalise_query(w)
            tiles = None if codes is None else prof.indices(codes)
        else:
            tiles = img.tiles_of(w.strip().upper())
        try:
            ok = tiles is not None and img.contains_tiles(tiles)
        except ImageError as e:
            print(f"{args.image}: DAMAGED: {e}", file=sys.stderr)
            return EXIT_DAMAGED
        shown = w if tiles is None else "".join(img.tile_strings[t] for t in tiles)
        print(f"{shown}\t{'valid' if ok else 'invalid'}")
        all_ok &= ok
    return 0 if all_ok else EXIT_VERIFY


def cmd_info(args) -> int:
    try:
        img = Image.load(args.image)
    except ImageError as e:
        print(json.dumps({"image": str(args.image), "damaged": str(e)}))
        print(f"{args.image}: DAMAGED: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    print(json.dumps(img.header(), ensure_ascii=False, indent=1))
    return 0


def cmd_stats(args) -> int:
    try:
        img = Image.load(args.image)
        kinds: Counter = Counter()
        arcs = nodes = jumps = 0
        for _, own, jump in img.stored_nodes():
            nodes += 1
            arcs += len(own)
            kinds.update(KIND_NAMES[kind] for _, _, _, kind in own)
            if jump >= 0:
                jumps += 1
                kinds["jump"] += 1
    except ImageError as e:
        print(f"{args.image}: DAMAGED: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    out = {
        "bytes": len(img.data), "header_bytes": img.header_len, "body_bytes": img.body_len,
        "bit_stream_bytes": len(img.logical), "pages": img.header()["pages"],
        "page_size": 1 << img.page_shift, "words": img.words, "arcs": arcs, "nodes": nodes,
        "jumps": jumps,
        "bits_per_word": round(8 * len(img.data) / max(1, img.words), 3),
        "bits_per_arc": round(8 * len(img.logical) / max(1, arcs + jumps), 3),
        "arc_kinds": dict(kinds), "contexts": len(img.s1),
        "tile_codes": sum(len(t[1]) for t in img.s1_tables),
        "flag_codes": len(img.s2_table[1]),
    }
    print(json.dumps(out, indent=1))
    return 0


def cmd_legend(args) -> int:
    from dataclasses import replace

    from . import legend

    try:
        img = Image.load(args.image)
    except ImageError as e:
        print(f"{args.image}: DAMAGED: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    pad = legend.KEYPAD
    for field in ("pitch_x", "pitch_y", "key", "top"):
        value = getattr(args, field)
        if value is not None:
            pad = replace(pad, **{field: value})
    stem = Path(args.output) if args.output else Path(args.image).with_name(
        Path(args.image).stem + "-keypad")
    layout = legend.image_layout(img)
    svg_path, pdf_path = legend.write(img, stem, pad)
    print(f"{legend.caption_of(img)}: the letters on the keys, in the order presses give them")
    for row in legend.ROWS:
        print("  " + "  ".join(f"{k} {''.join(layout.get(k, [])):<11}" for k in row[:3]).rstrip())
    print(f"wrote {svg_path} and {pdf_path} ({pad.width:g} x {pad.height:g} mm, print at 100 %)")
    return 0


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wordpack", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)

    def lang_opts(sp, required_input=True):
        sp.add_argument("--language", "-l", help="profile: " + ", ".join(builtin_languages())
                        + " or a profile .json file")
        sp.add_argument("--alphabet", help="generic profile from an alphabet file "
                        "(one tile per line, see docs/packer.md)")
        sp.add_argument("--encoding", default="utf-8", help="input encoding (default utf-8)")
        sp.add_argument("--skip-bad", action="store_true",
                        help="skip and count undecodable lines instead of stopping")
        sp.add_argument("--max-length", type=int, default=0,
                        help="drop words longer than this many tiles (the list covers up to it)")
        sp.add_argument("--force-language", action="store_true",
                        help="use this profile even if the list's letters fit another language "
                        "better or more than 3 %% of its entries have a letter not on its tiles")
        sp.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")

    b = sub.add_parser("build", help="word list to image")
    b.add_argument("input", help="word list (.xz/.gz/.bz2 read directly; - for stdin)")
    b.add_argument("-o", "--output", required=True)
    b.add_argument("--name", help="list name stored in the header (default: input file name)")
    b.add_argument("--list-version", help="list version stored in the header")
    b.add_argument("--date", help="build date: seconds since 1970 or YYYY-MM-DD "
                   "(default: SOURCE_DATE_EPOCH, else now)")
    b.add_argument("--report", help="write every dropped entry with its reason to FILE")
    b.add_argument("--allow-drops", action="store_true",
                   help="pack even if more than --max-drops percent of the entries are dropped")
    b.add_argument("--max-drops", type=float, default=100 * DEFAULT_MAX_DROP_SHARE,
                   metavar="PERCENT", help="refuse a list that drops more than this share "
                   "of its entries (default %(default).0f)")
    lang_opts(b)
    b.set_defaults(func=cmd_build)

    v = sub.add_parser("verify", help="check an image against its word list")
    v.add_argument("image")
    v.add_argument("input")
    v.add_argument("--samples", type=int, default=20_000,
                   help="words looked up through the reader (default 20000)")
    v.add_argument("--edits", type=int, default=10,
                   help="one-tile edits checked per sampled word (default 10)")
    v.add_argument("--seed", type=int, default=1)
    v.add_argument("--full", action="store_true", help="look up every word through the reader")
    lang_opts(v)
    v.set_defaults(func=cmd_verify)

    lk = sub.add_parser("lookup", help="look words up")
    lk.add_argument("image")
    lk.add_argument("words", nargs="+")
    lk.add_argument("--language", "-l", help="normalise the words with this profile "
                    "(default: upper-case and split into the image's tiles)")
    lk.set_defaults(func=cmd_lookup)

    i = sub.add_parser("info", help="the header as JSON")
    i.add_argument("image")
    i.set_defaults(func=cmd_info)

    lg = sub.add_parser("legend", help="printable keypad overlay (SVG and PDF) for a list")
    lg.add_argument("image")
    lg.add_argument("-o", "--output", help="file name without suffix (default: IMAGE-keypad)")
    lg.add_argument("--pitch-x", type=float, help="key centre to centre across, mm (16.5)")
    lg.add_argument("--pitch-y", type=float, help="key centre to centre down, mm (15)")
    lg.add_argument("--key", type=float, help="a key's size, mm (12)")
    lg.add_argument("--top", type=float, help="keypad edge to the first key row, mm (5)")
    lg.set_defaults(func=cmd_legend)

    s = sub.add_parser("stats", help="size figures of an image as JSON")
    s.add_argument("image")
    s.set_defaults(func=cmd_stats)
    return p


def main(argv=None) -> int:
    args = make_parser().parse_args(argv)
    try:
        return args.func(args)
    except (InputError, ProfileError, OSError) as e:
        print(f"wordpack: {e}", file=sys.stderr)
        return EXIT_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
