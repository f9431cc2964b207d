"""Generate the allow-list of the chip API the firmware may use, from the port's C source.

    python3 tests/host/gen_port_api.py --micropython MP_GIT_DIR --esp-idf IDF_GIT_DIR \\
        [--tag v1.26.0] [--idf-tag v5.4.2] [--out tests/host/data/esp32_port_api.json]

MP_GIT_DIR and IDF_GIT_DIR are git directories (bare or not) of micropython/micropython
and espressif/esp-idf.  The tag's tree is read with `git archive`; nothing is built.

For each target (host_tools/targets.py: "wroom" = board ESP32_GENERIC, chip esp32;
"s3" = board ESP32_GENERIC_S3, chip esp32s3) every C file of ports/esp32, extmod and
py/modmicropython.c is run through the C preprocessor (gcc -E) with:

- the port's real configuration: py/mpconfig.h, ports/esp32/mpconfigport.h and the
  board's mpconfigboard.h;
- an sdkconfig.h made from the board's SDKCONFIG_DEFAULTS files (mpconfigboard.cmake),
  CONFIG_IDF_TARGET_<CHIP>, CONFIG_SOC_* from ESP-IDF's Kconfig.soc_caps.in and the
  default CPU clock from ESP-IDF's Kconfig.cpu;
- ESP-IDF's real soc/soc_caps.h and esp_idf_version.h (the tag MicroPython's CI builds
  that release with: tools/ci.sh IDF_VER);
- every other header (the rest of ESP-IDF, the py/ object model) empty, so the macros
  that build the tables (MP_ROM_QSTR, MP_DEFINE_CONST_OBJ_TYPE, ...) stay as they are
  written and can be read off the output.

Each preprocessor condition that names a macro defined nowhere (gcc -Wundef) must be in
UNDEFINED_OK below with the reason it is false on the chip, or be an ESP-IDF option whose
Kconfig default is n (read from ESP-IDF's Kconfig files), and must not be one the emptied
py/ headers define; otherwise the generator stops, so that a condition is never decided
by a missing header by accident.

From the preprocessed text it reads the modules `machine`, `esp32`, `esp`, `network` and
`micropython` (MP_REGISTER_MODULE), their globals tables, the classes they name
(MP_DEFINE_CONST_OBJ_TYPE: locals dict, parent, make_new, protocol) and, for every
function, the arguments it accepts: the MP_DEFINE_CONST_FUN_OBJ_* arity, the mp_arg_t
table it (or the helper it hands its arguments to) parses, mp_arg_check_num in a
constructor.  Three kinds of limit found in a function's body are kept too:

- a method that raises "not supported" when the class's protocol lacks an operation
  (`i2c_p->start == NULL`) is dropped from a class whose protocol does not have it
  (the hardware I2C has no start/stop/readinto/write);
- a constructor that refuses its first argument by range
  (`uint32_t n = mp_obj_get_int(args[0]); if (n >= N)`): the ids it takes (Timer);
- a buffer refused above a length (`if (bufinfo.len > N)`): RTC.memory's 2048 bytes.

Output: JSON, with the commits read.  The API check (tests/host/chip_api.py) uses only
this file; CI does not fetch the sources.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "host" / "data" / "esp32_port_api.json"

MODULES = ("machine", "esp32", "esp", "network", "micropython")

TARGETS = {
    "wroom": {"board": "ESP32_GENERIC", "chip": "esp32"},
    "s3": {"board": "ESP32_GENERIC_S3", "chip": "esp32s3",
           "variants": {"SPIRAM_OCT": "mpconfigvariant_SPIRAM_OCT.cmake"}},
}

# ESP-IDF's Kconfig (IDF_TARGET_ARCH_XTENSA: "default y if IDF_TARGET_ESP32 ||
# IDF_TARGET_ESP32S2 || IDF_TARGET_ESP32S3").
ARCH = {"esp32": "xtensa", "esp32s3": "xtensa"}

# ESP-IDF options the port's conditions read whose Kconfig default is not n and that
# no sdkconfig file of these boards sets: their default, and where ESP-IDF gives it.
KCONFIG_DEFAULTS = {
    "esp32": {"CONFIG_XTAL_FREQ": ("40", "components/esp_hw_support/port/esp32/Kconfig.xtal: "
                                         "choice default XTAL_FREQ_40, XTAL_FREQ 40"),
              "CONFIG_ESP32_REV_MIN_FULL": ("0", "components/esp_hw_support/port/esp32/"
                                                 "Kconfig.hw_support: choice default "
                                                 "ESP32_REV_MIN_0, ESP32_REV_MIN_FULL 0")},
    "esp32s3": {"CONFIG_XTAL_FREQ": ("40", "components/esp_hw_support/port/esp32s3/"
                                           "Kconfig.xtal: XTAL_FREQ_40, XTAL_FREQ 40"),
                "CONFIG_ESP_CONSOLE_USB_SERIAL_JTAG_ENABLED": (
                    "1", "components/esp_system/Kconfig: choice ESP_CONSOLE_SECONDARY "
                         "(SOC_USB_SERIAL_JTAG_SUPPORTED) default "
                         "ESP_CONSOLE_SECONDARY_USB_SERIAL_JTAG, which sets it y")},
}

# Macros that conditions name but nothing defines in the configuration read here, and
# why each is false (0) on both chips' stock images.  Prefixes cover families.
UNDEFINED_OK = {
    # Options of other ports or boards, or of features the port leaves off.
    "MICROPY_": "a MicroPython option the ESP32 port and these boards leave undefined",
    "MP_": "a py/ object-model macro (py/obj.h etc., left empty here) only tested for "
           "alternatives the ESP32 port does not select",
    "CONFIG_IDF_TARGET_": "another chip",
    # any other CONFIG_ left undefined is checked against ESP-IDF's Kconfig: kconfig_off()
    "SOC_": "a capability ESP-IDF's soc_caps.h does not give this chip",
    "ESP_PLATFORM": None,
    "__": "a compiler-defined macro",
    "ESP32_": "an IDF target macro of another chip",
    "NDEBUG": "assertions: MicroPython's -DNDEBUG is not part of the API",
    "LWIP_": "an lwIP option (lib/lwip, not read here); it adds no name to these modules",
    "CYW43_": "the cyw43 WiFi driver of other ports",
    "USE_": "an option of other ports",
    "ADC_CALI_SCHEME_": "an ADC calibration scheme ESP-IDF's adc_cali_schemes.h does not "
                        "give this chip",
    "WIFI_MODE_": "enum constants of esp_wifi_types.h, 0 to the preprocessor in the real "
                  "build too (network_wlan.c's check of their values)",
    "MBEDTLS_": "mbedtls's version, read by hashlib and tls, none of these modules",
}
# ESP_PLATFORM is defined (1) by ESP-IDF's build for every chip.
DEFINED_BY_BUILD = {"ESP_PLATFORM": "1"}


def git(gitdir, *args, binary=False):
    out = subprocess.run(["git", "--git-dir", str(gitdir), *args], check=True,
                         capture_output=True)
    return out.stdout if binary else out.stdout.decode()


def extract(gitdir, tag, paths, dest: Path):
    data = git(gitdir, "archive", "--format=tar", tag, *paths, binary=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data") if sys.version_info >= (3, 12) else tar.extractall(dest)


# ---------------------------------------------------------------------------------------
# Configuration of one board

def sdkconfig_files(port: Path, board: str, variant_cmake: str | None) -> list[Path]:
    """The board's SDKCONFIG_DEFAULTS, in order (and its variant's)."""
    files = []
    sources = [port / "boards" / board / "mpconfigboard.cmake"]
    if variant_cmake:
        sources.append(port / "boards" / board / variant_cmake)
    for cmake in sources:
        text = cmake.read_text()
        m = re.search(r"set\(SDKCONFIG_DEFAULTS(.*?)\)", text, re.S)
        if not m:
            continue
        for word in m.group(1).split():
            if word.startswith("${"):
                continue
            files.append(port / word)
    return files


def read_sdkconfig(files: list[Path]) -> dict:
    values = {}
    for path in files:
        for line in path.read_text().splitlines():
            line = line.strip()
            if line.startswith("#") or "=" not in line:
                continue
            key, _, value = line.partition("=")
            values[key] = value
    return values


def kconfig_cpu_default(idf: Path, chip: str) -> int:
    """ESP-IDF's default CPU clock for the chip (Kconfig.cpu: the unconditional default)."""
    text = (idf / "components/esp_system/port/soc" / chip / "Kconfig.cpu").read_text()
    choice = text.split("choice ESP_DEFAULT_CPU_FREQ_MHZ", 1)[1].split("endchoice", 1)[0]
    for line in choice.splitlines():
        m = re.match(r"\s*default ESP_DEFAULT_CPU_FREQ_MHZ_(\d+)\s*$", line)
        if m:
            return int(m.group(1))
    raise SystemExit("no default CPU clock in Kconfig.cpu for %s" % chip)


