"""The wordpack commands, input handling, and the German list end to end."""

import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from tests import shared
from wordlist_packer.cli import EXIT_INPUT, EXIT_VERIFY, main
from wordlist_packer.image import Image

REPO = Path(__file__).resolve().parents[2]


def test_build_lookup_info_stats(tmp_path, capsys):
    src = tmp_path / "w.txt"
    src.write_bytes("\ufeffkot\r\nkoty\r\n\r\n# komentarz\r\nKraków\r\nkot\r\nquiz\r\n".encode())
    img = tmp_path / "w.img"
    rep = tmp_path / "dropped.tsv"
    assert main(["build", str(src), "-l", "pl", "-o", str(img), "--report", str(rep),
                 "--name", "t", "--date", "2024-05-01", "-q"]) == 0
    lines = rep.read_text(encoding="utf-8").splitlines()[1:]
    assert lines == ["5\tcapital\tKraków", "6\tduplicate\tkot", "7\tforeign-letter\tquiz"]
    capsys.readouterr()
    assert main(["lookup", str(img), "kot", "KOTY", "ko"]) == EXIT_VERIFY
    assert capsys.readouterr().out.split("\n")[:3] == ["KOT\tvalid", "KOTY\tvalid", "KO\tinvalid"]
    assert main(["info", str(img)]) == 0
    h = json.loads(capsys.readouterr().out)
    assert h["words"] == 2 and h["build_date"] == "2024-05-01T00:00:00Z" and h["name"] == "t"
    assert main(["stats", str(img)]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["arcs"] == h["arcs"] == 4 and st["nodes"] == h["nodes"]


def test_undecodable_input_names_the_line(tmp_path, capsys):
    src = tmp_path / "w.txt"
    src.write_bytes(b"kot\npies\nx\xff\xfey\nlis\n")
    assert main(["build", str(src), "-l", "pl", "-o", str(tmp_path / "o.img"), "-q"]) == EXIT_INPUT
    assert "line 3" in capsys.readouterr().err
    rep = tmp_path / "r.tsv"
    assert main(["build", str(src), "-l", "pl", "-o", str(tmp_path / "o.img"), "-q",
                 "--skip-bad", "--report", str(rep)]) == 0
    assert "3\tundecodable" in rep.read_text(encoding="utf-8")
    assert Image.load(tmp_path / "o.img").word_list() == ["KOT", "LIS", "PIES"]


def test_other_encoding_and_xz_input(tmp_path):
    src = tmp_path / "w.txt.xz"
    src.write_bytes(lzma.compress("bjørn\nsæl\n".encode("latin-1")))
    out = tmp_path / "o.img"
    assert main(["build", str(src), "-l", "nb", "--encoding", "latin-1", "-o", str(out),
                 "-q"]) == 0
    assert Image.load(out).word_list() == ["BJØRN", "SÆL"]


def test_python_dash_m_from_repo_root(tmp_path):
    src = tmp_path / "w.txt"
    src.write_text("cat\ndog\n", encoding="utf-8")
    out = tmp_path / "o.img"
    r = subprocess.run([sys.executable, "-m", "wordlist_packer", "build", str(src), "-l", "en",
                        "-o", str(out), "-q"], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, "-m", "wordlist_packer", "lookup", str(out), "dog"],
                       cwd=REPO, capture_output=True, text=True)
    assert r.stdout == "DOG\tvalid\n"


