"""llama.cpp's own HTTP server (the ``xllamacpp`` wheel) in a child process on loopback, started once per process at
the first question and shared by every question and worker; started again when it has died.

A child, not a thread: a model that exhausts memory or crashes takes only the child down, the bot answers on (the
adapter fallback), and the next question starts it again. ``python -m pipeline.generators.llamacpp CONFIG`` is the
child: it serves the model, prints ``{"url": ...}`` on stdout once ready, and exits when its stdin closes (so it
never outlives the process that started it)."""
from __future__ import annotations

import json
import logging
import os
import selectors
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from pipeline.errors import ModelUnavailable
from pipeline.generators.gguf import MB, available_memory, check_fits, read_model
from pipeline.settings import Settings

log = logging.getLogger("kgqa.local")
LOAD_TIMEOUT_S = 600.0  # reading a model from a cold disk on a slow box; a load is never retried within a question


@dataclass(frozen=True)
class ServerConfig:
    """What the server is started with (``KGQA_LOCAL_*``)."""

    model: str
    threads: int | None  # None: every core
    context: int
    slots: int
    draft: str  # speculative drafting from the text so far (the prompt's examples): exact, greedy; or "none"
    draft_ngram: int  # tokens matched to find where in the text to copy a draft from
    draft_max: int  # tokens drafted at once

    @classmethod
    def of(cls, settings: Settings, model: str) -> ServerConfig:
        """How ``settings`` (``KGQA_LOCAL_*``) start the server for the GGUF file ``model``."""
        return cls(model, settings.local_threads, settings.local_context, settings.local_slots, settings.local_draft,
                   settings.local_draft_ngram, settings.local_draft_max)

    @property
    def cores(self) -> int:
        return self.threads or os.cpu_count() or 1


