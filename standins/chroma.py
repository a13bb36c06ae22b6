"""A real Chroma server (the `chroma run` binary shipped with chromadb) on 127.0.0.1, on a free port."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from standins.processes import free_port, terminate


class ChromaServer:
    """Starts `chroma run --path DIR --host 127.0.0.1 --port P`; `.url` is its base URL. A context manager."""

    def __init__(self, start_timeout: float = 60.0) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="kgqa-chroma-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        binary = Path(sys.executable).with_name("chroma")
        self.log = (self.dir / "server.log").open("wb")
        self.proc = subprocess.Popen([str(binary), "run", "--path", str(self.dir / "data"), "--host", "127.0.0.1",
                                      "--port", str(self.port)], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + start_timeout
        while not self._up():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"the Chroma server did not start: {(self.dir / 'server.log').read_text()[-500:]}")
            time.sleep(0.05)  # polling a condition (the heartbeat), not waiting blind

    def _up(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/api/v2/heartbeat", timeout=1) as resp:
                return bool(resp.status == 200)
        except OSError:
            return False

    def close(self) -> None:
        terminate(self.proc, 10)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> ChromaServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
