"""Host side of the firmware update (docs/link-protocol.md, section 4a).

`push_firmware(link, files, version)` sends the firmware of the reference board's layout
(host_tools/image.py: `firmware_tree`, the same files `clockctl image` puts into slot
fw/a) into the clock's other slot, file by file in checked chunks, and commits: the
clock reads every file back against the sizes and CRC-32s announced at the start and
only then switches slots, with one rename.  The clock restarts into the new firmware;
`wait_for_version` then asks it (INFO) which firmware it runs, so the update is verified
end to end by what the clock reports after its restart.
"""

from __future__ import annotations

import json
import re
import struct
import time
from pathlib import Path
from typing import Callable

from host_tools.link import FW_BEGIN, FW_CHUNK, FW_COMMIT, LinkError, best_rotation, crc32, rotate

_VERSION = re.compile(r"""^VERSION\s*=\s*["']([^"']+)["']""", re.M)


def firmware_version(firmware_dir: Path) -> str:
    """VERSION of firmware/version.py (what INFO reports as "firmware")."""
    m = _VERSION.search((Path(firmware_dir) / "version.py").read_text())
    if not m:
        raise ValueError("no VERSION in %s/version.py" % firmware_dir)
    return m.group(1)


def manifest(files: dict[str, bytes]) -> list[list]:
    return [[path, len(data), crc32(data)] for path, data in sorted(files.items())]


def push_firmware(link, files: dict[str, bytes], version: str, force: bool = False,
                  restart: bool = True,
                  progress: Callable[[str, int, int], None] | None = None,
                  commit_timeout: float = 30.0) -> dict:
    """Send and commit a firmware; returns the commit's reply.  Raises LinkError (the
    clock keeps running, and booting, its old firmware)."""
    listing = manifest(files)
    total = sum(item[1] for item in listing)
    # the clock empties the other slot first: a few seconds on the chip's flash
    begin = link.request_json(FW_BEGIN, {"files": listing, "version": version,
                                         "force": force}, timeout=max(link.timeout, 5.0),
                              retries=2)
    chunk = max(64, min(int(begin.get("chunk", 256)), link.chunk_max))
    done = 0
    if progress:
        progress("send", 0, total)
    for index, (path, size, _crc) in enumerate(listing):
        data = files[path]
        have = 0
        while have < size:
            piece = data[have:have + chunk]
            k = best_rotation(piece)
            _, reply = link.request(FW_CHUNK, struct.pack("<HIIB", index, have, crc32(piece), k)
                                    + rotate(piece, k))
            new = struct.unpack_from("<I", reply)[0]
            if new > size:
                raise LinkError("E_PROTO", "device claims %d of %d bytes of %s" % (new, size, path))
            done += new - have
            have = new
            if progress:
                progress("send", done, total)
    if progress:
        progress("verify", total, total)
    reply = link.request_json(FW_COMMIT, {"files": listing, "force": force, "restart": restart},
                              timeout=max(link.timeout, commit_timeout), retries=1)
    if progress:
        progress("done", total, total)
    return reply


def wait_for_version(open_link: Callable[[], object], version: str, timeout: float = 30.0) -> dict:
    """Reconnect until the restarted clock answers INFO with `version`.  Until its restart
    (a moment after the commit's reply) the clock still answers with the old one."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while True:
        try:
            with open_link() as link:
                info = link.info()
            if info.get("firmware") == version:
                return info
            last = "it still runs firmware %s" % info.get("firmware")
        except (LinkError, OSError) as e:   # restarting: the port is gone or silent
            last = str(e)
        if time.monotonic() > deadline:
            raise LinkError("E_VERIFY", "the clock did not come back with firmware %s (%s)"
                            % (version, last))
        time.sleep(0.3)


def describe(reply: dict) -> str:
    return json.dumps(reply, sort_keys=True)
