"""`kgqa kg load`: split and compressed N-Triples dumps into an on-disk store, resumable, from a file or a URL."""
from __future__ import annotations

import bz2
import gzip
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pyoxigraph as ox
import pytest

from pipeline.cli import main
from pipeline.kg.dump import MANIFEST, download, load_dump
from standins.orkg_fixture import ntriples


def split_dump(folder: Path) -> int:
    """The fixture graph as three files: plain, gzip and bzip2. Returns the triple count."""
    lines = ntriples().splitlines(keepends=True)
    third = len(lines) // 3
    folder.mkdir()
    (folder / "part-1.nt").write_text("".join(lines[:third]))
    with gzip.open(folder / "part-2.nt.gz", "wt") as fh:
        fh.write("".join(lines[third:2 * third]))
    with bz2.open(folder / "part-3.nt.bz2", "wt") as fh:
        fh.write("".join(lines[2 * third:]))
    return len(lines)


def count(store_dir: Path) -> int:
    return len(ox.Store(str(store_dir)))


def test_a_split_compressed_dump_loads_and_reruns_skip_it(tmp_path: Path) -> None:
    total = split_dump(tmp_path / "dump")
    report = load_dump(tmp_path / "dump", tmp_path / "store", chunk_lines=40)
    assert (report.files, report.triples) == (3, total) and count(tmp_path / "store") == total
    again = load_dump(tmp_path / "dump", tmp_path / "store")
    assert (again.files, again.skipped_files, again.triples) == (0, 3, 0)


def test_an_interrupted_load_resumes_where_it_stopped(tmp_path: Path) -> None:
    total = split_dump(tmp_path / "dump")
    seen: list[int] = []

    def kill_after_two_chunks(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt  # as if the process were stopped right after a chunk was committed

    with pytest.raises(KeyboardInterrupt):
        load_dump(tmp_path / "dump", tmp_path / "store", chunk_lines=30, progress=kill_after_two_chunks)
    assert (tmp_path / "store" / MANIFEST).is_file()
    resumed = load_dump(tmp_path / "dump", tmp_path / "store", chunk_lines=30)
    assert resumed.triples == total - 60 and count(tmp_path / "store") == total


class RangeHandler(BaseHTTPRequestHandler):
    body = b""

    def do_GET(self) -> None:
        start = int(self.headers.get("Range", "bytes=0-")[6:].split("-")[0])
        self.send_response(206 if start else 200)
        self.send_header("Content-Length", str(len(self.body) - start))
        self.end_headers()
        self.wfile.write(self.body[start:])

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def dump_server() -> Iterator[str]:
    RangeHandler.body = gzip.compress(ntriples().encode())
    server = ThreadingHTTPServer(("127.0.0.1", 0), RangeHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/orkg-dump.nt.gz"
    server.shutdown()
    server.server_close()


def test_a_url_downloads_resuming_a_partial_file(tmp_path: Path, dump_server: str) -> None:
    (tmp_path / "dl").mkdir()
    (tmp_path / "dl" / "orkg-dump.nt.gz.part").write_bytes(RangeHandler.body[:100])
    path = download(dump_server, tmp_path / "dl")
    assert path.read_bytes() == RangeHandler.body


def test_the_cli_loads_and_the_local_target_answers(tmp_path: Path, dump_server: str, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KGQA_HOME", str(tmp_path / "home"))
    assert main(["kg", "load", dump_server]) == 0
    assert f"loaded {len(ntriples().splitlines())} triples from 1 files" in capsys.readouterr().out
    assert main(["sparql", "--kg", "local", "--json", "ASK { ?d a orkgc:Dataset }"]) == 0
    assert '"boolean": true' in capsys.readouterr().out
