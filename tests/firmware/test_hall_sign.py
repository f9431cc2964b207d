# The hall's HMAC-SHA256 (firmware/hall/sign.py): runs under CPython and MicroPython.

import binascii

from hall_vectors import FILE, inputs, read_tags
from lexicon_data import DATA
from mpytest import MICROPYTHON

from hall import sign


def _hex(b):
    return binascii.hexlify(b).decode()


def test_rfc4231_vectors():
    # RFC 4231, test cases 1, 2, 4, 6 and 7 (HMAC-SHA-256)
    cases = (
        (b"\x0b" * 20, b"Hi There",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (b"Jefe", b"what do ya want for nothing?",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (bytes(range(1, 26)), b"\xcd" * 50,
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (b"\xaa" * 131, b"This is a test using a larger than block-size key and a larger "
         b"than block-size data. The key needs to be hashed before being used by the HMAC "
         b"algorithm.",
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    )
    for key, data, tag in cases:
        assert _hex(sign.hmac_sha256(key, data)) == tag


def test_agrees_with_cpythons_hmac_on_300_vectors():
    # The tags in the file are CPython's hmac's (checked against hmac just below, under
    # CPython); here sign.py, under the interpreter this runs on, gives every one.
    tags = read_tags(DATA + "/" + FILE)
    vectors = inputs()
    assert len(tags) == len(vectors) == 300
    for (key, data), tag in zip(vectors, tags):
        assert sign.hmac_sha256(key, data) == tag, (_hex(key), len(data))


def test_the_vector_file_is_cpythons_hmac():
    if MICROPYTHON:
        return  # no hmac module there: the test above compares against the file
    import hashlib
    import hmac

    tags = read_tags(DATA + "/" + FILE)
    for (key, data), tag in zip(inputs(), tags):
        assert hmac.new(key, data, hashlib.sha256).digest() == tag


def test_parts_are_concatenated_and_text_keys_are_utf8():
    s = sign.Signer("event key 2026")
    assert s.digest(b"ab", b"", b"cd") == sign.hmac_sha256(b"event key 2026", b"abcd")
    assert s.hexdigest(b"abcd") == _hex(s.digest(b"abcd"))


def test_verify_accepts_the_tag_only():
    s = sign.Signer(b"k" * 20)
    tag = s.hexdigest(b"message")
    assert s.verify(tag, b"message")
    assert s.verify(tag.encode(), b"message")
    assert not s.verify(tag, b"messagf")
    assert not s.verify(tag.upper(), b"message")
    assert not s.verify(tag[:-1], b"message")
    assert not s.verify("", b"message")
    wrong = ("0" if tag[10] != "0" else "1")
    assert not s.verify(tag[:10] + wrong + tag[11:], b"message")
    assert not sign.Signer(b"k" * 21).verify(tag, b"message")


def test_same():
    assert sign.same(b"", b"")
    assert sign.same(b"abc", b"abc")
    assert not sign.same(b"abc", b"abd")
    assert not sign.same(b"abc", b"ab")
