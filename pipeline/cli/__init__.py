"""The `kgqa` command line: index, ask, chat, sparql, lookup, kg, team, mcp, eval; and, from ``tooling``,
models, bench and ablate."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pipeline.core import lookup
from pipeline.errors import ConfigError, KgqaError, StoreError
from pipeline.factory import build_index, build_pipeline, build_retriever, build_store, form_aware, warm_up
from pipeline.glance import textview
from pipeline.registry import generator_names, kg_names
from pipeline.settings import Settings
from pipeline.sparql.text import parses
from pipeline.store.chroma import ChromaStore
from pipeline.store.connection import ChromaConnection
from pipeline.store.team import JOURNAL, export_pairs, import_pairs


def _progress(total: int, _: int) -> Callable[[int], None]:
    from tqdm import tqdm

    bar = tqdm(total=total, desc="indexing", unit="pair", file=sys.stderr)
    update: Callable[[int], None] = bar.update
    return update


def cmd_index(args: argparse.Namespace, settings: Settings) -> int:
    if args.splits:
        settings = settings.with_(index_splits=args.splits)
    store, replaced = _store_to_index(settings, args.rebuild)
    rebuilt, count = build_index(settings, store, rebuild=args.rebuild, progress=_progress)
    journal = settings.home / JOURNAL
    if replaced and journal.is_file():
        with journal.open(encoding="utf-8") as lines:
            restored = import_pairs(store, lines, settings.max_question_chars)
        count = store.count()
        print(f"kgqa: restored {_pairs(restored.added)} from {journal}", file=sys.stderr)
    form_aware(settings, store).knowledge()  # derived once here and kept on disk, not in every new process
    team = len(store.examples("team"))
    state = "built" if rebuilt else "already up to date"
    print(f"example store {state}: {count} pairs ({count - team} from SciQA {settings.index_splits}, {team} from "
          f"the team) in {settings.chroma_url or settings.chroma_path}")
    broken = sum(1 for ex in store.examples() if not parses(ex.sparql))
    print(f"{broken} stored pairs have SPARQL that does not parse as SPARQL 1.1; they are never adapted")
    return 0


def _store_to_index(settings: Settings, rebuild: bool) -> tuple[ChromaStore, bool]:
    """The store, and whether it is a new one in place of an embedded store that could not be opened: the fix
    that error names is ``kgqa index --rebuild``, so with --rebuild the broken store is moved aside (kept)."""
    try:
        return build_store(settings), False
    except StoreError as exc:
        if not rebuild or settings.chroma_url:
            raise
        aside = ChromaConnection(settings.chroma_path, None, None).set_aside()
        cause = exc.__cause__ or exc
        print(f"kgqa: the example store at {settings.chroma_path} cannot be opened ({type(cause).__name__}: {cause}); "
              f"moved it to {aside} (kept) and building a new one", file=sys.stderr)
        return build_store(settings), True


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    with build_pipeline(settings, generator=args.generator, kg=args.kg, shots=args.shots) as pipe:
        answer = pipe.ask(args.question)
    print(json.dumps(answer.to_json(), ensure_ascii=False, indent=1) if args.json else textview.answer(answer))
    if args.chart:
        _write_chart(answer, Path(args.chart))
    return 0 if answer.outcome.ok else 3


def _write_chart(answer: Any, path: Path) -> None:
    """``ask --chart FILE``: the leaderboard's bar chart, or a line on stderr saying why there is none."""
    from pipeline.glance.chart import chart_png

    png = chart_png(answer.leaderboard) if answer.leaderboard else None
    if png is None:
        print("kgqa: no chart: the answer has no leaderboard with two or more numeric scores", file=sys.stderr)
        return
    try:
        path.write_bytes(png)
    except OSError as exc:
        raise ConfigError(f"cannot write the chart to {path}: {exc}") from exc
    print(f"kgqa: chart written to {path}", file=sys.stderr)


