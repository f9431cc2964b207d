"""The simulated device: the real firmware under the real `micropython` with the
fakes, supervised (restarted after a reset, a watchdog bite, a crash or a
power cut), and its outputs mirrored here through the channel (docs/simulator.md).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

from host_tools import resources
from host_tools.sim.linkpty import LinkPort

# What the simulator runs, where the host tools carry it (an installed wheel or a
# checkout alike): host_tools/resources.py.
FIRMWARE = resources.firmware_dir()
FAKES = resources.fakes_dir()
SAMPLE_WORDS = resources.sim_file("data/sample-en.txt")

PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5
CAUSE_NAMES = {PWRON_RESET: "power on", HARD_RESET: "hard reset", WDT_RESET: "watchdog",
               DEEPSLEEP_RESET: "deep sleep", SOFT_RESET: "reset"}
PANELS = ("left", "right", "terminal")
BUTTONS = ("left", "right", "pause", "challenge")
LEDS = ("left", "right", "status")


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sim_ssd1306 = _load("tileclock_sim_ssd1306", FAKES / "sim_ssd1306.py")
hwconfig = _load("tileclock_sim_hwconfig", FIRMWARE / "hwconfig.py")


def micropython_command() -> list[str]:
    """How to start the `micropython` interpreter: the command beside this Python (a
    virtual environment's bin/), else the one on PATH, else the pinned package's module
    run by this Python (its command may be in a folder not on PATH: pip install --user)."""
    candidate = Path(sys.executable).parent / "micropython"
    if candidate.exists():
        return [str(candidate)]
    found = shutil.which("micropython")
    if found:
        return [found]
    if importlib.util.find_spec("micropython_unix") is not None:
        return [sys.executable, "-m", "micropython_unix"]
    raise FileNotFoundError("the `micropython` interpreter is not installed "
                            "(pip install tileclock installs it; in a checkout "
                            "python3 -m tests installs it into .venv)")


def driver_dirs(log=print) -> list[str]:
    """Folders holding the published drivers (ssd1306) for MICROPYPATH."""
    try:
        from host_tools import drivers
    except ImportError:
        return []
    dirs = []
    for name in getattr(drivers, "DRIVERS", {}):
        try:
            # the folder the module path is under ("umqtt/simple": two levels up)
            dirs.append(str(Path(drivers.driver_path(name)).parents[name.count("/")]))
        except Exception as exc:  # offline: the panels stay dark, the rest works
            log("driver %s unavailable: %s" % (name, exc))
    return sorted(set(dirs))


def build_sample_lexicon(target: Path, log=print) -> bool:
    """Pack the sample word list into `target` with wordlist_packer."""
    import wordlist_packer

    cmd = [sys.executable, "-m", "wordlist_packer", "build", str(SAMPLE_WORDS),
           "--language", "en", "-o", str(target), "--quiet"]
    # the packer this process imports (installed or a checkout's), from any folder
    env = dict(os.environ)
    root = str(Path(wordlist_packer.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([root] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH")
                                                  else []))
    result = subprocess.run(cmd, cwd=str(target.parent), env=env, capture_output=True,
                            text=True)
    if result.returncode != 0:
        log("could not pack the sample word list: " + (result.stderr or result.stdout)[-500:])
        return False
    return True


# The simulator holding a device folder (an advisory lock with its process id).
LOCK_FILE = ".sim-lock"


class FolderInUse(RuntimeError):
    pass


def lock_device_dir(device_dir: Path):
    """Hold `device_dir` for this simulator until the returned file is closed (or the
    process ends); FolderInUse if another simulator holds it."""
    import fcntl

    device_dir.mkdir(parents=True, exist_ok=True)
    held = open(device_dir / LOCK_FILE, "a+")
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        held.seek(0)
        holder = held.read().strip()
        held.close()
        raise FolderInUse("the device folder %s is in use by another simulator%s; give each "
                          "simulator a folder of its own (--device-dir DIR)"
                          % (device_dir, " (process %s)" % holder if holder.isdigit() else ""))
    held.seek(0)
    held.truncate()
    held.write("%d\n" % os.getpid())
    held.flush()
    return held


def empty_device_dir(device_dir: Path) -> None:
    """A factory-fresh device (--fresh): everything in its folder goes but the lock."""
    for child in device_dir.iterdir():
        if child.name == LOCK_FILE:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def prepare_device_dir(device_dir: Path, lexicon: Path | None = None, log=print) -> None:
    device_dir.mkdir(parents=True, exist_ok=True)
    target = device_dir / "lexicon.dawg"
    if lexicon is not None:
        shutil.copyfile(lexicon, target)
    elif not target.exists():
        build_sample_lexicon(target, log)


def preset_names() -> tuple:
    """The firmware's built-in presets (clock/presets.py, read as data: the module itself
    needs MicroPython's `const`)."""
    import ast

    tree = ast.parse((FIRMWARE / "clock" / "presets.py").read_text())
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "PRESET_NAMES"):
            return tuple(ast.literal_eval(node.value))
    raise LookupError("PRESET_NAMES not found in clock/presets.py")


