"""The images and reports of the real word lists, pinned byte for byte.

Each list of ../shared/wordlists is packed as the benchmark packs it (`--date 0`, the
report of dropped entries) and the SHA-256 of the image and of the report are compared
with the ones below. A change meant only to make the packer faster (or tidier) must keep
them; a change meant to alter the format or the layout updates them in the same commit,
saying why. Building all four takes about half a minute (the Polish list most of it).
"""

import hashlib

import pytest

from tests import shared
from wordlist_packer.cli import main

PINNED = {     # language: (SHA-256 of the image, SHA-256 of the --report file)
    "de": ("b8ac4f0ba566628faa94abd138b5226e5fe0d9b799de14c94c9b8d038f7cacf2",
           "ef5de42b13596af3e8ab57592be727b96100b02671c9692d812b87aac905be23"),
    "en": ("3580b7e371edb953692b06c0eb4f1986538a8e84e8f81f94b43b229ae48fe2dc",
           "9dd9c91c981e5a5542913896b69f7fdc1c427cc7e8fc0beba04d1c900216f075"),
    "nb": ("41cac77d87fd31536a80ce4f6b2416b3a41d6b59667ce46fdb2f8084697b3e3a",
           "38c0c3aaa643159fe36be9ce0a1caa3691e3e905ad5cd53025503d013c2f5a89"),
    "pl": ("29555edfadce210abf55502929c35b0d939178c95acde7ec3cc0d9e27366eac5",
           "63c7a65c86471fa5d0a14e7c24722e28e5fcad930324a5d9f614312e0a15a5f5"),
}


def _sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("language", sorted(PINNED))
def test_real_list_packs_to_the_pinned_bytes(language, tmp_path):
    source = shared.wordlist(language)
    image, report = tmp_path / "list.img", tmp_path / "dropped.tsv"
    assert main(["build", str(source), "-l", language, "-o", str(image), "--date", "0",
                 "-q", "--report", str(report)]) == 0
    assert (_sha256(image), _sha256(report)) == PINNED[language], (
        f"the {language} image or report is not the pinned one: a change meant to alter "
        "them updates PINNED in tests/host/test_packer_pinned.py")