def cmd_chat(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.conversation.chat import PROMPT, chat
    from pipeline.names.check import label_index

    with build_pipeline(settings, generator=args.generator, kg=args.kg, shots=args.shots) as pipe:
        return chat(pipe, label_index(pipe), as_json=args.json, history=settings.home / "chat-history",
                    prompt=PROMPT if sys.stdin.isatty() else "")


def cmd_sparql(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.core import Bounds, Parts, Pipeline
    from pipeline.factory import build_kg

    kg = build_kg(settings, args.kg)
    from pipeline.eval.given import NoExamples

    with Pipeline(Parts(NoExamples(), _NoGenerator(), kg), Bounds.of(settings)) as pipe:
        answer = pipe.run_sparql(args.query)
    print(json.dumps(answer.to_json(), ensure_ascii=False, indent=1) if args.json else textview.answer(answer))
    return 0 if answer.outcome.ok else 3


def cmd_lookup(args: argparse.Namespace, settings: Settings) -> int:
    # the retriever questions and `/kgqa lookup` use: one ranking, one score scale
    found = lookup(build_retriever(settings), args.text, args.k, settings.max_question_chars)
    if args.json:
        print(json.dumps([{"id": r.example.id, "question": r.example.question, "sparql": r.example.sparql,
                           "template_id": r.example.template_id, "source": r.example.source,
                           "score": round(r.score, 4)} for r in found], ensure_ascii=False, indent=1))
    else:
        print(textview.examples(found) or "(the store is empty: run `kgqa index`)")
    return 0


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.eval.cli import run_eval_command

    # KGQA_LLM_FALLBACK holds here as everywhere: `none` scores the LLM alone, `adapter` the LLM backed by the adapter.
    def build(generator: str | None = None, shots: int | None = None, kg: str | None = None) -> Any:
        pipe = build_pipeline(settings, generator=generator, kg=kg, shots=shots)
        # as the bot does at its start: the questions' timings are a served bot's, not a cold start's
        took = warm_up(pipe)
        print("warmed up: " + ", ".join(f"{part} {s:.1f} s" for part, s in took.items()), file=sys.stderr)
        return pipe

    return run_eval_command(args, settings, build)


def cmd_kg_load(args: argparse.Namespace, settings: Settings) -> int:
    from tqdm import tqdm

    from pipeline.kg.dump import download, load_dump

    store_dir = Path(args.store).expanduser() if args.store else settings.kg_store
    source = args.source
    if source.startswith(("http://", "https://")):
        with tqdm(desc="downloading", unit="B", unit_scale=True, file=sys.stderr) as bar:
            path = download(source, settings.home / "downloads", bar.update)
    else:
        path = Path(source).expanduser()
    with tqdm(desc="loading", unit=" triples", unit_scale=True, file=sys.stderr) as bar:
        report = load_dump(path, store_dir, progress=bar.update)
    rate = report.triples / report.seconds if report.seconds else 0.0
    print(f"loaded {report.triples} triples from {report.files} files in {report.seconds:.1f} s ({rate:,.0f}/s); "
          f"{report.skipped_files} files were already loaded; store: {store_dir} (use --kg local)")
    return 0


def cmd_kg_labels(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.factory import build_kg
    from pipeline.names.lexicon import Lexicon

    source = Lexicon.of(settings, build_kg(settings, args.kg)).labels
    index = source.index(refresh=args.refresh)
    if args.json:
        print(json.dumps({"kg": source.kg.name, "cache": str(source.path or ""), "counts": index.counts()}, indent=1))
    else:
        counts = ", ".join(f"{n} {kind}" for kind, n in index.counts().items())
        print(f"{len(index)} labels of {source.kg.name}: {counts}" + (f" (cached in {source.path})" if source.path
                                                                          and source.path.is_file() else ""))
    return 0


def cmd_team(args: argparse.Namespace, settings: Settings) -> int:
    store = build_store(settings)
    where = settings.chroma_url or settings.chroma_path
    if args.team_command == "export":
        if args.file in (None, "-"):
            count = export_pairs(store, sys.stdout)
        else:
            with open(args.file, "w", encoding="utf-8") as out:
                count = export_pairs(store, out)
        print(f"exported {_pairs(count)} from {where}", file=sys.stderr)
        return 0
    try:
        with open(args.file, encoding="utf-8") as lines:
            report = import_pairs(store, lines, settings.max_question_chars)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {args.file}: {exc}") from exc
    print(f"imported {_pairs(report.added)} into {where}; skipped {len(report.skipped)}")
    for number, why in report.skipped:
        print(f"  line {number}: {why}", file=sys.stderr)
    return 3 if report.skipped else 0


def cmd_mcp(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.mcp.server import serve

    serve(lambda: build_pipeline(settings, generator=args.generator, kg=args.kg, shots=args.shots), settings,
          http=args.http, host=args.host, port=args.port)
    return 0


def _pairs(count: int) -> str:
    return f"{count} team pair{'' if count == 1 else 's'}"


class _NoGenerator:
    name = "none"

    def generate(self, question: str, examples: Sequence[Any]) -> Any:
        raise KgqaError("no generator is configured for raw SPARQL")

    def ping(self, timeout: float = 2.0) -> bool:
        return True  # nothing to reach


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kgqa", description="Ask the Open Research Knowledge Graph in plain words.")
    sub = p.add_subparsers(dest="command", required=True)
    ix = sub.add_parser("index", help="build or update the example store (idempotent)")
    ix.add_argument("--splits", help="SciQA splits to index, comma-separated (default: train)")
    ix.add_argument("--rebuild", action="store_true", help="rebuild even when up to date")
    ix.set_defaults(func=cmd_index)
    ask = sub.add_parser("ask", help="answer a question")
    ask.add_argument("question")
    ask.add_argument("--shots", type=int, choices=(1, 3, 5))
    ask.add_argument("--generator", help=f"{generator_names()} (default: tgi if KGQA_TGI_URL is set, else adapter)")
    ask.add_argument("--kg", help=f"{kg_names()} (default: auto)")
    ask.add_argument("--json", action="store_true")
    ask.add_argument("--chart", metavar="FILE.png", help="write the leaderboard's bar chart (rankings) to FILE.png")
    ask.set_defaults(func=cmd_ask)
    talk = sub.add_parser("chat", help="a conversation in the terminal (follow-ups refer to earlier questions)")
    talk.add_argument("--shots", type=int, choices=(1, 3, 5))
    talk.add_argument("--generator")
    talk.add_argument("--kg")
    talk.add_argument("--json", action="store_true", help="one JSON object per answer")
    talk.set_defaults(func=cmd_chat)
    sp = sub.add_parser("sparql", help="run a read-only SPARQL query")
    sp.add_argument("query")
    sp.add_argument("--kg", help=f"{kg_names()} (default: auto)")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_sparql)
    lk = sub.add_parser("lookup", help="the stored question->SPARQL pairs most similar to TEXT")
    lk.add_argument("text")
    lk.add_argument("-k", type=int, default=5)
    lk.add_argument("--json", action="store_true")
    lk.set_defaults(func=cmd_lookup)
    kg = sub.add_parser("kg", help="manage the local knowledge graph store").add_subparsers(dest="kg_command",
                                                                                           required=True)
    load = kg.add_parser("load", help="bulk-load an ORKG RDF dump (file, folder or URL; resumable)")
    load.add_argument("source")
    load.add_argument("--store", help="the pyoxigraph store folder (default: $KGQA_HOME/kg)")
    load.set_defaults(func=cmd_kg_load)
    labels = kg.add_parser("labels", help="the graph's labels by kind, used to resolve loosely typed names")
    labels.add_argument("--kg", help="the KG target (default: KGQA_KG)")
    labels.add_argument("--refresh", action="store_true", help="fetch them again now (else cached for a week)")
    labels.add_argument("--json", action="store_true")
    labels.set_defaults(func=cmd_kg_labels)
    from pipeline.kg.sciqa_graph.cli import add_commands

    add_commands(kg)
    from pipeline.cli.vocabulary import add_commands as add_vocabulary

    add_vocabulary(kg)
    team = sub.add_parser("team", help="the team's taught pairs as a JSON-lines file (backup, moving stores)")
    team_sub = team.add_subparsers(dest="team_command", required=True)
    export = team_sub.add_parser("export", help="write the team's pairs, one JSON object per line")
    export.add_argument("file", nargs="?", help="where to write (default: standard output)")
    imported = team_sub.add_parser("import", help="add pairs from a file written by export (checked like teaching)")
    imported.add_argument("file")
    team.set_defaults(func=cmd_team)
    mcp = sub.add_parser("mcp", help="serve the pipeline as MCP tools (stdio; --http for streamable HTTP)")
    mcp.add_argument("--http", action="store_true", help="streamable HTTP on KGQA_MCP_HOST:KGQA_MCP_PORT, path /mcp "
                                                         "(a bearer token, KGQA_MCP_TOKEN, is required beyond "
                                                         "loopback)")
    mcp.add_argument("--host", help="listen address with --http (default: KGQA_MCP_HOST, 127.0.0.1)")
    mcp.add_argument("--port", type=int, help="port with --http (default: KGQA_MCP_PORT, 8765)")
    mcp.add_argument("--shots", type=int, choices=(1, 3, 5))
    mcp.add_argument("--generator")
    mcp.add_argument("--kg")
    mcp.set_defaults(func=cmd_mcp)
    ev = sub.add_parser("eval", help="score the system on SciQA question sets")
    from pipeline.eval.arguments import add_eval_arguments

    add_eval_arguments(ev)
    ev.set_defaults(func=cmd_eval)
    from pipeline.cli.tooling import add_commands as add_tooling

    add_tooling(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.func(args, Settings.from_env()))
    except KgqaError as exc:
        print(f"kgqa: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


READ_ONLY = frozenset({"ask", "sparql", "lookup"})  # commands after which nothing is left to write


def run(argv: Sequence[str] | None = None) -> None:
    """The ``kgqa`` command: ``main``, then the exit. After a read-only command the process ends as soon as its
    output is flushed: the native libraries' teardown (torch, Chroma, tokenizers) takes about a second of a cold
    ``kgqa ask`` and changes nothing on disk."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        code = main(argv)
        sys.stdout.flush()
    except BrokenPipeError:  # `kgqa … | head`: the reader has what it wanted; the rest goes nowhere, no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    if argv and argv[0] in READ_ONLY:
        logging.shutdown()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
