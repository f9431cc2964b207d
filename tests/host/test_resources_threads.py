"""The host loads a few pure firmware modules by path (host_tools/resources.py,
firmware_module); the simulator's page server does so from several threads at once (the
keypad legend: terminal/keymap.py).  No thread may get a module whose code has not run
yet."""

import importlib.machinery
import sys
import threading

from host_tools import resources

NAME = "tileclock_fw_terminal_keymap"


def test_a_thread_asking_while_another_loads_gets_the_module_whole(monkeypatch):
    got, errors, others = [], [], []
    real_exec = importlib.machinery.SourceFileLoader.exec_module

    def ask():
        try:
            got.append(resources.firmware_module("terminal/keymap.py").tile_frequencies)
        except Exception as e:       # what this guards against: AttributeError
            errors.append(e)

    def exec_with_others_asking(loader, module):
        # while the first load runs its module's code, other threads ask for it: they
        # must wait for it (then they finish at once), not take it half made
        if not others:
            others.extend(threading.Thread(target=ask) for _ in range(4))
            for t in others:
                t.start()
            for t in others:
                t.join(0.5)          # without the lock they are done long before this
        real_exec(loader, module)

    monkeypatch.setattr(importlib.machinery.SourceFileLoader, "exec_module",
                        exec_with_others_asking)
    monkeypatch.delitem(sys.modules, NAME, raising=False)
    ask()
    for t in others:
        t.join()
    sys.modules.pop(NAME, None)
    assert not errors and len(got) == 5, errors
