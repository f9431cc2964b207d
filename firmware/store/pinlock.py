# The referee's PIN lock across power cuts (terminal/pinlock.py), in
# esp32.NVS("tileclock"), key "pin": three bytes, the wrong PINs since the last
# lockout or the right PIN, the lockouts since the right PIN (their length grows
# with them) and whether a lockout is on.  Written only when one of them changes (a
# wrong PIN, a lockout and its end, the right PIN after a wrong one): a few writes a
# tournament, apart from the game state record (store/state.py).

KEY = "pin"


class PinStore:
    def __init__(self, nvs):
        self._nvs = nvs

    def load(self):
        """(wrong PINs, lockouts, locked); (0, 0, 0) when nothing is stored."""
        buf = bytearray(4)
        try:
            n = self._nvs.get_blob(KEY, buf)
        except OSError:
            return (0, 0, 0)
        if n != 3:
            return (0, 0, 0)
        return (buf[0], buf[1], buf[2])

    def save(self, tries, lockouts, locked):
        """False if NVS failed (the lock then holds until the next power cut only)."""
        try:
            self._nvs.set_blob(KEY, bytes((tries, lockouts if lockouts < 255 else 255,
                                           1 if locked else 0)))
            self._nvs.commit()
        except OSError:
            return False
        return True


def create():
    import esp32
    from store.state import NAMESPACE

    return PinStore(esp32.NVS(NAMESPACE))