def configure_preset(device_dir: Path, name: str) -> None:
    """Set the preset in the device's config.json, as `clockctl config preset=NAME` would:
    a game in progress keeps its own; the next game (or a fresh clock) has this one."""
    configure(device_dir, {"preset": name})


def configure(device_dir: Path, values: dict) -> None:
    """Set settings in the device's config.json before it starts (the firmware checks
    them as it reads the file: store/config_check.py)."""
    import json

    if "preset" in values and values["preset"] not in preset_names():
        raise ValueError("no preset %r (one of %s)" % (values["preset"],
                                                       ", ".join(preset_names())))
    path = device_dir / "config.json"
    config = {}
    if path.exists():
        try:
            config = json.loads(path.read_text())
        except ValueError:
            config = {}
        if not isinstance(config, dict):
            config = {}
    config.update(values)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(config))
    tmp.replace(path)


class Panel:
    def __init__(self):
        self.model = sim_ssd1306.SSD1306Panel()
        self.frames = 0
        self._cache: tuple[int, dict] | None = None

    def snapshot(self) -> dict:
        if self._cache and self._cache[0] == self.frames:
            return self._cache[1]
        m = self.model
        rows = []
        for y in range(m.height):
            bits = 0
            for x in range(m.width):
                bits = (bits << 1) | m.pixel(x, y)
            rows.append("%032x" % bits)
        snap = {"on": bool(m.display_on), "contrast": m.contrast, "inverted": bool(m.inverted),
                "frames": self.frames, "rows": rows}
        self._cache = (self.frames, snap)
        return snap


