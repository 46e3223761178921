"""Speed and size of the knowledge bases: ``python -m claimforge.kb.bench [--runs 3] [--kb wordnet go hpo]
[--synthetic-umls N] [--synthetic-mesh N]``.

Each run is a fresh Python process (imports, lazy loading and process-wide singletons such as hpo3's
included): *load* is the time from constructing the KB to the end of its first ``link`` (which loads it),
*load CPU* the process CPU time of the same (less sensitive to other processes on a busy machine), *link*
the median time of one ``link`` call over the mentions below (loaded, warm), *siblings* the median time
of the first ``siblings`` call on each linked concept, *RSS* the growth of the process' peak resident memory
over the load. The table reports the median of the runs. ``--synthetic-umls N`` / ``--synthetic-mesh N``
write RRF / XML files with N made-up concepts in the real layouts to a temporary directory and measure those
(for the memory and time estimates of real releases, which are not on this machine).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MENTIONS = {
    "wordnet": [
        "aspirin",
        "ibuprofen",
        "increase",
        "prevents",
        "high",
        "seizures",
        "mice",
        "blood vessels",
        "proteins",
        "accelerates",
        "insulin",
        "virus",
    ],
    "go": [
        "apoptotic process",
        "apoptosis",
        "cell proliferation",
        "DNA binding",
        "nucleus",
        "mitochondria",
        "autophagy",
        "inflammatory response",
        "cell migration",
        "angiogenesis",
        "protein binding",
        "apoptotic processes",
    ],
    "hpo": [
        "seizure",
        "hypertension",
        "headache",
        "fever",
        "obesity",
        "ataxia",
        "microcephaly",
        "scoliosis",
        "intellectual disability",
        "hearing impairment",
        "seizures",
        "short stature",
    ],
    "umls": [f"synthetic concept {i}" for i in range(0, 5000, 500)] + ["synthetic concept 7 synonym"],
    "mesh": [f"synthetic descriptor {i}" for i in range(0, 5000, 500)] + ["entry term 7 b"],
}


def _rss_kib() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def one_run(kb_name: str, spec: dict[str, Any]) -> dict[str, Any]:
    """Measure one KB in this process (called in a fresh process by :func:`main`)."""
    from claimforge.registry import registry

    registry.names("kb")  # the imports, outside the measured load
    rss0 = _rss_kib()
    t0, c0 = time.perf_counter(), time.process_time()
    kb = registry.build("kb", {"name": kb_name, **spec})
    mentions = MENTIONS[kb_name]
    kb.link(mentions[0])
    load, load_cpu = time.perf_counter() - t0, time.process_time() - c0
    rss = _rss_kib() - rss0
    linked = []
    link_times = []
    for _ in range(5):
        for m in mentions:
            t = time.perf_counter()
            found = kb.link(m)
            link_times.append(time.perf_counter() - t)
            if found and found[0] not in linked:
                linked.append(found[0])
    sib_times = []
    n_sibs = []
    for c in linked:
        t = time.perf_counter()
        sibs = kb.siblings(c)
        sib_times.append(time.perf_counter() - t)
        n_sibs.append(len(sibs))
    out: dict[str, Any] = {
        "load_s": load,
        "load_cpu_s": load_cpu,
        "link_ms": statistics.median(link_times) * 1000,
        "siblings_ms": statistics.median(sib_times) * 1000 if sib_times else float("nan"),
        "linked": len(linked),
        "siblings_median": statistics.median(n_sibs) if n_sibs else 0,
        "rss_mib": rss / 1024,
        "model_id": kb.model_id,
    }
    if hasattr(kb, "counts"):
        out.update(kb.counts())
    else:
        out.update({"concepts": len(kb), "aliases": kb.alias_count})
    return out


# --------------------------------------------------------------------------------------------------
# Synthetic files in the real layouts


def write_synthetic_umls(directory: Path, n: int, seed: int = 0) -> Path:
    """N concepts with 4 English strings (a preferred name, 3 synonyms: 2 of them case variants or new
    words), 1 non-English string, 1-2 semantic types, and a PAR/CHD tree (10 children per node)."""
    rng = random.Random(seed)
    stys = [("T047", "B2.2.1.2.1", "Disease or Syndrome"), ("T121", "A1.4.1.1.1", "Pharmacologic Substance")]
    directory.mkdir(parents=True, exist_ok=True)
    aui = 0
    with (directory / "MRCONSO.RRF").open("w", encoding="utf-8") as f:
        for i in range(n):
            cui = f"C{i:07d}"
            rows = [
                ("ENG", "P", "PF", "Y", "MSH", "MH", f"synthetic concept {i}"),
                ("ENG", "S", "PF", "Y", "MSH", "ET", f"Synthetic Concept {i}"),
                ("ENG", "S", "PF", "Y", "SNOMEDCT_US", "SY", f"synthetic concept {i} synonym"),
                ("ENG", "S", "VO", "N", "NCI", "SY", f"{rng.choice(['acute', 'chronic', 'mild'])} synthetic {i}"),
                ("SPA", "P", "PF", "Y", "MSHSPA", "MH", f"concepto sintetico {i}"),
            ]
            for lat, ts, stt, ispref, sab, tty, s in rows:
                aui += 1
                f.write(f"{cui}|{lat}|{ts}|L{i:07d}|{stt}|S{aui:07d}|{ispref}|A{aui:08d}|||D{i:06d}|{sab}|{tty}|")
                f.write(f"D{i:06d}|{s}|0|N|256|\n")
    with (directory / "MRSTY.RRF").open("w", encoding="utf-8") as f:
        for i in range(n):
            for tui, stn, sty in stys[: 1 + i % 2]:
                f.write(f"C{i:07d}|{tui}|{stn}|{sty}|AT{i:08d}|256|\n")
    with (directory / "MRREL.RRF").open("w", encoding="utf-8") as f:
        for i in range(1, n):
            p = (i - 1) // 10
            f.write(f"C{i:07d}|A{i:08d}|SDUI|PAR|C{p:07d}|A{p:08d}|SDUI||R{2 * i:08d}||MSH|MSH|||N||\n")
            f.write(f"C{p:07d}|A{p:08d}|SDUI|CHD|C{i:07d}|A{i:08d}|SDUI||R{2 * i + 1:08d}||MSH|MSH|||N||\n")
            f.write(f"C{i:07d}|A{i:08d}|SDUI|RO|C{p:07d}|A{p:08d}|SDUI|may_treat|R{i:08d}||MSH|MSH|||N||\n")
    return directory


def write_synthetic_mesh(path: Path, n: int) -> Path:
    """N descriptor records as verbose as NLM's (dates, qualifiers, 2 concepts, 3 terms each), one tree."""
    with path.open("w", encoding="utf-8") as f:
        f.write('<?xml version="1.0"?>\n<DescriptorRecordSet LanguageCode = "eng">\n')
        for i in range(n):
            tree = "C01" if i == 0 else ""
            if i:
                parts, j = [], i
                while j:
                    parts.append(f"{(j - 1) % 10 + 1:03d}")
                    j = (j - 1) // 10
                tree = "C01." + ".".join(reversed(parts))
            date = "<DateCreated><Year>1999</Year><Month>01</Month><Day>01</Day></DateCreated>\n"
            f.write(f'<DescriptorRecord DescriptorClass = "1">\n <DescriptorUI>D{i:06d}</DescriptorUI>\n')
            f.write(f" <DescriptorName><String>synthetic descriptor {i}</String></DescriptorName>\n {date}")
            f.write(" <AllowableQualifiersList><AllowableQualifier><QualifierReferredTo><QualifierUI>Q000009")
            f.write("</QualifierUI><QualifierName><String>adverse effects</String></QualifierName>")
            f.write("</QualifierReferredTo><Abbreviation>AE</Abbreviation></AllowableQualifier>")
            f.write("</AllowableQualifiersList>\n")
            f.write(f" <TreeNumberList><TreeNumber>{tree}</TreeNumber></TreeNumberList>\n <ConceptList>\n")
            for k, pref in enumerate("YN"):
                f.write(f'  <Concept PreferredConceptYN="{pref}"><ConceptUI>M{i:06d}{k}</ConceptUI>')
                f.write(f"<ConceptName><String>concept {i} {k}</String></ConceptName>\n")
                f.write(
                    f"   <ScopeNote>A made-up scope note of descriptor {i}, about as long as a real one.</ScopeNote>\n"
                )
                f.write("   <TermList>\n")
                for t in "abc":
                    f.write('    <Term ConceptPreferredTermYN="N" IsPermutedTermYN="N" LexicalTag="NON" ')
                    f.write('RecordPreferredTermYN="N">')
                    f.write(f"<TermUI>T{i:06d}{k}{t}</TermUI><String>entry term {i} {t}</String>{date}</Term>\n")
                f.write("   </TermList>\n  </Concept>\n")
            f.write(" </ConceptList>\n</DescriptorRecord>\n")
        f.write("</DescriptorRecordSet>\n")
    return path