@pytest.mark.slow
def test_german_list_verified_end_to_end(tmp_path, capsys):
    src = shared.wordlist("de")
    out = tmp_path / "de.img"
    assert main(["build", str(src), "-l", "de", "-o", str(out), "--date", "0", "-q"]) == 0
    assert main(["verify", str(out), str(src), "-l", "de", "-q", "--samples", "5000"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["ok"] and rep["words"] > 350_000 and rep["nonwords_checked"] > 40_000
    assert rep["sha_match"]
    img = Image.load(out)
    assert "SCHLIESSEN" in img and "GRÖSSE" in img and "SCHLIEßEN" not in img
    # size target: at most 0.55 x dawgdic (784,388 B in ../shared/wordlists/README.md)
    assert len(img.data) <= 0.55 * 784_388


def test_a_list_that_keeps_no_words_is_refused(tmp_path, capsys):
    # an all-capitals German list: every entry is an abbreviation by ORZ I.3
    src = tmp_path / "caps.txt"
    src.write_text("HAUS\nMAUS\nBAUM\nSCHLIESSEN\n", encoding="utf-8")
    out = tmp_path / "o.img"
    assert main(["build", str(src), "-l", "de", "-o", str(out), "-q"]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "no word kept" in err and "abbreviation: 4" in err and "only capitals" in err
    assert not out.exists()
    # not even when drops are allowed: an empty list is never packed
    assert main(["build", str(src), "-l", "de", "-o", str(out), "-q", "--allow-drops"]) == EXIT_INPUT
    assert not out.exists()


def test_a_list_that_drops_most_entries_needs_allow_drops(tmp_path, capsys):
    src = tmp_path / "mixed.txt"
    src.write_text("kot\nPies\nKraków\nWarszawa\nquiz\nxylofon\npies\n", encoding="utf-8")
    out = tmp_path / "o.img"
    assert main(["build", str(src), "-l", "pl", "-o", str(out), "-q"]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "5 of 7 entries dropped" in err and "capital: 3" in err
    assert "foreign-letter: 2" in err and "--allow-drops" in err
    assert not out.exists()
    assert main(["build", str(src), "-l", "pl", "-o", str(out), "-q", "--max-drops", "80"]) == 0
    assert main(["build", str(src), "-l", "pl", "-o", str(out), "-q", "--allow-drops"]) == 0
    assert Image.load(out).word_list() == ["KOT", "PIES"]


def _polish_slice(path, lines=3000):
    """Every 1,000th line of the Polish list, a few thousand entries: quick to pack."""
    with lzma.open(shared.wordlist("pl"), "rt", encoding="utf-8") as f:
        text = f.read().split("\n")
    path.write_text("\n".join(text[::len(text) // lines]) + "\n", encoding="utf-8")


def test_a_polish_list_packed_as_german_is_refused(tmp_path, capsys):
    src = tmp_path / "pl-slice.txt"
    _polish_slice(src)
    out = tmp_path / "o.img"
    assert main(["build", str(src), "-l", "de", "-o", str(out), "-q"]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "does not look like 'de'" in err and "--language pl" in err
    assert "Ł" in err and "--force-language" in err
    assert not out.exists()
    # the right language packs, and verify with the wrong one fails, naming it
    assert main(["build", str(src), "-l", "pl", "-o", str(out), "-q"]) == 0
    assert main(["verify", str(out), str(src), "-l", "de", "-q"]) == EXIT_VERIFY
    assert "--language pl" in capsys.readouterr().err
    # the override packs it as asked
    out.unlink()
    assert main(["build", str(src), "-l", "de", "-o", str(out), "-q", "--force-language"]) == 0
    assert Image.load(out).language == "de"


def test_many_entries_with_foreign_letters_are_refused(tmp_path, capsys):
    # a tenth of the entries have a letter no profile knows (Icelandic thorn)
    words = [f"word{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}" for i in range(300)]
    words += [f"þorn{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(30)]
    src = tmp_path / "w.txt"
    src.write_text("\n".join(words) + "\n", encoding="utf-8")
    out = tmp_path / "o.img"
    assert main(["build", str(src), "-l", "en", "-o", str(out), "-q"]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "30 of 330 entries (9.1 %, more than 3 %)" in err and "(Þ)" in err
    assert not out.exists()
    assert main(["build", str(src), "-l", "en", "-o", str(out), "-q", "--force-language"]) == 0