def _sigint_ignored() -> None:
    """In the firmware's process before it starts: SIGINT ignored (the interpreter then
    installs no handler of its own; MicroPython's kbd_intr sets it as the chip's does)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class SimDevice:
    """Runs and supervises the firmware; thread-safe state for the web page."""

    def __init__(self, device_dir: Path, main: Path | None = None, heapsize: str | None = None,
                 battery_mv: int = 3900, restart_delay: float = 0.5, log=None,
                 link_alias: Path | None = None):
        self.device_dir = Path(device_dir)
        self.main = Path(main) if main else FIRMWARE / "main.py"
        self.heapsize = heapsize
        self.battery_mv = battery_mv
        self.restart_delay = restart_delay
        self.log_lines: deque[str] = deque(maxlen=400)
        self._log = log
        self.lock = threading.Condition()
        self.version = 0
        self.panels = {name: Panel() for name in PANELS}
        self.pins: dict[int, int] = {}
        self.pwm: dict[int, tuple[int, int]] = {}
        self.boots = 0
        self.resets: list[dict] = []
        self.status = "stopped"
        self.cause = PWRON_RESET
        self.wdt_timeout = 0
        self.buttons_down: set[str] = set()
        self.keys_down: set[str] = set()
        self.proc: subprocess.Popen | None = None
        self.conn: socket.socket | None = None
        self._send_lock = threading.Lock()
        self._stop = threading.Event()
        self._power_cut = threading.Event()
        self._wake = threading.Event()
        self.wifi_up = True                 # the simulated access point (set_wifi)
        self.sleep_pin: int | None = None   # asleep (machine.deepsleep): the ext0 wake GPIO
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(4)
        self._server.settimeout(0.2)      # the accepting thread looks at _stop in between
        self._spawning = threading.Lock()
        self.channel_port = self._server.getsockname()[1]
        self._supervisor: threading.Thread | None = None
        self._extra_path = driver_dirs(self.say)
        # The clock's USB serial port: one pty for the simulator's life (docs/simulator.md).
        self.link = LinkPort(log=self.say, alias=link_alias)

    # -- logging -------------------------------------------------------------

    def say(self, text: str) -> None:
        for line in text.rstrip("\n").split("\n"):
            self.log_lines.append(line)
            if self._log:
                self._log(line)

    def _changed(self) -> None:
        with self.lock:
            self.version += 1
            self.lock.notify_all()

    # -- process -------------------------------------------------------------

    def micropython_path(self) -> str:
        entries = [str(FIRMWARE), str(FAKES), *self._extra_path, ".frozen"]
        return ":".join(entries)

    def _spawn(self) -> subprocess.Popen:
        env = dict(os.environ)
        env.update({
            "MICROPYPATH": self.micropython_path(),
            "TILECLOCK_SIM": "1",
            "TILECLOCK_SIM_PORT": str(self.channel_port),
            "TILECLOCK_DEVICE_DIR": str(self.device_dir),
            "TILECLOCK_RESET_CAUSE": str(self.cause),
            "TILECLOCK_SIM_MAIN": str(self.main),
            "TILECLOCK_SIM_BATTERY_MV": str(self.battery_mv),
        })
        # each simulated clock its own chip id (machine.unique_id), from its folder
        import hashlib

        env.setdefault("TILECLOCK_UNIQUE_ID", "240ac4" + hashlib.sha1(
            str(self.device_dir).encode()).hexdigest()[:6])
        cmd = micropython_command()
        if self.heapsize:
            cmd += ["-X", "heapsize=" + self.heapsize]
        # Ctrl-C: off from the start, as on the chip until MicroPython runs boot.py
        # (sim_board.run runs boot.py and main.py as the chip does).  The interpreter's
        # own start-up keeps SIGINT ignored (a 0x03 is data: host_tools/sim/wire.py), and
        # the unix port turns it on for the -c command: off again at its first statement.
        cmd += ["-c", "import micropython; micropython.kbd_intr(-1); "
                      "import sim_board; sim_board.run()"]
        # stdin/stdout: the USB serial port (bridged to self.link, host_tools/sim/linkpty.py);
        # stderr (tracebacks, the reset marker) goes to the console log.
        port_in, port_out = self.link.new_device_ports()
        try:
            proc = subprocess.Popen(cmd, cwd=str(self.device_dir), env=env, stdin=port_in,
                                    stdout=port_out, stderr=subprocess.PIPE,
                                    preexec_fn=_sigint_ignored)
        finally:
            os.close(port_in)
            os.close(port_out)
        self.link.attach_process(proc.pid)
        return proc

    def start(self) -> None:
        self.device_dir.mkdir(parents=True, exist_ok=True)
        self._supervisor = threading.Thread(target=self._supervise, daemon=True)
        self._supervisor.start()

    def stop(self) -> None:
        with self._spawning:
            self._stop.set()
            proc = self.proc
        if proc and proc.poll() is None:
            proc.kill()
            proc.wait()
        try:
            self._server.close()
        except OSError:
            pass
        if self._supervisor:
            self._supervisor.join(timeout=5)
        self.link.close()

    def power_cut(self) -> None:
        """Cut the power: the process dies at once (a sleeping device stays off for a
        moment); it boots again (power on)."""
        self._power_cut.set()
        proc = self.proc
        if proc and proc.poll() is None:
            proc.kill()
        self._wake.set()

    def _sleep_until_woken(self, cause_text: str) -> str:
        """machine.deepsleep() ended the process ("deepsleep GPIO LEVEL"): no process
        until that pin reaches its level (a button press) or the power is cut."""
        parts = cause_text.split()
        pin = int(parts[1]) if len(parts) > 2 else None
        with self.lock:
            self.sleep_pin = pin
            self.status = ("deep sleep: press pause to wake" if pin is not None
                           else "deep sleep (no wake-up source: cut the power)")
        self._changed()
        self._wake.clear()
        held = pin is not None and pin in {self._button_pin(n) for n in self.buttons_down}
        while not held and not self._stop.is_set() and not self._wake.wait(0.2):
            pass
        with self.lock:
            self.sleep_pin = None
        return "power cut" if self._power_cut.is_set() else "woken"

    def _supervise(self) -> None:
        quick_deaths = 0
        while not self._stop.is_set():
            marker = self.device_dir / ".sim-reset"
            if marker.exists():
                marker.unlink()
            self._power_cut.clear()
            with self.lock:
                self.boots += 1
                self.status = "running"
                self.pins.clear()
                self.pwm.clear()
                self.wdt_timeout = 0
                self.keys_down.clear()
                for panel in self.panels.values():
                    panel.model = sim_ssd1306.SSD1306Panel()
                    panel.frames += 1  # a dark panel until the firmware draws
            self.say("-- boot %d (%s)" % (self.boots, CAUSE_NAMES.get(self.cause, self.cause)))
            started = time.monotonic()
            with self._spawning:        # stop() either sees this process or none starts
                if self._stop.is_set():
                    break
                self.proc = proc = self._spawn()
            out = threading.Thread(target=self._pump_stderr, args=(proc,), daemon=True)
            out.start()
            accept = threading.Thread(target=self._accept, args=(proc,), daemon=True)
            accept.start()
            self._changed()
            code = proc.wait()
            out.join(timeout=2)
            if self._stop.is_set():
                break
            cause_text = marker.read_text().strip() if marker.exists() else ""
            if cause_text.startswith("deepsleep") and not self._power_cut.is_set():
                self.say("-- deep sleep")
                with self.lock:
                    self.resets.append({"why": "deep sleep", "code": code, "boot": self.boots})
                woke = self._sleep_until_woken(cause_text)
                if self._stop.is_set():
                    break
                self.cause = DEEPSLEEP_RESET if woke == "woken" else PWRON_RESET
                self.say("-- " + ("woken by the pause switch" if woke == "woken" else woke))
                continue
            if self._power_cut.is_set():
                why, self.cause = "power cut", PWRON_RESET
            elif cause_text == "wdt":
                why, self.cause = "watchdog reset", WDT_RESET
            elif cause_text == "reset":
                why, self.cause = "machine.reset()", SOFT_RESET
            elif cause_text == "lost":
                break
            elif self.wdt_timeout:
                why, self.cause = "firmware stopped (status %s); the watchdog resets" % code, WDT_RESET
            else:
                why, self.cause = "firmware stopped (status %s)" % code, HARD_RESET
            self.say("-- " + why)
            with self.lock:
                self.resets.append({"why": why, "code": code, "boot": self.boots})
                self.status = "restarting"
            self._changed()
            quick_deaths = quick_deaths + 1 if time.monotonic() - started < 2 else 0
            if quick_deaths >= 5:
                with self.lock:
                    self.status = "halted: the firmware dies at start (see the log)"
                self.say("-- " + self.status)
                self._changed()
                self._stop.wait(5)
                quick_deaths = 0
            self._stop.wait(self.restart_delay)
        with self.lock:
            self.status = "stopped"
        self._changed()

    def _pump_stderr(self, proc) -> None:
        for raw in proc.stderr:
            self.say(raw.decode("utf-8", "replace"))

    def _accept(self, proc) -> None:
        conn = None
        while proc.poll() is None and not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
                break
            except socket.timeout:
                continue
            except OSError:
                return
        if conn is None:
            return
        conn.settimeout(None)
        self.conn = conn
        # Re-send what is held down across the reboot (a finger stays on a key).
        for name in list(self.buttons_down):
            self._send("drive %d 0" % self._button_pin(name))
        try:
            self._read_channel(conn)
        finally:
            if self.conn is conn:
                self.conn = None
            conn.close()

    def _read_channel(self, conn) -> None:
        try:
            self._read_lines(conn.makefile("rb"))
        except OSError:             # reset: the process was killed (a power cut, stop())
            pass

    def _read_lines(self, f) -> None:
        while True:
            line = f.readline()
            if not line:
                return
            parts = line.decode("ascii", "replace").split()
            if not parts:
                continue
            kind = parts[0]
            if kind == "frame":
                name = parts[1]
                state = [int(v) for v in parts[2:-1]]
                ram = f.read(int(parts[-1]))
                if len(ram) != int(parts[-1]):
                    return          # the process ended within the frame: not shown
                with self.lock:
                    panel = self.panels.get(name)
                    if panel is not None:
                        panel.model.load(state, ram)
                        panel.frames += 1
                self._changed()
            elif kind == "pin":
                with self.lock:
                    self.pins[int(parts[1])] = int(parts[2])
                self._changed()
            elif kind == "pwm":
                gpio, freq, duty = int(parts[1]), int(parts[2]), int(parts[3])
                with self.lock:
                    if freq:
                        self.pwm[gpio] = (freq, duty)
                    else:
                        self.pwm.pop(gpio, None)
                self._changed()
            elif kind == "wdt":
                self.wdt_timeout = int(parts[1])
            elif kind in ("hello", "pong", "reset"):
                pass
            elif kind == "error":
                self.say("channel: " + " ".join(parts[1:]))

    def _send(self, line: str) -> bool:
        conn = self.conn
        if conn is None:
            return False
        with self._send_lock:
            try:
                conn.sendall((line + "\n").encode())
                return True
            except OSError:
                return False

    # -- inputs ---------------------------------------------------------------

    @staticmethod
    def _button_pin(name: str) -> int:
        return {"left": hwconfig.PIN_BUTTON_LEFT, "right": hwconfig.PIN_BUTTON_RIGHT,
                "pause": hwconfig.PIN_BUTTON_PAUSE,
                "challenge": hwconfig.PIN_BUTTON_CHALLENGE}[name]

    def button(self, name: str, down: bool) -> bool:
        pin = self._button_pin(name)
        with self.lock:
            (self.buttons_down.add if down else self.buttons_down.discard)(name)
        if down and self.sleep_pin == pin:
            self._wake.set()            # the chip's ext0 wake-up (buttons pull to GND)
        self._changed()
        return self._send("drive %d %s" % (pin, "0" if down else "n"))

    def key(self, label: str, down: bool) -> bool:
        for r, line in enumerate(hwconfig.KEYPAD_LAYOUT):
            c = line.find(label)
            if c >= 0:
                with self.lock:
                    (self.keys_down.add if down else self.keys_down.discard)(label)
                self._changed()
                return self._send("key %d %d %d" % (r, c, 1 if down else 0))
        raise ValueError("no key %r" % label)

    def set_wifi(self, up: bool) -> bool:
        """The venue's Wi-Fi at this clock on or gone (host_tools/fakes/network.py)."""
        self.wifi_up = bool(up)
        self._changed()
        return self._send("wifi %d" % (1 if up else 0))

    def set_battery(self, mv: int) -> bool:
        self.battery_mv = int(mv)
        self._changed()
        return self._send("volt %d %d" % (hwconfig.PIN_BATTERY_ADC,
                                          int(self.battery_mv / hwconfig.BATTERY_DIVIDER)))

    # -- state for the page ---------------------------------------------------

    def snapshot(self) -> dict:
        with self.lock:
            buzzer = self.pwm.get(hwconfig.PIN_BUZZER)
            return {
                "version": self.version,
                "status": self.status,
                "connected": self.conn is not None,
                "boots": self.boots,
                "cause": CAUSE_NAMES.get(self.cause, str(self.cause)),
                "resets": list(self.resets[-10:]),
                "panels": {name: p.snapshot() for name, p in self.panels.items()},
                "leds": {"left": self.pins.get(hwconfig.PIN_LED_LEFT, 0),
                         "right": self.pins.get(hwconfig.PIN_LED_RIGHT, 0),
                         "status": self.pins.get(hwconfig.PIN_LED_STATUS, 0)},
                "buzzer": {"on": bool(buzzer and buzzer[1]), "freq": buzzer[0] if buzzer else 0,
                           "duty_u16": buzzer[1] if buzzer else 0},
                "battery_mv": self.battery_mv,
                "buttons_down": sorted(self.buttons_down),
                "keys_down": sorted(self.keys_down),
                "keypad": list(hwconfig.KEYPAD_LAYOUT),
                "legend": self.legend(),
                "link": self.link.snapshot(),
                "log": list(self.log_lines)[-60:],
            }

    def legend(self) -> dict:
        """The letters on each digit key for the list on the device, as the firmware
        lays them out (wordlist_packer.legend, the firmware's terminal/keymap.py), with
        the list's name; {} without a readable list.  Read again when the list changes."""
        path = self.device_dir / "lexicon.dawg"
        try:
            st = path.stat()
        except OSError:
            return {}
        key = (st.st_mtime_ns, st.st_size)
        cached = getattr(self, "_legend", None)
        if cached and cached[0] == key:
            return cached[1]
        from wordlist_packer import legend
        from wordlist_packer.image import Image, ImageError

        try:
            image = Image(path.read_bytes())
            found = {"keys": legend.image_layout(image), "list": legend.caption_of(image)}
        except (ImageError, OSError, ValueError):
            found = {}
        self._legend = (key, found)
        return found

    def wait_change(self, since: int, timeout: float) -> int:
        with self.lock:
            self.lock.wait_for(lambda: self.version != since, timeout=timeout)
            return self.version
