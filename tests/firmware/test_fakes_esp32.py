# The fakes of the ESP32 `esp32` module: NVS and partitions in the device folder.

import esp32
import sim_device
from mpytest import raises, tmpdir


def device():
    path = tmpdir()
    sim_device.set_device_dir(path)
    esp32.sim_nvs_forget()
    return path


def test_nvs_values_are_on_flash_when_set_returns():
    # ESP-IDF's nvs_commit() is a no-op: a power cut after set_* keeps the value.
    device()
    nvs = esp32.NVS("tileclock")
    nvs.set_i32("a", -5)
    nvs.set_blob("game", b"\x00\x01state")
    assert nvs.get_i32("a") == -5
    esp32.sim_nvs_forget()  # power cut, no commit
    nvs = esp32.NVS("tileclock")
    assert nvs.get_i32("a") == -5
    nvs.set_i32("a", 7)
    nvs.commit()
    nvs.set_i32("b", 1)
    esp32.sim_nvs_forget()
    nvs = esp32.NVS("tileclock")
    assert nvs.get_i32("a") == 7 and nvs.get_i32("b") == 1
    err = raises(OSError, nvs.get_i32, "c")
    assert err.args[0] == -4354
    buf = bytearray(32)
    assert nvs.get_blob("game", buf) == 7
    assert bytes(buf[:7]) == b"\x00\x01state"


def test_nvs_errors_like_the_chip():
    device()
    nvs = esp32.NVS("ns")
    assert raises(OSError, nvs.get_blob, "x", bytearray(4)).args[0] == -0x1102
    nvs.set_blob("x", b"12345")
    assert raises(OSError, nvs.get_blob, "x", bytearray(4)).args[0] == -0x110C
    assert raises(OSError, nvs.get_i32, "x").args[0] == -0x1103
    assert raises(OSError, nvs.set_i32, "k" * 16, 1).args[0] == -0x1109
    raises(OSError, esp32.NVS, "n" * 16)
    raises(OverflowError, nvs.set_i32, "big", 1 << 31)
    assert raises(OSError, nvs.erase_key, "nothing").args[0] == -0x1102


def test_nvs_erase_is_durable_and_namespaces_are_separate():
    device()
    a = esp32.NVS("one")
    b = esp32.NVS("two")
    a.set_i32("k", 1)
    b.set_i32("k", 2)
    a.erase_key("k")
    esp32.sim_nvs_forget()
    raises(OSError, esp32.NVS("one").get_i32, "k")
    assert esp32.NVS("two").get_i32("k") == 2


def test_nvs_writes_leave_no_temporary_file():
    import os

    path = device()
    nvs = esp32.NVS("x")
    nvs.set_i32("v", 3)
    nvs.commit()
    assert sorted(os.listdir(path)) == ["nvs"]
    assert sorted(os.listdir(path + "/nvs")) == ["x.v"]


def test_default_partition_table():
    device()
    vfs = esp32.Partition("vfs")
    ptype, sub, addr, size, label, enc = vfs.info()
    assert (ptype, sub, addr, size, label, enc) == (1, 0x81, 0x200000, 0x200000, "vfs", False)
    assert vfs.ioctl(4, 0) == 0x200000 // 4096
    assert vfs.ioctl(5, 0) == 4096
    assert esp32.Partition(esp32.Partition.RUNNING).info()[4] == "factory"
    assert [p.info()[4] for p in esp32.Partition.find(esp32.Partition.TYPE_DATA)] == [
        "nvs", "phy_init", "vfs"]
    assert esp32.Partition.find(esp32.Partition.TYPE_DATA, label="lexicon") == []
    raises(OSError, esp32.Partition, "lexicon")


def test_partition_csv_and_nor_flash_semantics():
    path = device()
    with open(path + "/partitions.csv", "w") as f:
        f.write("# Name, Type, SubType, Offset, Size\n"
                "nvs, data, nvs, 0x9000, 0x6000\n"
                "factory, app, factory, 0x10000, 0x1F0000\n"
                "vfs, data, fat, 0x200000, 0x100000\n"
                "lexicon, data, 0x40, , 0x100000\n")
    lex = esp32.Partition.find(esp32.Partition.TYPE_DATA, label="lexicon")[0]
    assert lex.info()[:4] == (1, 0x40, 0x300000, 0x100000)
    buf = bytearray(8)
    lex.readblocks(3, buf)
    assert buf == bytearray(b"\xff" * 8)  # erased flash
    lex.writeblocks(3, b"\x0f\xf0", 2)
    lex.writeblocks(3, b"\xf0\xff", 2)  # can only clear bits
    lex.readblocks(3, buf, 0)
    assert bytes(buf) == b"\xff\xff\x00\xf0\xff\xff\xff\xff"
    assert lex.ioctl(6, 3) == 0  # erase block 3
    lex.readblocks(3, buf)
    assert buf == bytearray(b"\xff" * 8)
    # The 3-argument write erases whole blocks first.
    lex.writeblocks(3, b"\x00" * 4096, 0)
    lex.writeblocks(3, b"\x5a" * 4096)
    lex.readblocks(3, buf, 100)
    assert buf == bytearray(b"\x5a" * 8)
    raises(OSError, lex.writeblocks, 3, b"\x00" * 100)
    raises(OSError, lex.readblocks, 256, buf)  # past the end
    # Persisted in the device folder.
    again = esp32.Partition("lexicon")
    again.readblocks(3, buf, 4090)
    assert buf == bytearray(b"\x5a" * 6 + b"\xff" * 2)


def test_littlefs_mounts_on_a_partition_under_micropython():
    from mpytest import only_micropython

    only_micropython("vfs.VfsLfs2 is MicroPython's")
    import os

    import vfs

    device()
    part = esp32.Partition("vfs")
    vfs.VfsLfs2.mkfs(part)
    fs = vfs.VfsLfs2(part)
    vfs.mount(fs, "/flash")
    try:
        with open("/flash/hello.txt", "w") as f:
            f.write("tileclock")
        assert os.listdir("/flash") == ["hello.txt"]
    finally:
        vfs.umount("/flash")
    fs = vfs.VfsLfs2(esp32.Partition("vfs"))
    vfs.mount(fs, "/flash")
    try:
        with open("/flash/hello.txt") as f:
            assert f.read() == "tileclock"
    finally:
        vfs.umount("/flash")
