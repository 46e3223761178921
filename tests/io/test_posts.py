"""Readers of real-world claims (io/posts.py) on self-made post dumps and articles, and on the shared data when it
is there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimforge.io.posts import domain_of
from claimforge.io.rows import InputError
from claimforge.records import Reject, SentenceItem
from claimforge.registry import registry

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"

JATS = """<?xml version="1.0"?>
<article><front><article-meta><title-group><article-title>Aspirin Reduces Fever in Children</article-title>
</title-group><abstract><p>We gave aspirin to children. Fever fell within hours [<xref>3</xref>].</p></abstract>
</article-meta></front><body><sec><p>Body text is here. It has two sentences.</p></sec></body></article>
"""


def _read(spec: dict) -> list[SentenceItem | Reject]:
    return list(registry.build("reader", spec).read())


def test_reddit_csv_columns_are_detected(tmp_path: Path) -> None:
    path = tmp_path / "posts.csv"
    path.write_text(
        ",id,created_unix_utc,post_url,post_title,flair,score,num_comments,upvote_ratio\n"
        "0,a1,1521000374.0,https://www.nature.com/articles/x,Masks reduce spread,Health,10,3,0.92\n"
        "1,a2,1521000375.0,https://example.org/y,Removed post,removed,1,0,0.4\n"
        '2,a3,1521000376.0,,"",Health,1,0,0.9\n'
    )
    a, b, c = _read({"name": "posts", "path": str(path)})
    assert isinstance(a, SentenceItem) and a.id == "posts:a1" and a.sentence == "Masks reduce spread"
    assert a.meta == {
        "flair": "Health",
        "upvote_ratio": 0.92,
        "score": 10.0,
        "removed": False,
        "url": "https://www.nature.com/articles/x",
        "domain": "nature.com",
        "date": "1521000374.0",
    }
    assert a.ref.line == 2 and a.cited == ()
    assert isinstance(b, SentenceItem) and b.meta["removed"] is True  # the "removed" flair
    assert isinstance(c, Reject) and c.reason == "empty_claim"


def test_sources_from_text_or_files(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "one.txt").write_text("Masks reduce spread. They filter droplets.")
    (tmp_path / "src" / "two.nxml").write_text(JATS)
    rows = [
        {"id": 1, "title": "A claim with text.", "source_text": "First sentence. Second one.", "removed": "false"},
        {"id": 2, "title": "A claim with a file.", "source_path": "src/one.txt", "url": ["https://a.org/x"]},
        {"id": 3, "title": "A claim with JATS.", "source_path": "src/two.nxml", "removed": True},
        {"id": 4, "title": "A claim with a missing file.", "source_path": "src/none.txt"},
    ]
    path = tmp_path / "posts.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    a, b, c, d = _read({"name": "posts", "path": str(path)})
    assert a.cited[0].sentences == ("First sentence.", "Second one.") and a.cited[0].id == "posts:1/source"
    assert b.cited[0].sentences == ("Masks reduce spread.", "They filter droplets.") and b.meta["domain"] == "a.org"
    assert c.meta["removed"] is True and "Fever fell within hours" in c.cited[0].text
    assert isinstance(d, Reject) and d.reason == "source_file_missing" and "none.txt" in d.detail


def test_bad_values_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "posts.csv"
    path.write_text("title,upvote_ratio\nMasks reduce spread,0.9\nMasks work,high\n")
    with pytest.raises(InputError, match=r"posts.csv.*line 3.*upvote_ratio"):
        _read({"name": "posts", "path": str(path)})
    rejects = [r for r in registry.build("reader", {"name": "posts", "path": str(path)}).read(skip_bad=True)]
    assert isinstance(rejects[1], Reject) and rejects[1].reason == "malformed_record"
    with pytest.raises(InputError, match="no column 'headline'"):
        _read({"name": "posts", "path": str(path), "claim": "headline"})
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="no claim column"):
        _read({"name": "posts", "path": str(other)})


def test_article_titles_from_a_corpus_and_jats(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        json.dumps({"doc_id": 7, "title": "Aspirin reduces fever.", "abstract": ["One.", "Two."]})
        + "\n"
        + json.dumps({"doc_id": 8, "title": "", "abstract": ["One."]})
        + "\n"
        + json.dumps({"doc_id": 9, "title": "No text here.", "abstract": []})
        + "\n"
    )
    a, b, c = _read({"name": "article-titles", "path": str(corpus)})
    assert a.id == "articles:7" and a.sentence == "Aspirin reduces fever." and a.cited[0].sentences == ("One.", "Two.")
    assert (b.reason, c.reason) == ("empty_claim", "no_source_text")  # type: ignore[union-attr]
    folder = tmp_path / "jats"
    folder.mkdir()
    (folder / "PMC1.nxml").write_text(JATS)
    (folder / "PMC2.xml").write_text("<article><front>")  # truncated
    abstract_only = list(registry.build("reader", {"name": "article-titles", "path": str(folder)}).read(skip_bad=True))
    assert abstract_only[0].sentence == "Aspirin Reduces Fever in Children"
    assert "Body text" not in abstract_only[0].cited[0].text
    assert isinstance(abstract_only[1], Reject) and abstract_only[1].reason == "malformed_record"
    (full,) = _read({"name": "article-titles", "path": str(folder / "PMC1.nxml"), "text": "full"})
    assert "Body text is here." in full.cited[0].sentences
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="without .xml/.nxml"):
        registry.build("reader", {"name": "article-titles", "path": str(tmp_path / "empty")})


def test_article_titles_from_a_tar_archive(tmp_path: Path) -> None:
    """A corpus shipped as a tar archive (the PMC trial reports of Evidence Inference) is read member by member;
    non-JATS members are skipped, a truncated archive ends in one reject naming it."""
    import io
    import tarfile

    archive = tmp_path / "xml_files.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        for name, text in (("xml_files/PMC1.nxml", JATS), ("xml_files/README.txt", "not a paper")):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (item,) = _read({"name": "article-titles", "path": str(archive)})
    assert item.id == "articles:PMC1" and item.sentence == "Aspirin Reduces Fever in Children"
    assert item.ref.item_id == "articles:PMC1"
    # in a folder beside plain files, and cut short
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "PMC2.nxml").write_text(JATS.replace("Aspirin Reduces Fever", "Ibuprofen Lowers Pain"))
    (folder / "broken.tar.xz").write_bytes(archive.read_bytes()[:60])
    got = list(registry.build("reader", {"name": "article-titles", "path": str(folder)}).read(skip_bad=True))
    reasons = [g.reason if isinstance(g, Reject) else g.sentence for g in got]
    assert sorted(reasons, key=str) == ["Ibuprofen Lowers Pain in Children", "malformed_record"]
    assert any(isinstance(g, Reject) and "broken archive" in g.detail for g in got)


def test_domain_of() -> None:
    assert domain_of("https://www.nature.com/a?b=c") == "nature.com"
    assert domain_of("http://user@news.bbc.co.uk:80/x") == "news.bbc.co.uk"
    assert domain_of("not a url") == ""


@pytest.mark.skipif(not (SHARED / "posts").is_dir(), reason="../shared/data/posts is not here")
def test_shared_post_dumps_read_completely() -> None:
    for path, n in (
        ("posts/reddit_rscience_top/Top-Posts-All.csv", 100),
        ("posts/scitweets/annotations.tsv", 1261),
    ):
        items = _read({"name": "posts", "path": str(SHARED / path)})
        assert len(items) == n and all(isinstance(i, SentenceItem) for i in items)