class LlamaServer:
    """The one llama.cpp child for a model: ``url()`` starts it when it is not running (thread-safe; the callers
    wait for one load), and says why in one line when it cannot."""

    def __init__(self, config: ServerConfig, log_path: Path | None = None) -> None:
        self.config = config
        self.log_path = log_path
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._url = ""
        self._broken: tuple[tuple[int, float], str] | None = None  # (file size, mtime) that failed to load, why
        self.starts = 0

    @property
    def pid(self) -> int | None:
        """The server process's id while one was started (for an operator, or a test, to signal it)."""
        return self._proc.pid if self._proc is not None else None

    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def url(self) -> str:
        """The running server's base URL (``http://127.0.0.1:PORT``), starting it first when needed."""
        with self._lock:
            if self.running():
                return self._url
            if self._proc is not None:
                log.warning("the local model server stopped (%s); starting it again", self.exit_reason())
                _end(self._proc)
                self._proc = None
            self._start()
            return self._url

    def died(self, within: float = 2.0) -> bool:
        """Whether the server has exited, waiting up to ``within`` s for a dying one to be gone."""
        if self._proc is None:
            return False
        try:
            self._proc.wait(within)
        except subprocess.TimeoutExpired:
            return False
        return True

    def exit_reason(self) -> str:
        code = self._proc.poll() if self._proc is not None else None
        if code is None:
            return "still running"
        if code < 0:
            return f"killed by signal {-code}" + (", likely out of memory" if code == -9 else "")
        return f"exit status {code}"

    def stop(self) -> None:
        with self._lock:
            if self._proc is not None:
                _end(self._proc)

    def _start(self) -> None:
        path = Path(self.config.model)
        stamp = _stamp(path)
        if self._broken is not None and self._broken[0] == stamp:
            raise ModelUnavailable(self._broken[1])  # the same file failed to load before: not loaded again
        model = read_model(path)
        check_fits(model, self.config.context, self.config.slots, available_memory())
        _say(f"loading the local model {path.name} ({model.size // MB:,} MB, {self.config.cores} threads, "
             f"{self.config.context}-token context, {self.config.slots} slot(s))…")
        started = time.monotonic()
        stderr = self._log()
        proc = subprocess.Popen([sys.executable, "-m", "pipeline.generators.llamacpp", json.dumps(asdict(self.config))],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        if not isinstance(stderr, int):
            stderr.close()  # the child holds its own copy
        try:
            self._url = _ready(proc, started + LOAD_TIMEOUT_S)
        except ModelUnavailable as exc:
            _end(proc)
            why = f"the local model {path.name} did not load: {exc}{self._last_log_line()}"
            self._broken = (stamp, why)
            raise ModelUnavailable(why) from None
        self._proc = proc
        self.starts += 1
        _say(f"the local model is ready ({time.monotonic() - started:.1f} s)")

    def _log(self) -> IO[bytes] | int:
        if self.log_path is None:
            return subprocess.DEVNULL
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        return self.log_path.open("ab")

    def _last_log_line(self) -> str:
        """llama.cpp's last error line, which says why a load failed."""
        if self.log_path is None or not self.log_path.is_file():
            return ""
        with self.log_path.open("rb") as f:
            f.seek(max(0, self.log_path.stat().st_size - 20_000))
            lines = [ln.decode("utf-8", "replace").strip() for ln in f.read().splitlines()]
        errors = [ln for ln in lines if " E " in f" {ln} " or "error" in ln.lower()]
        return f" ({errors[-1][:200]})" if errors else ""


def _end(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            pipe.close()


def _stamp(path: Path) -> tuple[int, float]:
    try:
        st = path.stat()
        return st.st_size, st.st_mtime
    except OSError:
        return -1, 0.0


def _say(line: str) -> None:
    """Progress for whoever watches: one stderr line (the CLI's user, the bot's log)."""
    log.info(line)
    print(f"kgqa: {line}", file=sys.stderr, flush=True)


def _ready(proc: subprocess.Popen[bytes], until: float) -> str:
    """The URL the child prints once its model is loaded; ``ModelUnavailable`` when it exits or takes too long."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            left = until - time.monotonic()
            if left <= 0:
                raise ModelUnavailable(f"not ready after {LOAD_TIMEOUT_S:.0f} s")
            if not sel.select(min(left, 1.0)):
                continue
            line = proc.stdout.readline()
            if not line:
                code = proc.wait(10)
                raise ModelUnavailable(f"its server exited ({'signal ' + str(-code) if code < 0 else code})")
            try:
                return str(json.loads(line)["url"])
            except (ValueError, KeyError, TypeError):
                continue  # a stray line from the library


def serve(config: ServerConfig) -> None:
    """The child: load and serve until stdin closes."""
    import xllamacpp

    server = xllamacpp.Server(launch_params(config))
    print(json.dumps({"url": server.listening_address}), flush=True)
    sys.stdin.buffer.read()  # until the parent closes the pipe (or dies)
    del server


def launch_params(config: ServerConfig) -> Any:
    """llama.cpp's parameters for ``config`` (an ``xllamacpp.CommonParams``; nothing is loaded yet)."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = config.model
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # a free port, reported back through listening_address
    params.n_ctx = config.context
    params.n_parallel = config.slots
    params.cpuparams.n_threads = config.cores
    params.cpuparams_batch.n_threads = config.cores
    params.use_jinja = True  # the model's own chat template
    params.warmup = False
    # Greedy decoding verifies every drafted token against the model's own choice, so a draft changes the cost,
    # never the text: the model's query is mostly a copy of an example with a few names changed
    # (docs/results/llm.md, "The local LLM's cost per question, and the exact speedups").
    params.speculative.types = [_speculative_type(config.draft)]
    params.speculative.ngram_simple.size_n = config.draft_ngram
    params.speculative.ngram_simple.size_m = config.draft_max
    params.speculative.draft.n_max = config.draft_max
    return params


def _speculative_type(name: str) -> Any:
    import xllamacpp

    return getattr(xllamacpp.common_speculative_type, "COMMON_SPECULATIVE_TYPE_" + name.upper().replace("-", "_"))


if __name__ == "__main__":
    serve(ServerConfig(**json.loads(sys.argv[1])))
