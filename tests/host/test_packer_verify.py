"""`wordpack verify` against header edits, and the one header limit of the packer, the
link's check and the device's reader."""

import struct
import zlib

import pytest

from link import imagecheck
from lexicon import format as device_format
from lexicon import reader as device_reader
from lexicon import open_file
from wordlist_packer.cli import EXIT_INPUT, EXIT_VERIFY, main
from wordlist_packer.image import MAX_HEADER, HeaderTooLong, Image
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines

WORDS = ["kot", "koty", "pies", "psy", "żółw", "żółwie", "a", "ananas", "ul", "ule"]


@pytest.fixture
def built(tmp_path):
    src = tmp_path / "w.txt"
    src.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    img = tmp_path / "w.img"
    assert main(["build", str(src), "-l", "pl", "-o", str(img), "--date", "0", "-q"]) == 0
    return src, img


def _edit_header(data, offset, fmt, value):
    """Change one header field and recompute both CRCs (the body CRC stays right)."""
    data = bytearray(data)
    struct.pack_into(fmt, data, offset, value)
    hlen = struct.unpack_from("<H", data, 6)[0]
    data[hlen - 4:hlen] = struct.pack("<I", zlib.crc32(bytes(data[:hlen - 4])))
    Image(bytes(data))              # still a well-formed image: only verify can tell
    return bytes(data)


def _verify(capsys, src, path):
    code = main(["verify", str(path), str(src), "-l", "pl", "-q"])
    return code, capsys.readouterr().out


def test_the_unedited_image_verifies(capsys, built):
    src, img = built
    code, out = _verify(capsys, src, img)
    assert code == 0 and '"ok": true' in out


@pytest.mark.parametrize("field,value", [("shortest", 3), ("longest", 4), ("longest", 9),
                                         ("words", 11), ("arcs", 99), ("nodes", 2),
                                         ("jumps", 5)])
def test_verify_fails_on_each_header_edit(capsys, tmp_path, built, field, value):
    src, img = built
    offsets = {"words": (20, "<I"), "arcs": (24, "<I"), "nodes": (28, "<I"),
               "jumps": (32, "<I"), "shortest": (40, "<B"), "longest": (41, "<B")}
    off, fmt = offsets[field]
    edited = tmp_path / "edited.img"
    edited.write_bytes(_edit_header(img.read_bytes(), off, fmt, value))
    code, out = _verify(capsys, src, edited)
    assert code == EXIT_VERIFY
    assert f"header field {field}" in out


def test_verify_fails_on_a_tiles_blank_only_flag(capsys, tmp_path, built):
    src, img = built
    data = img.read_bytes()
    parsed = Image(data)
    # the tile table is the last part of the header: find tile "Ą" and set its flag
    entry = b"\x00\x02" + "Ą".encode() + b"\x02" + "ą".encode()
    at = data.rindex(entry, 0, parsed.header_len)
    edited = tmp_path / "edited.img"
    edited.write_bytes(_edit_header(data, at, "<B", 1))
    assert Image(edited.read_bytes()).blank_only[1]
    code, out = _verify(capsys, src, edited)
    assert code == EXIT_VERIFY and "header field blank-only tiles" in out


def test_one_header_limit_for_packer_link_and_reader():
    assert MAX_HEADER == device_format.MAX_HEADER == imagecheck.MAX_HEADER == 4096


def _alphabet_profile(tile_len, name_len):
    tiles = [chr(0x41 + i) * tile_len for i in range(20)]
    return Profile(language="xx", tiles=tiles), "n" * name_len


def _image_with_header(size):
    """An image whose header is exactly `size` bytes (long tiles, a long name)."""
    for tile_len in range(1, 100):
        prof, _ = _alphabet_profile(tile_len, 0)
        words = [prof.tiles[0] + prof.tiles[1], prof.tiles[2]]
        data = build_from_lines(words, prof, date=0)
        hlen = Image(data).header_len
        if size - 255 <= hlen <= size:
            return build_from_lines(words, prof, date=0, name="n" * (size - hlen))
    raise AssertionError("no tile length gives that header")


def test_a_header_at_the_limit_builds_and_the_device_opens_it(tmp_path):
    data = _image_with_header(MAX_HEADER)
    assert Image(data).header_len == MAX_HEADER
    path = tmp_path / "limit.dawg"
    path.write_bytes(data)
    lex = open_file(str(path))
    assert lex.check(lex.tiles[2]) == device_reader.VALID
    hdr = None
    for item in imagecheck.verify_steps(str(path)):
        hdr = item
    assert hdr["words"] == 2


def test_a_header_over_the_limit_is_refused_by_the_packer(tmp_path, capsys):
    prof, _ = _alphabet_profile(100, 0)
    words = [prof.tiles[0] + prof.tiles[1]]
    with pytest.raises(HeaderTooLong, match="4096"):
        build_from_lines(words, prof, date=0, name="n" * 200)
    alphabet = tmp_path / "long.txt"
    alphabet.write_text("\n".join(prof.tiles) + "\n", encoding="utf-8")
    src = tmp_path / "w.txt"
    src.write_text(words[0] + "\n", encoding="utf-8")
    out = tmp_path / "o.img"
    assert main(["build", str(src), "--alphabet", str(alphabet), "-o", str(out), "-q",
                 "--name", "n" * 200]) == EXIT_INPUT
    assert "the device reads at most 4096" in capsys.readouterr().err
    assert not out.exists()


def test_a_filesystem_image_is_never_made_with_a_list_of_no_words():
    from host_tools.image import ImageBuildError, build_image
    from tests.host.lexicon_fixtures import empty_image

    for target in ("s3", "wroom"):
        with pytest.raises(ImageBuildError, match="no words"):
            build_image(1 << 20, target, lexicon=empty_image())
