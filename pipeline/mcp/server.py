"""The MCP server: the tools and resources registered on the SDK's ``MCPServer``, each call admitted through the
shared load limits (``admission``) and run in a worker."""
from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import Field, ValidationError

from pipeline.core import Pipeline
from pipeline.mcp.admission import Admission
from pipeline.mcp.auth import http_auth
from pipeline.mcp.tools import MAX_K, AskResult, LabelMatch, QueryRows, StoredPair, ToolRefusal, Tools
from pipeline.names.index import KINDS
from pipeline.settings import Settings, revealed
from pipeline.state.admission.pool import WorkerPool
from pipeline.state.limits.memory import MAX_KEYS, RateLimiter

T = TypeVar("T")
NAME = "kgqa"
INSTRUCTIONS = (
    "Answers questions about scholarly knowledge in the Open Research Knowledge Graph (ORKG): benchmarks, datasets, "
    "models, metrics and their scores, papers and research fields. Prefer `ask` for a question in words; it returns "
    "the SPARQL it ran, so you can refine it with `run_sparql`. `similar_questions` shows how the team's stored "
    "questions were written in SPARQL. `find_label` tells what the graph calls a name before you filter on it. "
    "The resources hold the ORKG prefixes and the question forms the store knows."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True)


def caller(ctx: Context) -> str:
    """Whose limit a call counts against: the HTTP session (or the peer), or the one stdio client."""
    headers = ctx.headers
    if headers is None:
        return "stdio"
    request = ctx.request_context.request
    peer = getattr(getattr(request, "client", None), "host", "") or "?"
    return "http:" + (headers.get("mcp-session-id") or peer)


class KgqaMCP(MCPServer):
    """MCPServer whose tool errors are one line: the SDK reports wrong arguments with pydantic's multi-line text."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context | None = None) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, ValidationError):
                raise
            first = cause.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "arguments"
            raise ToolError(f"wrong arguments for {name}: {where}: {first['msg']}") from cause


def create_server(pipeline: Pipeline, settings: Settings, *, pool: WorkerPool | None = None,
                  limiter: RateLimiter | None = None, auth: tuple[Any, Any] = (None, None)) -> KgqaMCP:
    """The server over ``pipeline``; ``pool`` and ``limiter`` may be shared with another front end in the process."""
    from pipeline.names.lexicon import Lexicon

    lexicon = pipeline.lexicon or Lexicon.of(settings, pipeline.kg)  # one built by hand has none of its own
    tools = Tools(pipeline, lambda: lexicon.labels.available())
    admission = Admission(pool or WorkerPool(settings.workers, settings.queue_size),
                          limiter or RateLimiter(settings.user_questions, settings.user_window_s, MAX_KEYS))
    server = KgqaMCP(NAME, instructions=INSTRUCTIONS, auth=auth[0], token_verifier=auth[1])

    async def call(ctx: Context, work: Callable[[], T]) -> T:
        try:
            return await admission.run(caller(ctx), work)
        except ToolRefusal as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(annotations=READ_ONLY)
    async def ask(question: Annotated[str, Field(description="the question in plain words, e.g. 'Which model has "
                                                 "achieved the highest Accuracy score on the Story Cloze Test "
                                                 "benchmark dataset?'")],
                  ctx: Context,
                  shots: Annotated[int | None, Field(description="how many similar stored examples the query "
                                                     "writer sees: 1, 3 or 5 (default: the server's setting)")]
                  = None) -> AskResult:
        """Answer a question about the ORKG: writes a read-only SPARQL query from the most similar stored
        question->SPARQL pairs, runs it, and returns a one-sentence summary of the answer, the query, its rows, a
        one-sentence reading of what it asks, the leaderboard behind a ranking, an explanation when nothing matched,
        and where the answer came from. A question it cannot write a query for,
        or whose query fails, is an error with the reason."""
        return await call(ctx, lambda: tools.ask(question, shots))

    @server.tool(annotations=READ_ONLY)
    async def run_sparql(query: Annotated[str, Field(description="a SPARQL SELECT or ASK query; the ORKG prefixes "
                                                     "(orkgp, orkgc, orkgr, rdfs, rdf, xsd, owl) are declared for "
                                                     "you when used")],
                         ctx: Context) -> QueryRows:
        """Run a read-only SPARQL query on the knowledge graph and return its rows. Updates (INSERT, DELETE, LOAD,
        CLEAR, DROP, ...), SERVICE, the engine's own procedures, anything but SELECT/ASK and any query that breaks
        the SPARQL 1.1 grammar (with its line and column) are refused with the reason and never run; string literals
        go as typed; a LIMIT is added when missing."""
        return await call(ctx, lambda: tools.run_sparql(query))

    @server.tool(annotations=READ_ONLY.model_copy(update={"open_world_hint": False}))
    async def similar_questions(text: Annotated[str, Field(description="a question or a few words")],
                                ctx: Context,
                                k: Annotated[int, Field(description=f"how many pairs, 1 to {MAX_K}")] = 5
                                ) -> list[StoredPair]:
        """The stored question->SPARQL pairs most similar to a text (SciQA's and the team's), best first, each with
        its similarity score: examples of how such questions are written in SPARQL."""
        return await call(ctx, lambda: tools.similar_questions(text, k))

    @server.tool(annotations=READ_ONLY)
    async def find_label(name: Annotated[str, Field(description="a name as someone typed it, e.g. 'squad 1.1'")],
                         ctx: Context,
                         kind: Annotated[str, Field(description="what it names: " + ", ".join(KINDS)
                                                    + "; empty for any")] = "") -> LabelMatch:
        """The knowledge graph's own label for a loosely typed name (case, blanks, hyphens, version spacing and
        small typos forgiven), or the closest labels when it is ambiguous or unknown. SPARQL label filters match
        exactly, so look a name up here before writing one."""
        return await call(ctx, lambda: tools.find_label(name, kind))

    @server.resource("kgqa://prefixes", name="orkg-prefixes", mime_type="text/plain",
                     description="The ORKG prefixes as SPARQL PREFIX lines.")
    def prefixes() -> str:
        return tools.prefixes()

    @server.resource("kgqa://question-forms", name="question-forms", mime_type="application/json",
                     description="The question forms the example store holds (fixed wording with <kind> slots), "
                                 "most common first, each with one stored question and its SPARQL.")
    async def question_forms() -> str:
        try:
            return await admission.run("resources", tools.question_forms)
        except ToolRefusal as exc:
            raise ResourceError(str(exc)) from exc

    return server


def serve(build: Callable[[], Pipeline], settings: Settings, http: bool = False, host: str | None = None,
          port: int | None = None) -> None:
    """Serve until interrupted: over stdio, or streamable HTTP on ``host:port`` (path ``/mcp``). The HTTP setup is
    checked before ``build`` loads anything, so an unsafe one fails at once."""
    if not http:
        with build() as pipeline:
            create_server(pipeline, settings).run("stdio")
        return
    host = host or settings.mcp_host
    port = settings.mcp_port if port is None else port
    auth = http_auth(revealed(settings.mcp_token), host, port)
    with build() as pipeline:
        create_server(pipeline, settings, auth=auth).run("streamable-http", host=host, port=port)