# --------------------------------------------------------------------------------------------------


def _median_runs(kb_name: str, spec: dict[str, Any], runs: int) -> dict[str, Any]:
    results = []
    for _ in range(runs):
        code = (
            "import json, sys; from claimforge.kb.bench import one_run; "
            f"print(json.dumps(one_run({kb_name!r}, json.loads(sys.argv[1]))))"
        )
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        proc = subprocess.run(
            [sys.executable, "-c", code, json.dumps(spec)], capture_output=True, text=True, env=env, check=False
        )
        if proc.returncode != 0:
            return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed"}
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    merged = dict(results[0])
    for key in ("load_s", "load_cpu_s", "link_ms", "siblings_ms", "rss_mib"):
        merged[key] = statistics.median(r[key] for r in results)
    merged["runs"] = runs
    return merged


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kb", nargs="*", default=["wordnet", "go", "hpo"])
    parser.add_argument("--spec", default="{}", help="JSON config shared by the --kb runs (e.g. a path)")
    parser.add_argument("--synthetic-umls", type=int, default=0, metavar="N")
    parser.add_argument("--synthetic-mesh", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    rows = [(name, json.loads(args.spec), _median_runs(name, json.loads(args.spec), args.runs)) for name in args.kb]
    with tempfile.TemporaryDirectory() as tmp:
        if args.synthetic_umls:
            d = write_synthetic_umls(Path(tmp) / "umls", args.synthetic_umls)
            size = sum(p.stat().st_size for p in d.iterdir()) / 2**20
            spec = {"path": str(d)}
            rows.append(
                (
                    f"umls (synthetic {args.synthetic_umls:,}, {size:.0f} MiB)",
                    spec,
                    _median_runs("umls", spec, args.runs),
                )
            )
        if args.synthetic_mesh:
            p = write_synthetic_mesh(Path(tmp) / "desc2099.xml", args.synthetic_mesh)
            size = p.stat().st_size / 2**20
            spec = {"path": str(p)}
            rows.append(
                (
                    f"mesh (synthetic {args.synthetic_mesh:,}, {size:.0f} MiB)",
                    spec,
                    _median_runs("mesh", spec, args.runs),
                )
            )
    header = ["KB", "concepts", "aliases", "load (s)", "load CPU (s)", "link (ms)", "siblings (ms)", "RSS growth (MiB)"]
    print("| " + " | ".join([*header, "model id"]) + " |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, _, r in rows:
        if "error" in r:
            print(f"| {name} | — | — | — | — | — | — | — | not available: {r['error']} |")
            continue
        print(
            f"| {name} | {r['concepts']:,} | {r['aliases']:,} | {r['load_s']:.2f} | {r['load_cpu_s']:.2f} | "
            f"{r['link_ms']:.3f} | {r['siblings_ms']:.3f} | {r['rss_mib']:.0f} | `{r['model_id']}` |"
        )


if __name__ == "__main__":
    main()
