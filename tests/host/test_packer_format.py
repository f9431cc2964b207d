"""The image bytes of docs/wordlist-format.md, the header, and damaged images."""

import json
import zlib

import pytest

from wordlist_packer.cli import EXIT_DAMAGED, main
from wordlist_packer.image import Image, ImageError
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines

ABC = "A\nB\nC\nlanguage xx\n"


def example(tmp_path, words):
    (tmp_path / "abc.txt").write_text(ABC, encoding="utf-8")
    p = Profile.from_alphabet_file(tmp_path / "abc.txt")
    return build_from_lines(words, p, name="example", version="1", date=0)


def test_worked_example_bytes(tmp_path):
    data = example(tmp_path, ["ab", "abc", "b"])
    assert len(data) == 878
    assert data[:16].hex() == "54434c5801006a036a03000004000000"
    assert data[16:48].hex() == ("6c775f0b030000000400000003000000"
                                 "00000000010303000000000000000000")
    table = {op: data[80 + 3 * op:83 + 3 * op].hex() for op in range(256)
             if data[80 + 3 * op] != 0xFE}
    assert table == {0: "000200", 1: "010300", 2: "010500", 3: "020700", 255: "ff0000"}
    assert data[848:874].hex() == "027878076578616d706c650131000141000142000143" + "9cee191d"
    assert data[874:].hex() == "02000103"


def test_second_example_with_an_address(tmp_path):
    data = example(tmp_path, ["ab", "abc", "b", "cb", "cbc"])
    img = Image(data)
    assert img.body.hex() == "0002030104"
    assert img.table[0:3].hex() == "000803"
    assert img.body_crc == 0x701B7497
    assert img.word_list() == ["AB", "ABC", "B", "CB", "CBC"]


def test_header_fields_and_tile_table():
    p = Profile.builtin("nb")
    img = Image(build_from_lines(["båt", "fähig", "øy"], p, name="NSF test", version="7",
                                 date=1700000000))
    h = img.header()
    assert h["language"] == "nb" and h["name"] == "NSF test" and h["list_version"] == "7"
    assert h["build_date_epoch"] == 1700000000 and h["build_date"] == "2023-11-14T22:13:20Z"
    assert h["shortest"] == 2 and h["longest"] == 5 and h["words"] == 3
    assert img.tile_table()[-3:] == [("Ä", True), ("Ö", True), ("Ü", True)]
    assert len(h["sha256"]) == 64


def test_reproducible_with_source_date_epoch(tmp_path, monkeypatch):
    src = tmp_path / "w.txt"
    src.write_text("kot\npies\n", encoding="utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1234567890")
    assert main(["build", str(src), "-l", "pl", "-o", str(tmp_path / "a.img"), "-q"]) == 0
    assert main(["build", str(src), "-l", "pl", "-o", str(tmp_path / "b.img"), "-q"]) == 0
    a, b = (tmp_path / "a.img").read_bytes(), (tmp_path / "b.img").read_bytes()
    assert a == b and Image(a).date == 1234567890


@pytest.fixture(scope="module")
def good():
    words = [f"{a}{b}{c}" for a in "abcdefgh" for b in "aeiou" for c in "rstln"] + ["a", "ab"]
    return build_from_lines(words, Profile.builtin("en"), date=0)


def test_every_truncation_is_reported(good):
    for n in list(range(0, 120)) + list(range(len(good) - 60, len(good))):
        with pytest.raises(ImageError, match="truncated|damaged|magic"):
            Image(good[:n])


def test_every_bit_flip_is_reported(good):
    # a flip anywhere (header, table, strings, body, CRCs) is caught by one of the CRCs
    for pos in range(len(good)):
        for bit in (0, 5):
            bad = bytearray(good)
            bad[pos] ^= 1 << bit
            with pytest.raises(ImageError):
                Image(bytes(bad))


def test_damaged_image_not_answered_by_cli(tmp_path, good, capsys):
    bad = bytearray(good)
    bad[-2] ^= 0x10
    f = tmp_path / "bad.img"
    f.write_bytes(bytes(bad))
    src = tmp_path / "w.txt"
    src.write_text("cat\n", encoding="utf-8")
    assert main(["info", str(f)]) == EXIT_DAMAGED
    out = json.loads(capsys.readouterr().out)
    assert "CRC" in out["damaged"]
    assert main(["verify", str(f), str(src), "-l", "en", "-q"]) == EXIT_DAMAGED
    assert main(["lookup", str(f), "CAT"]) == EXIT_DAMAGED
    assert "valid" not in capsys.readouterr().out
    f.write_bytes(good[:-1])
    assert main(["info", str(f)]) == EXIT_DAMAGED


def test_body_damage_with_matching_crc_is_still_detected(good):
    # an unused opcode in the body (forged CRC): the reader refuses, never answers
    img = Image(good)
    unused = next(op for op in range(255) if img.table[3 * op] == 0xFE)
    body = bytearray(img.body)
    body[img.root] = unused
    data = bytearray(good[:img.body_offset]) + body
    data[16:20] = zlib.crc32(bytes(body)).to_bytes(4, "little")
    hl = img.header_len
    data[hl - 4:hl] = zlib.crc32(bytes(data[:hl - 4])).to_bytes(4, "little")
    forged = Image(bytes(data))
    with pytest.raises(ImageError, match="unused opcode"):
        forged.contains_tiles([0])


def test_wrong_major_version_refused(good):
    bad = bytearray(good)
    bad[4] = 2
    with pytest.raises(ImageError, match="version"):
        Image(bytes(bad))