def cpu_mhz(idf: Path, chip: str, sdk: dict) -> int:
    if sdk.get("CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ"):
        return int(sdk["CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ"])
    return kconfig_cpu_default(idf, chip)


def soc_kconfig(idf: Path, chip: str) -> dict:
    """CONFIG_SOC_* as ESP-IDF's Kconfig.soc_caps.in gives them (bool y / int / hex)."""
    text = (idf / "components/soc" / chip / "include/soc/Kconfig.soc_caps.in").read_text()
    values = {}
    name = kind = None
    for line in text.splitlines():
        m = re.match(r"\s*config (\w+)", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"\s*(bool|int|hex|string)\s*$", line)
        if m:
            kind = m.group(1)
            continue
        m = re.match(r"\s*default (.+)$", line)
        if m and name:
            value = m.group(1).strip()
            if kind == "bool":
                if value == "y":
                    values["CONFIG_" + name] = "1"
            else:
                values["CONFIG_" + name] = value
            name = None
    return values


def kconfig_off(idf_git, idf_tag, name: str):
    """Why an ESP-IDF option no sdkconfig file sets is off, or None if its Kconfig
    default may be on (then it belongs in KCONFIG_DEFAULTS)."""
    option = name[len("CONFIG_"):]
    proc = subprocess.run(["git", "--git-dir", str(idf_git), "grep", "-n", "-A12", "-E",
                           r"^\s*(menu)?config %s\s*$" % option, idf_tag, "--", "*Kconfig*"],
                          capture_output=True, text=True)
    if not proc.stdout.strip():
        return "no such option in ESP-IDF %s" % idf_tag
    defaults = []
    for line in proc.stdout.splitlines()[1:]:
        body = line.split("-", 2)[-1] if "-" in line else line
        if re.match(r".*:\d+:\s*(menu)?config ", line) or \
                re.match(r"\s*(config|menu|choice|endchoice|endmenu)\b", body):
            break
        m = re.match(r"\s*default\s+(.*)$", body)
        if m:
            defaults.append(m.group(1).strip())
    if all(d.split()[0] in ("n", '"n"') for d in defaults):
        return "ESP-IDF Kconfig default n" if defaults else "ESP-IDF Kconfig: no default (n)"
    return None


