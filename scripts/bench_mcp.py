"""Per-call overhead of `kgqa mcp` over the pipeline it serves (adapter + snapshot, the store in $KGQA_HOME).

Usage: python scripts/bench_mcp.py [--questions final] [--n 100]
Each question is asked through `ask` over stdio and over streamable HTTP on loopback (`kgqa mcp` subprocesses driven
by the SDK's client), and, for scale, of the pipeline in this process, interleaved so that the machine's noise falls
on all alike. Overhead of a call = its round trip at the client minus the pipeline's own time for it, measured
inside the server (`provenance.elapsed_ms`): what MCP adds (JSON-RPC, validation, admission, the worker hop, the
transport), free of the differences between processes. Prints a markdown table for docs/results/speed.md.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from pipeline.factory import build_pipeline
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings

REPO = Path(__file__).resolve().parents[1]
ARGS = ["-m", "pipeline", "mcp", "--kg", "snapshot", "--generator", "adapter"]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_http(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, *ARGS, "--http", "--port", str(port)], cwd=REPO, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.1)  # polling the port while the server loads its encoder
    process.kill()
    raise SystemExit("kgqa mcp --http did not start")


async def measure(questions: list[str], env: dict[str, str], url: str) -> dict[str, list[float]]:
    settings = Settings.from_env().with_(kg="snapshot", generator="adapter")
    pipe = build_pipeline(settings)
    times: dict[str, list[float]] = {"in-process": [], "stdio": [], "http": []}
    overhead: dict[str, list[float]] = {"stdio": [], "http": []}
    errors = {"stdio": 0, "http": 0}
    stdio = Client(StdioServerParameters(command=sys.executable, args=ARGS, env=env, cwd=str(REPO)))
    async with stdio, Client(url) as http:
        warm = "warm-up: which models were evaluated on SQuAD?"
        pipe.ask(warm)
        await stdio.call_tool("ask", {"question": warm})
        await http.call_tool("ask", {"question": warm})
        for q in questions:
            start = time.perf_counter()
            pipe.ask(q)
            times["in-process"].append((time.perf_counter() - start) * 1000)
            for name, client in (("stdio", stdio), ("http", http)):
                start = time.perf_counter()
                result = await client.call_tool("ask", {"question": q})
                times[name].append((time.perf_counter() - start) * 1000)
                if result.is_error or not result.structured_content:  # a declined question: no inner time
                    errors[name] += 1
                    continue
                overhead[name].append(times[name][-1] - result.structured_content["provenance"]["elapsed_ms"])
    print(f"tool errors (left out of the overhead): {errors}", file=sys.stderr)
    return times, overhead


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", default="final", choices=("dev", "final"))
    ap.add_argument("--n", type=int, default=100)
    args = ap.parse_args()
    settings = Settings.from_env()
    questions = [q for _, q in sciqa_for(settings).challenge(args.questions)][: args.n]
    env = {**os.environ, "KGQA_USER_QUESTIONS": "1000000", "PYTHONPATH": str(REPO)}
    http_server, url = start_http(env)
    try:
        times, overhead = anyio.run(measure, questions, env, url)
    finally:
        http_server.terminate()
        http_server.wait(30)
    print(f"| `ask`, {len(questions)} `{args.questions}` questions | round trip p50 ms | p95 ms | MCP overhead "
          "p50 ms | overhead p95 ms |")
    print("|---|---|---|---|---|")
    for name, values in times.items():
        extra = overhead.get(name)
        cells = f"{pct(extra, .5):.1f} | {pct(extra, .95):.1f}" if extra else "— | —"
        print(f"| {name} | {pct(values, .5):.1f} | {pct(values, .95):.1f} | {cells} |")
    print(f"\nmean in-process: {statistics.mean(times['in-process']):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
