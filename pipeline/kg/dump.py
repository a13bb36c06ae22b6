"""Bulk-loading an ORKG RDF dump (N-Triples, possibly split and compressed) into an on-disk pyoxigraph store.

Resumable: N-Triples files load in chunks of lines, and after each chunk the byte offset reached is written to a
manifest beside the store; a rerun skips what is done. Loading a chunk twice is harmless (an RDF store is a set).
"""
from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pyoxigraph as ox

from pipeline.errors import ConfigError
from pipeline.kg.oxigraph import open_rdf, rdf_files, rdf_format

CHUNK_LINES = 200_000
MANIFEST = "kgqa-load-manifest.json"


@dataclass
class LoadReport:
    files: int = 0
    skipped_files: int = 0
    triples: int = 0
    seconds: float = 0.0


def _is_ntriples(path: Path) -> bool:
    name = path.name.removesuffix(".gz").removesuffix(".bz2")
    return name.endswith((".nt", ".ntriples", ".nq", ".nquads"))


class Manifest:
    """What has been loaded: file -> {"size", "mtime", "offset", "done"}; written atomically."""

    def __init__(self, store_dir: Path) -> None:
        self.path = store_dir / MANIFEST
        self.data: dict[str, dict[str, float | int | bool]] = (
            json.loads(self.path.read_text()) if self.path.is_file() else {})

    def entry(self, path: Path) -> dict[str, float | int | bool]:
        st = path.stat()
        key = str(path.resolve())
        current = self.data.get(key)
        if not current or current.get("size") != st.st_size or current.get("mtime") != st.st_mtime:
            current = {"size": st.st_size, "mtime": st.st_mtime, "offset": 0, "done": False}
            self.data[key] = current
        return current

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data, indent=1))
        os.replace(tmp, self.path)


def _chunks(stream: IO[bytes], start: int, lines: int) -> Iterator[tuple[bytes, int]]:
    """(chunk, offset after it) from ``start``, in whole lines; offsets count uncompressed bytes."""
    offset = 0
    while offset < start:  # a compressed stream cannot seek: read up to where the last run stopped
        skipped = stream.read(min(1 << 20, start - offset))
        if not skipped:
            return
        offset += len(skipped)
    buf: list[bytes] = []
    for line in stream:
        buf.append(line)
        offset += len(line)
        if len(buf) >= lines:
            yield b"".join(buf), offset
            buf = []
    if buf:
        yield b"".join(buf), offset


def download(url: str, target_dir: Path, progress: Callable[[int], None] | None = None) -> Path:
    """Fetch a dump to ``target_dir``, resuming a partial download with an HTTP Range request."""
    target_dir.mkdir(parents=True, exist_ok=True)
    name = url.rstrip("/").rsplit("/", 1)[-1] or "dump.nt"
    final, part = target_dir / name, target_dir / (name + ".part")
    if final.is_file():
        return final
    have = part.stat().st_size if part.is_file() else 0
    request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as resp, \
                part.open("ab" if resp.status == 206 else "wb") as out:
            for block in iter(lambda: resp.read(1 << 20), b""):
                out.write(block)
                if progress:
                    progress(len(block))
    except OSError as exc:
        raise ConfigError(f"cannot download {url}: {exc}; run the same command again to resume") from exc
    os.replace(part, final)
    return final


def load_dump(source: Path, store_dir: Path, *, chunk_lines: int = CHUNK_LINES,
              progress: Callable[[int], None] | None = None) -> LoadReport:
    """Load every RDF file under ``source`` into the store at ``store_dir``, resuming where a previous run stopped."""
    start = time.perf_counter()
    store_dir.mkdir(parents=True, exist_ok=True)
    store = ox.Store(str(store_dir))
    manifest = Manifest(store_dir)
    report = LoadReport()
    for path in rdf_files(source):
        entry = manifest.entry(path)
        if entry["done"]:
            report.skipped_files += 1
            continue
        fmt = rdf_format(path)
        with open_rdf(path) as stream:
            if _is_ntriples(path):
                for chunk, offset in _chunks(stream, int(entry["offset"]), chunk_lines):
                    store.bulk_load(chunk, format=fmt)
                    entry["offset"] = offset
                    manifest.save()
                    report.triples += chunk.count(b"\n")
                    if progress:
                        progress(chunk.count(b"\n"))
            else:
                store.bulk_load(stream, format=fmt, base_iri=path.resolve().as_uri())
        entry["done"] = True
        manifest.save()
        report.files += 1
    store.flush()
    report.seconds = time.perf_counter() - start
    return report
