"""Files generated from the pin maps and the board description: written when they
differ from what is on disk, or, with --check, named as stale (CI runs the check)."""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def update(outputs, check, script):
    """Write each {path: text} that differs; with check, write nothing and report the
    stale ones.  Returns the paths (relative to the repository) that were stale."""
    stale = []
    for path, text in outputs.items():
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current == text:
            continue
        name = os.path.relpath(path, REPO)
        if check:
            stale.append(name)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote %s" % name)
    if stale:
        print("stale (run python hardware/%s): %s" % (script, ", ".join(stale)), file=sys.stderr)
    return stale
