"""Virtuoso (the engine ORKG runs on) on loopback, on free ports, in a temporary folder, for integration tests.

Needs Debian's ``virtuoso-opensource-7-bin`` (``.ci/virtuoso.sh`` installs it): ``/usr/bin/virtuoso-t`` and
``/usr/bin/isql-vt``. Its /sparql endpoint answers queries without FROM over the union of all graphs.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from types import TracebackType

from standins.processes import free_port

VIRTUOSO = "virtuoso-t"
ISQL = "isql-vt"

INI = """\
[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:{sql_port}
ServerThreads = 10
CheckpointInterval = 0
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
MaxQueryMem = 200M
DirsAllowed = ., {dir}

[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {dir}
ServerThreads = 4
MaxClientConnections = 4
EnabledDavVSP = 0

[SPARQL]
ResultSetMaxRows = 10000
MaxQueryExecutionTime = 60
"""


class VirtuosoError(RuntimeError):
    """Virtuoso would not start or load; the message carries the end of its log."""


class VirtuosoServer:
    """``with VirtuosoServer(nt_file) as v: EndpointKG(v.endpoint)`` -- a fresh database, deleted on exit."""

    def __init__(self, ntriples: str | Path | None = None, graph: str = "http://orkg.org/orkg/fixture",
                 start_timeout: float = 60.0) -> None:
        self.ntriples = Path(ntriples) if ntriples is not None else None
        self.graph = graph
        self.start_timeout = start_timeout
        self.dir = Path(tempfile.mkdtemp(prefix="virtuoso-"))
        self.sql_port = free_port()
        self.http_port = free_port()
        while self.http_port == self.sql_port:
            self.http_port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.startup_seconds = 0.0
        self.load_seconds = 0.0

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/sparql"

    def __enter__(self) -> VirtuosoServer:
        try:
            self.start()
            if self.ntriples is not None:
                self.load(self.ntriples)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def start(self) -> None:
        binary = shutil.which(VIRTUOSO)
        if binary is None:
            raise VirtuosoError(f"{VIRTUOSO} is not installed; run .ci/virtuoso.sh")
        ini = self.dir / "virtuoso.ini"
        ini.write_text(INI.format(dir=self.dir, sql_port=self.sql_port, http_port=self.http_port))
        started = time.monotonic()
        with (self.dir / "stdout.log").open("wb") as log:
            self.process = subprocess.Popen([binary, "+configfile", str(ini), "+foreground"], cwd=self.dir,
                                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self._wait_until_answering(started + self.start_timeout)
        self.startup_seconds = time.monotonic() - started

    def _wait_until_answering(self, deadline: float) -> None:
        url = self.endpoint + "?" + urllib.parse.urlencode({"query": "ASK {}"})
        request = urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never via a proxy
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                raise VirtuosoError(f"virtuoso-t exited with {self.process.returncode}: {self.log_tail()}")
            try:
                with opener.open(request, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass  # not listening yet
            if time.monotonic() > deadline:
                raise VirtuosoError(f"virtuoso did not answer on {self.endpoint} in {self.start_timeout:g} s: "
                                    f"{self.log_tail()}")
            try:  # wait for the process to exit, at most a tick: a bounded poll, not a guess at readiness
                self.process.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                pass

    def load(self, ntriples: Path) -> int:
        """Bulk-load an N-Triples file into ``self.graph``; returns the number of triples now in the graph."""
        started = time.monotonic()
        staged = self.dir / "load" / ntriples.name  # Virtuoso reads only from DirsAllowed
        staged.parent.mkdir(exist_ok=True)
        shutil.copyfile(ntriples, staged)
        self.isql(f"ld_dir('{staged.parent}', '{staged.name}', '{self.graph}'); rdf_loader_run(); checkpoint;")
        errors = self.isql("SELECT ll_file, ll_error FROM DB.DBA.load_list WHERE ll_error IS NOT NULL;")
        if "0 Rows." not in errors:
            raise VirtuosoError(f"virtuoso could not load {ntriples}: {errors}")
        count = self.count()
        expected = len({line.strip() for line in ntriples.read_text(encoding="utf-8").splitlines()
                        if line.strip() and not line.lstrip().startswith("#")})
        if count != expected:
            raise VirtuosoError(f"virtuoso loaded {count} of the {expected} triples in {ntriples}")
        self.load_seconds = time.monotonic() - started
        return count

    def count(self) -> int:
        out = self.isql(f"SPARQL SELECT COUNT(*) WHERE {{ GRAPH <{self.graph}> {{ ?s ?p ?o }} }};")
        numbers = [line.strip() for line in out.splitlines() if line.strip().isdigit()]
        if not numbers:
            raise VirtuosoError(f"cannot count the triples in <{self.graph}>: {out}")
        return int(numbers[0])

    def isql(self, statements: str, timeout: float = 120.0) -> str:
        """Run SQL through isql-vt as dba; returns its output, raises on an error."""
        binary = shutil.which(ISQL)
        if binary is None:
            raise VirtuosoError(f"{ISQL} is not installed; run .ci/virtuoso.sh")
        done = subprocess.run([binary, f"127.0.0.1:{self.sql_port}", "dba", "dba", f"exec={statements}"],
                              capture_output=True, text=True, timeout=timeout, cwd=self.dir, check=False)
        out = done.stdout + done.stderr
        if done.returncode != 0 or "*** Error" in out:
            raise VirtuosoError(f"isql failed ({done.returncode}): {out.strip()[-1500:]}")
        return out

    def log_tail(self, lines: int = 20) -> str:
        parts = []
        for name in ("virtuoso.log", "stdout.log"):
            path = self.dir / name
            if path.exists():
                parts += path.read_text(errors="replace").splitlines()[-lines:]
        return "\n".join(parts)

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # the database is thrown away, so no clean shutdown is needed
            self.process.wait(timeout=30)
        self.process = None
        shutil.rmtree(self.dir, ignore_errors=True)
