"""`kgqa mcp` as its users run it: a subprocess spoken to by the SDK's own client, over stdio or streamable HTTP."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO, TypeVar

import anyio
import httpx2
import mcp.client.stdio
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from pipeline.settings import Settings
from standins.processes import free_port

REPO = Path(__file__).resolve().parents[2]
STORY_CLOZE = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"
T = TypeVar("T")


def server_env(settings: Settings, **extra: str) -> dict[str, str]:
    """What the server process sees: the test's home and SciQA, generous per-caller limits, nothing else of ours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KGQA_", "SLACK_"))}
    env.update({"KGQA_HOME": str(settings.home), "SCIQA_DIR": str(settings.sciqa_dir), "ANONYMIZED_TELEMETRY": "False",
                "KGQA_USER_QUESTIONS": "100000", "PYTHONPATH": str(REPO)})
    env.update(extra)
    return env


def stdio_client(env: dict[str, str], *args: str, errlog: TextIO = sys.stderr) -> Client:
    """The SDK client, launching ``kgqa mcp ARGS`` over stdio; the server's stderr goes to ``errlog``."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "pipeline", "mcp", *args], env=env,
                                   cwd=str(REPO))
    return Client(mcp.client.stdio.stdio_client(params, errlog=errlog), read_timeout_seconds=300)


def http_client(url: str, token: str | None = None) -> Client:
    """The SDK client over streamable HTTP, sending ``token`` as a bearer token when given."""
    return Client(_http_transport(url, {"Authorization": f"Bearer {token}"} if token is not None else {}),
                  read_timeout_seconds=300)


@asynccontextmanager
async def _http_transport(url: str, headers: dict[str, str]) -> AsyncIterator[Any]:
    async with httpx2.AsyncClient(headers=headers, timeout=300) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams


def run(scenario: Callable[[], Awaitable[T]]) -> T:
    return anyio.run(scenario)


class HttpServer:
    """``kgqa mcp --http`` on a free loopback port; ``url`` once it accepts connections."""

    def __init__(self, env: dict[str, str], *args: str, host: str = "127.0.0.1") -> None:
        self.port = free_port()
        self.url = f"http://{host}:{self.port}/mcp"
        self.args = ["-m", "pipeline", "mcp", "--http", "--host", host, "--port", str(self.port), *args]
        self.env = env
        self.host = host
        self.process: subprocess.Popen[str] | None = None

    def __enter__(self) -> HttpServer:
        self.process = subprocess.Popen([sys.executable, *self.args], cwd=REPO, env=self.env, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"kgqa mcp --http ended with {self.process.returncode}: {self.stop()[1][-2000:]}")
            try:
                socket.create_connection((self.host, self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)  # polling the port: the server loads its encoder first
        self.stop()
        raise TimeoutError("kgqa mcp --http did not listen within 300 s")

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def stop(self) -> tuple[str, str]:
        """Ends the server; its (stdout, stderr)."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.terminate()
        try:
            return self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.communicate()


def structured(result: CallToolResult) -> Any:
    """A successful call's structured result (a list tool's list unwrapped)."""
    assert not result.is_error, text(result)
    data = result.structured_content
    assert data is not None
    return data["result"] if set(data) == {"result"} else data


def text(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def flat(rows: list[dict[str, str]], vars_: list[str]) -> list[str]:
    return [row[v] for row in rows for v in vars_ if v in row]


def forms(raw: str) -> list[dict[str, Any]]:
    return list(json.loads(raw))