def write_sdkconfig_h(path: Path, chip: str, sdk: dict, soc: dict, mhz: int):
    lines = ["// generated by tests/host/gen_port_api.py",
             "#define CONFIG_IDF_TARGET \"%s\"" % chip,
             "#define CONFIG_IDF_TARGET_%s 1" % chip.upper(),
             "#define CONFIG_IDF_TARGET_ARCH_%s 1" % ARCH[chip].upper(),
             "#define CONFIG_IDF_TARGET_ARCH \"%s\"" % ARCH[chip],
             "#define CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ %d" % mhz]
    for key, value in sorted(soc.items()):
        lines.append("#define %s %s" % (key, value))
    for key, (value, _where) in sorted(KCONFIG_DEFAULTS.get(chip, {}).items()):
        if key not in sdk:
            lines.append("#define %s %s" % (key, value))
    for key, value in sdk.items():
        if key in ("CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ",):
            continue
        if value == "y":
            lines.append("#define %s 1" % key)
        elif value in ("", "n"):
            lines.append("#undef %s" % key)
        else:
            lines.append("#define %s %s" % (key, value))
    path.write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------
# Preprocessing

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def make_stubs(mp: Path, idf_inc: list[Path], stubs: Path, sources: list[Path]):
    """Empty headers for every include that is not in the trees read here; py/ headers
    (but py/mpconfig.h) empty too, so that the table macros are left as written."""
    real = [mp / "ports/esp32", mp, *idf_inc]
    seen = set()
    todo = list(sources) + [mp / "py/mpconfig.h", mp / "ports/esp32/mpconfigport.h"]
    while todo:
        path = todo.pop()
        if path.parent.name == "soc" and path.name.endswith("_caps.h"):
            real.append(path.parent)
        if path in seen or not path.exists():
            continue
        seen.add(path)
        for name in INCLUDE.findall(path.read_text(errors="replace")):
            if name.startswith("py/") and name != "py/mpconfig.h":
                # the object model's headers give the configuration and nothing else
                target = stubs / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text('#include "py/mpconfig.h"\n')
                continue
            found = [d / name for d in [path.parent, *real] if (d / name).is_file()]
            if found:
                todo.append(found[0])
            else:
                target = stubs / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.touch()


UNDEF_WARNING = re.compile(r'^(.*?):(\d+):\d+: warning: "(\w+)" is not defined, evaluates to 0')


def preprocess(source: Path, mp: Path, board_dir: Path, build: Path, idf_inc: list[Path]):
    stubs = build / "stubs"
    cmd = ["gcc", "-E", "-Wundef", "-DESP_PLATFORM=1", "-include", str(build / "sdkconfig.h"),
           "-include", "esp_idf_version.h", "-include", "soc/soc_caps.h",
           "-include", "adc_cali_schemes.h",
           "-I", str(stubs), "-I", str(board_dir), "-I", str(mp / "ports/esp32"), "-I", str(mp)]
    for d in idf_inc:
        cmd += ["-I", str(d)]
    cmd += ["-I", str(build / "stubs-late"), str(source)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    undefined = []
    for line in proc.stderr.splitlines():
        m = UNDEF_WARNING.match(line)
        if m:
            undefined.append((m.group(3), m.group(1), int(m.group(2))))
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    return proc.stdout, undefined, errors


# ---------------------------------------------------------------------------------------
# Reading the preprocessed text

LINEMARK = re.compile(r'^# (\d+) "([^"]+)"')


class Unit:
    """One preprocessed translation unit: its text and where each line came from."""

    def __init__(self, text: str, mp: Path, name: str):
        self.name = name
        out, where = [], []
        file, line = name, 1
        for raw in text.splitlines():
            m = LINEMARK.match(raw)
            if m:
                line, file = int(m.group(1)), m.group(2)
                continue
            out.append(raw)
            rel = file
            if rel.startswith(str(mp) + "/"):
                rel = rel[len(str(mp)) + 1:]
            where.append((rel, line))
            line += 1
        self.lines = out
        self.where = where
        self.text = "\n".join(out)
        starts, pos = [], 0
        for raw in out:
            starts.append(pos)
            pos += len(raw) + 1
        self.starts = starts
        self.functions = self._functions()

    def at(self, offset: int) -> str:
        import bisect

        i = bisect.bisect_right(self.starts, offset) - 1
        file, line = self.where[i]
        return "%s:%d" % (file, line)

    def _functions(self) -> dict:
        """name -> (body text, offset) of every function defined in the unit."""
        found = {}
        for m in re.finditer(r"^[A-Za-z_][\w \t\*]*?\b(\w+)\s*"
                             r"\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*\{",
                             self.text, re.M):
            name = m.group(1)
            if name in ("if", "while", "for", "switch", "return", "sizeof"):
                continue
            start = m.end() - 1
            end = match_brace(self.text, start)
            found[name] = (self.text[start:end], m.start())
        return found


def match_brace(text: str, start: int) -> int:
    depth = 0
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "'":
            i += 1
            while i < n and text[i] != "'":
                i += 2 if text[i] == "\\" else 1
        i += 1
    return n


def split_top(text: str) -> list[str]:
    """Split at commas outside parentheses and braces."""
    parts, depth, cur = [], 0, []
    for c in text:
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def macro_calls(text: str, name: str):
    """(args, offset) of every NAME( ... ) in text."""
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
        start = m.end() - 1
        depth, i = 0, start
        while i < len(text):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        yield split_top(text[start + 1:i]), m.start()


def c_int(expr: str):
    """The value of an integer constant expression, or None."""
    e = expr.strip()
    e = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", e)
    e = re.sub(r"\((?:u?int\d*_t|size_t|mp_int_t|mp_uint_t|unsigned|int)\)", "", e)
    if not re.fullmatch(r"[\d\s\+\-\*/\(\)<>x]+", e):
        return None
    try:
        return int(eval(e.replace("/", "//"), {"__builtins__": {}}))
    except Exception:
        return None


ROM_ENTRY = re.compile(r"\{\s*MP_ROM_QSTR\(MP_QSTR_(\w+)\)\s*,\s*(MP_ROM_\w+)\s*"
                       r"(?:\(((?:[^()]|\([^()]*\))*)\))?\s*\}")


class Source:
    """Every unit of one target, with the symbols they define."""

    def __init__(self, units: list[Unit]):
        self.units = units
        self.tables = {}      # C table name -> [(qstr, kind, value, where)]
        self.dicts = {}       # dict name -> table name
        self.types = {}       # type symbol -> {"name", "slots", "where", "unit"}
        self.funs = {}        # fun obj symbol -> (macro, args, unit, where)
        self.wrapped = {}     # static/classmethod obj -> (kind, fun obj)
        self.modules = {}     # module obj symbol -> globals dict
        self.registered = {}  # python name -> module obj symbol
        self.protocols = {}   # protocol struct symbol -> fields set
        self.arg_tables = {}  # (unit, name) -> entries
        for unit in units:
            self._read(unit)

    def _read(self, unit: Unit):
        text = unit.text
        for m in re.finditer(r"mp_rom_map_elem_t\s+(\w+)\s*\[\s*\]\s*=\s*\{", text):
            end = match_brace(text, m.end() - 1)
            body = text[m.end():end - 1]
            entries = []
            for e in ROM_ENTRY.finditer(body):
                entries.append((e.group(1), e.group(2), (e.group(3) or "").strip(),
                                unit.at(m.end() + e.start())))
            self.tables.setdefault(m.group(1), entries)
        for args, _ in macro_calls(text, "MP_DEFINE_CONST_DICT"):
            self.dicts.setdefault(args[0], args[1])
        for args, off in macro_calls(text, "MP_DEFINE_CONST_OBJ_TYPE"):
            slots = {}
            rest = args[3:]
            for i in range(0, len(rest) - 1, 2):
                slots[rest[i]] = rest[i + 1]
            self.types.setdefault(args[0], {"name": args[1].replace("MP_QSTR_", ""),
                                            "slots": slots, "where": unit.at(off),
                                            "unit": unit})
        for macro in ("MP_DEFINE_CONST_FUN_OBJ_0", "MP_DEFINE_CONST_FUN_OBJ_1",
                      "MP_DEFINE_CONST_FUN_OBJ_2", "MP_DEFINE_CONST_FUN_OBJ_3",
                      "MP_DEFINE_CONST_FUN_OBJ_VAR", "MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN",
                      "MP_DEFINE_CONST_FUN_OBJ_KW"):
            for args, off in macro_calls(text, macro):
                self.funs[(unit.name, args[0])] = (macro, args[1:], unit, unit.at(off))
                self.funs.setdefault(args[0], (macro, args[1:], unit, unit.at(off)))
        for kind in ("STATICMETHOD", "CLASSMETHOD"):
            for args, _ in macro_calls(text, "MP_DEFINE_CONST_%s_OBJ" % kind):
                inner = re.search(r"&(\w+)", args[1])
                if inner:
                    self.wrapped[args[0]] = (kind.lower(), inner.group(1))
        for m in re.finditer(r"const mp_obj_module_t (\w+)\s*=\s*\{", text):
            end = match_brace(text, m.end() - 1)
            g = re.search(r"\.globals\s*=\s*\([^)]*\)\s*&(\w+)", text[m.end():end])
            if g:
                self.modules[m.group(1)] = g.group(1)
        for macro in ("MP_REGISTER_MODULE", "MP_REGISTER_EXTENSIBLE_MODULE"):
            for args, off in macro_calls(text, macro):
                self.registered[args[0].replace("MP_QSTR_", "")] = (args[1], unit.at(off))
        for m in re.finditer(r"const mp_machine_\w+_p_t (\w+)\s*=\s*\{", text):
            end = match_brace(text, m.end() - 1)
            fields = set(re.findall(r"\.(\w+)\s*=", text[m.end():end]))
            self.protocols[m.group(1)] = fields
        for m in re.finditer(r"\bmp_arg_t\s+(\w+)\s*\[\s*\]\s*=\s*\{", text):
            end = match_brace(text, m.end() - 1)
            body = text[m.end():end - 1]
            entries = []
            # MP_QSTR_ with no name: an argument taken by position only (WLAN.connect's
            # ssid and key)
            for e in re.finditer(r"\{\s*MP_QSTR_(\w*)\s*,\s*([^,{}]+)", body):
                flags = e.group(2)
                entries.append({"name": e.group(1), "required": "MP_ARG_REQUIRED" in flags,
                                "kwonly": "MP_ARG_KW_ONLY" in flags})
            self.arg_tables[(unit.name, m.start(), m.group(1))] = entries

    # -- arguments -------------------------------------------------------------------

    def table_in(self, unit: Unit, name: str, body_offset: int, body_end: int):
        """The mp_arg_t table `name` visible at a function: its own, else the file's."""
        best = None
        for (uname, off, tname), entries in self.arg_tables.items():
            if uname != unit.name or tname != name:
                continue
            if body_offset <= off < body_end:
                return entries
            if off < body_offset:
                best = entries
        return best

    def parsed(self, unit: Unit, fname: str, depth: int = 0):
        """(positional consumed before the table, table entries) for a C function, from
        its mp_arg_parse_all* call or the helper it passes its arguments to."""
        if fname not in unit.functions or depth > 3:
            return None
        body, off = unit.functions[fname]
        off_body = unit.text.index(body, off)
        for macro in ("mp_arg_parse_all", "mp_arg_parse_all_kw_array"):
            for args, _ in macro_calls(body, macro):
                if len(args) < 5:
                    continue
                table = args[4] if macro == "mp_arg_parse_all" else args[4]
                table = table.strip()
                entries = self.table_in(unit, table, off_body, off_body + len(body))
                if entries is None:
                    continue
                skip = 0
                m = re.search(r"-\s*(\d+)", args[0])
                if m:
                    skip = int(m.group(1))
                return skip, entries
        for m in re.finditer(r"\b(\w+)\s*\(([^;]*?)\);", body):
            callee = m.group(1)
            if callee == fname or callee not in unit.functions:
                continue
            inner = self.parsed(unit, callee, depth + 1)
            if inner is None:
                continue
            skip = 0
            k = re.search(r"\bn_\w*args\s*-\s*(\d+)", m.group(2))
            if k:
                skip = int(k.group(1))
            return skip + inner[0], inner[1]
        return None

    def signature(self, fun: str, self_arg: bool, unit_hint: str | None = None) -> dict:
        """What a Python call may pass to the function object `fun` (self excluded)."""
        rec = self.funs.get((unit_hint, fun)) or self.funs.get(fun)
        if rec is None:
            return {"checked": False, "why": "defined outside the files read (%s)" % fun}
        macro, args, unit, where = rec
        cfun = args[-1].strip()
        sig = {"where": where}
        if macro.endswith(("_0", "_1", "_2", "_3")):
            n = int(macro[-1])
            sig.update(min=n, max=n, kw=[])
        elif macro.endswith("_VAR_BETWEEN"):
            lo, hi = c_int(args[0]), c_int(args[1])
            sig.update(min=lo, max=hi, kw=[])
        elif macro.endswith("_VAR"):
            sig.update(min=c_int(args[0]), max=None, kw=[])
        else:  # _KW
            sig.update(min=c_int(args[0]), max=None, kw=None)
            p = self.parsed(unit, cfun)
            if p is not None:
                skip, entries = p
                pos = [e for e in entries if not e["kwonly"]]
                sig["max"] = skip + len(pos)
                sig["kw"] = [e["name"] for e in entries if e["name"]]
                sig["pos"] = [None] * skip + [e["name"] or None for e in pos]
                sig["required"] = [e["name"] for e in entries if e["required"]]
        if self_arg:
            for key in ("min", "max"):
                if sig.get(key) is not None:
                    sig[key] = max(0, sig[key] - 1)
            if "pos" in sig:
                sig["pos"] = sig["pos"][1:]
        limit = self.buffer_limit(unit, cfun)
        if limit is not None:
            sig["max_bytes"] = limit
        return sig

    def buffer_limit(self, unit: Unit, cfun: str):
        if cfun not in unit.functions:
            return None
        body = unit.functions[cfun][0]
        m = re.search(r"if\s*\(\s*\w+\.len\s*>\s*((?:[^()]|\([^()]*\))+)\)\s*\{?\s*mp_raise", body)
        return c_int(m.group(1)) if m else None

    def constructor(self, tsym: str) -> dict:
        info = self.types[tsym]
        unit = info["unit"]
        cfun = info["slots"].get("make_new")
        if cfun is None:
            return {"callable": False}
        cfun = cfun.strip()
        sig = {"where": unit.at(unit.functions[cfun][1]) if cfun in unit.functions else None}
        if cfun not in unit.functions:
            sig.update(checked=False, why="make_new %s outside the files read" % cfun)
            return sig
        body = unit.functions[cfun][0]
        check = list(macro_calls(body, "mp_arg_check_num"))
        p = self.parsed(unit, cfun)
        if check:
            args = check[0][0]
            sig["min"] = c_int(args[2])
            sig["max"] = c_int(args[3])      # None: MP_OBJ_FUN_ARGS_MAX
            sig["kw"] = None if args[4].strip() == "true" else []
        if p is not None:
            skip, entries = p
            pos = [e for e in entries if not e["kwonly"]]
            if not check:
                sig["min"] = len([e for e in pos if e["required"]])
            if sig.get("max") is None:
                sig["max"] = skip + len(pos)
            if sig.get("kw", None) is None:
                sig["kw"] = [e["name"] for e in entries if e["name"]]
            sig["pos"] = [None] * skip + [e["name"] or None for e in pos]
        elif not check:
            sig.update(checked=False, why="no argument parsing found in %s" % cfun)
        # an id refused by range: `uint32_t n = mp_obj_get_int(args[0]); if (n >= N)`
        m = re.search(r"(\w+)\s+(\w+)\s*=\s*mp_obj_get_int\(\s*args\[0\]\s*\);", body)
        if m:
            var = m.group(2)
            r = re.search(r"if\s*\(\s*%s\s*>=\s*((?:[^()]|\([^()]*\))+)\)\s*\{?\s*mp_raise" % var,
                          body)
            if r and c_int(r.group(1)) is not None:
                unsigned = m.group(1).startswith(("uint", "mp_uint", "size_t", "unsigned"))
                sig["arg0_range"] = [0 if unsigned else None, c_int(r.group(1)) - 1]
        return sig

    def protocol_needs(self, unit: Unit, cfun: str):
        """The protocol operation a method raises "not supported" without, or None."""
        if cfun not in unit.functions:
            return None
        body = unit.functions[cfun][0]
        m = re.search(r"if\s*\(\s*\w+->(\w+)\s*==\s*NULL\s*\)\s*\{\s*"
                      r"mp_raise_msg\([^;]*not supported",
                      body)
        return m.group(1) if m else None


def rom_ref(value: str):
    m = re.fullmatch(r"&\s*(\w+)", value.strip())
    return m.group(1) if m else None


# Types no module table names but a method returns: (the path they get, the C type).
RETURNED_TYPES = [
    # ports/esp32/machine_pin.c machine_pin_irq: returns the pin's IRQ object
    ("machine.Pin.irq()", "machine_pin_irq_type"),
]


def build_api(src: Source, undefined_ok) -> dict:
    classes = {}
    modules = {}

    def table_of(dict_sym):
        return src.tables.get(src.dicts.get(dict_sym, ""), [])

    def class_api(tsym, path):
        if path in classes:
            return
        info = src.types[tsym]
        entry = {"c": tsym, "where": info["where"], "names": {}}
        classes[path] = entry
        slots = info["slots"]
        proto = slots.get("protocol")
        proto_fields = src.protocols.get(rom_ref(proto) or "", None) if proto else None
        chain = []
        t = tsym
        while t in src.types and len(chain) < 5:
            chain.append(t)
            parent = src.types[t]["slots"].get("parent")
            t = rom_ref(parent) if parent else None
        for t in reversed(chain):
            ld = src.types[t]["slots"].get("locals_dict")
            if not ld:
                continue
            for name, kind, value, where in table_of(rom_ref(ld) or ld):
                entry["names"][name] = describe(name, kind, value, where, path, method=True,
                                                unit=src.types[t]["unit"],
                                                proto_fields=proto_fields)
        entry["new"] = src.constructor(tsym)

    def describe(name, kind, value, where, owner, method, unit, proto_fields=None):
        if kind != "MP_ROM_PTR":
            return {"kind": "const", "where": where}
        ref = rom_ref(value)
        if ref in src.types:
            path = owner + "." + name
            class_api(ref, path)
            return {"kind": "class", "class": path, "where": where}
        if ref in src.wrapped:
            how, fun = src.wrapped[ref]
            sig = src.signature(fun, self_arg=(how == "classmethod"), unit_hint=unit.name)
            return {"kind": how, "sig": sig, "where": where}
        rec = src.funs.get((unit.name, ref)) or src.funs.get(ref)
        if rec is not None:
            d = {"kind": "method" if method else "function",
                 "sig": src.signature(ref, self_arg=method, unit_hint=rec[2].name),
                 "where": where}
            if proto_fields is not None:
                need = src.protocol_needs(rec[2], rec[1][-1].strip())
                if need and need not in proto_fields:
                    d["refused"] = ("raises OSError 'I2C operation not supported': this "
                                    "class's protocol has no %s" % need)
            return d
        if ref and ref.startswith(("mp_stream_", "mp_identity")):
            return {"kind": "method" if method else "function",
                    "sig": {"checked": False, "why": "py/stream.c (%s)" % ref}, "where": where}
        return {"kind": "object", "c": ref or value, "where": where}

    for pyname in MODULES:
        if pyname not in src.registered:
            continue
        msym, where = src.registered[pyname]
        gdict = src.modules.get(msym)
        entry = {"where": where, "names": {}}
        modules[pyname] = entry
        for name, kind, value, w in table_of(gdict):
            if name == "__name__":
                continue
            unit = next((u for u in src.units if w.split(":")[0].endswith(u.name)), src.units[0])
            entry["names"][name] = describe(name, kind, value, w, pyname, method=False,
                                            unit=unit)
    for path, tsym in RETURNED_TYPES:
        if tsym in src.types:
            class_api(tsym, path)
    # drop the refused names from the class tables, keeping them listed apart
    for entry in classes.values():
        refused = {n: d for n, d in entry["names"].items() if d.get("refused")}
        for n in refused:
            del entry["names"][n]
        if refused:
            entry["refused"] = {n: d["refused"] for n, d in refused.items()}
    return {"modules": modules, "classes": classes}


def generate(mp_git, idf_git, tag, idf_tag) -> dict:
    mp_commit = git(mp_git, "rev-parse", tag + "^{commit}").strip()
    idf_commit = git(idf_git, "rev-parse", idf_tag + "^{commit}").strip()
    result = {
        "generator": "tests/host/gen_port_api.py",
        "micropython": {"tag": tag, "commit": mp_commit},
        "esp-idf": {"tag": idf_tag, "commit": idf_commit},
        "modules": list(MODULES),
        "targets": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        mp = tmp / "mp"
        idf = tmp / "idf"
        mp.mkdir()
        idf.mkdir()
        extract(mp_git, tag, ["py", "extmod", "ports/esp32", "shared"], mp)
        ci = git(mp_git, "show", "%s:tools/ci.sh" % tag)
        m = re.search(r"^IDF_VER=(\S+)", ci, re.M)
        result["esp-idf"]["micropython_ci_builds_with"] = m.group(1) if m else None
        chips = sorted({t["chip"] for t in TARGETS.values()})
        paths = ["components/esp_common/include/esp_idf_version.h"]
        for chip in chips:
            caps = [f for f in git(idf_git, "ls-tree", "--name-only", idf_tag,
                                   "components/soc/%s/include/soc/" % chip).split()
                    if f.endswith("_caps.h")]
            paths += caps + ["components/esp_adc/%s/include/adc_cali_schemes.h" % chip,
                      "components/soc/%s/include/soc/Kconfig.soc_caps.in" % chip,
                      "components/esp_system/port/soc/%s/Kconfig.cpu" % chip]
        extract(idf_git, idf_tag, paths, idf)
        sources = sorted((mp / "ports/esp32").glob("*.c")) + sorted((mp / "extmod").glob("*.c"))
        sources.append(mp / "py/modmicropython.c")
        for key, target in TARGETS.items():
            chip, board = target["chip"], target["board"]
            build = tmp / ("build-" + key)
            (build / "stubs").mkdir(parents=True)
            (build / "stubs-late").mkdir()
            # soc/soc_caps.h is read from ESP-IDF (its directory first); everything else
            # of ESP-IDF is empty.
            socinc = build / "socinc"
            (socinc / "soc").mkdir(parents=True)
            for caps in (idf / "components/soc" / chip / "include/soc").glob("*_caps.h"):
                (socinc / "soc" / caps.name).write_text(caps.read_text())
            # ESP-IDF's headers read as they are: the version, the chip's capabilities
            # and its ADC calibration schemes; everything else of ESP-IDF is empty.
            idf_inc = [socinc, idf / "components/esp_common/include",
                       idf / "components/esp_adc" / chip / "include"]
            files = sdkconfig_files(mp / "ports/esp32", board, None)
            sdk = read_sdkconfig(files)
            mhz = cpu_mhz(idf, chip, sdk)
            write_sdkconfig_h(build / "sdkconfig.h", chip, sdk, soc_kconfig(idf, chip), mhz)
            make_stubs(mp, idf_inc, build / "stubs", sources + [
                socinc / "soc/soc_caps.h", idf_inc[2] / "adc_cali_schemes.h"])
            # the py/ headers are empty: keep soc_caps' and esp_idf_version's own includes
            for stub in (build / "stubs").rglob("*.h"):
                rel = stub.relative_to(build / "stubs")
                if any((d / rel).is_file() for d in idf_inc):
                    stub.unlink()
            units, undefined, errors = [], {}, {}
            board_dir = mp / "ports/esp32/boards" / board
            for source in sources:
                text, undef, errs = preprocess(source, mp, board_dir, build, idf_inc)
                rel = str(source.relative_to(mp))
                units.append(Unit(text, mp, rel))
                for name, file, line in undef:
                    undefined.setdefault(name, set()).add(file.replace(str(mp) + "/", ""))
                if errs:
                    errors[rel] = errs[:3]
            if errors:
                raise SystemExit("%s: the preprocessor failed: %s" % (key, errors))
            # a macro that only the emptied py/ headers define would be decided wrongly
            emptied = set()
            for header in (mp / "py").glob("*.h"):
                if header.name != "mpconfig.h":
                    emptied |= set(re.findall(r"^\s*#\s*define\s+(\w+)", header.read_text(),
                                              re.M))
            wrong = sorted(set(undefined) & emptied)
            if wrong:
                raise SystemExit("%s: conditions on macros of the emptied py/ headers: %s"
                                 % (key, ", ".join(wrong)))
            kconfig_off_why = {}
            for n in undefined:
                if n.startswith("CONFIG_") and not n.startswith("CONFIG_IDF_TARGET_"):
                    why = kconfig_off(idf_git, idf_tag, n)
                    if why:
                        kconfig_off_why[n] = why
            unexplained = sorted(n for n in undefined if n not in kconfig_off_why and
                                 not any(n.startswith(p) for p in UNDEFINED_OK))
            if unexplained:
                raise SystemExit("%s: conditions name macros defined nowhere: %s"
                                 % (key, ", ".join(unexplained)))
            src = Source(units)
            api = build_api(src, UNDEFINED_OK)
            missing = [m for m in MODULES if m not in api["modules"]]
            variants = {}
            for variant, cmake in target.get("variants", {}).items():
                vsdk = read_sdkconfig(sdkconfig_files(mp / "ports/esp32", board, cmake))
                variants[variant] = {
                    "cpu_mhz": cpu_mhz(idf, chip, vsdk),
                    "sdkconfig": [str(p.relative_to(mp)) for p in
                                  sdkconfig_files(mp / "ports/esp32", board, cmake)]}
            result["targets"][key] = {
                "board": board, "chip": chip, "cpu_mhz": mhz,
                "sdkconfig": [str(p.relative_to(mp)) for p in files],
                "variants": variants,
                "modules_absent": missing,
                "preprocessor_errors": errors,
                "conditions_on_undefined_macros": sorted(undefined),
                "kconfig_off": kconfig_off_why,
                **api,
            }
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--micropython", required=True, help="git dir of micropython/micropython")
    ap.add_argument("--esp-idf", required=True, help="git dir of espressif/esp-idf")
    ap.add_argument("--tag", default="v1.26.0")
    ap.add_argument("--idf-tag", default="v5.4.2")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    data = generate(args.micropython, args.esp_idf, args.tag, args.idf_tag)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    for key, t in data["targets"].items():
        print("%s (%s, %d MHz): %s; %d classes" % (
            key, t["board"], t["cpu_mhz"],
            ", ".join("%s %d" % (m, len(e["names"])) for m, e in t["modules"].items()),
            len(t["classes"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
