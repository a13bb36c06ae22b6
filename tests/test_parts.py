"""What only some parts can do is declared (pipeline.parts) and asked by type: a part that does not say is local, has
no slots and cannot be asked again; a wrapper hands on what the part it wraps can do."""
from __future__ import annotations

from collections.abc import Sequence

from pipeline.errors import EndpointUnreachable
from pipeline.eval.arguments import DEFAULT_WORKERS
from pipeline.eval.cli import default_workers
from pipeline.kg.cache import CachedKG
from pipeline.kg.fallback import FallbackKG
from pipeline.names.check import NameCheck, label_index
from pipeline.parts import (
    Backed,
    Embedded,
    KnowledgeGraph,
    KnowsLabels,
    Remote,
    Slotted,
    Timed,
    Versioned,
    is_remote,
    primary_of,
    slots_of,
)
from pipeline.records import Example, Generation, Retrieved, Rows

EXAMPLE = Retrieved(Example("1", "Which models are evaluated on X?", "SELECT ?m WHERE { ?m ?p ?o }"), 0.9)


class PlainGenerator:
    """Only what every generator has: a name, ``generate`` and ``ping``."""

    name = "plain"

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        return Generation(self.name, "SELECT ?x WHERE { ?x ?p ?o }", "", "")

    def ping(self, timeout: float = 2.0) -> bool:
        return True


class ServerGenerator(PlainGenerator):
    """A model behind a server that says its slots and its timeout."""

    name = "server"
    remote = True
    slots = 3
    timeout = 12.0


class PlainKG:
    """Only what every graph has: a name, its dialect, ``select`` and ``ping``."""

    name = "plain-kg"
    virtuoso = False

    def __init__(self, down: bool = False) -> None:
        self.down = down

    def select(self, query: str) -> Rows:
        if self.down:
            raise EndpointUnreachable("down")
        return Rows(["x"], [{"x": {"type": "literal", "value": "1"}}], None, self.name)

    def ping(self, timeout: float = 2.0) -> bool:
        return not self.down


class RemoteKG(PlainKG):
    name = "remote-kg"
    remote = True
    virtuoso = True


class MemoryAnswers:
    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], tuple[Rows, float]] = {}

    def get(self, endpoint: str, key: str) -> tuple[Rows, float] | None:
        return self.kept.get((endpoint, key))

    def put(self, endpoint: str, key: str, rows: Rows) -> None:
        self.kept[(endpoint, key)] = (rows, 0.0)


def test_a_part_that_does_not_say_is_local_without_slots_or_timeout() -> None:
    plain = PlainGenerator()
    assert not isinstance(plain, Remote) and not is_remote(plain)
    assert not isinstance(plain, Slotted) and slots_of(plain) is None
    assert not isinstance(plain, Timed)
    server = ServerGenerator()
    assert is_remote(server) and slots_of(server) == 3 and isinstance(server, Timed)


def cached(inner: KnowledgeGraph) -> CachedKG:
    return CachedKG(inner, MemoryAnswers(), ttl=86400.0)


def test_a_kg_wrapper_hands_on_the_inner_graphs_dialect_server_and_reachability() -> None:
    one = cached(PlainKG())
    assert (one.name, one.virtuoso, one.remote, one.ping(1.0)) == ("plain-kg", False, False, True)
    assert one.select("SELECT ?x WHERE { ?x ?p ?o }").rows  # a graph declaring only the protocol works through it
    both = FallbackKG(cached(RemoteKG()), PlainKG())
    assert (both.virtuoso, both.remote) == (True, True) and both.name == "remote-kg (fallback: plain-kg)"


def test_a_graph_with_a_fallback_is_asked_first_through_its_primary() -> None:
    primary, offline = PlainKG(down=True), PlainKG()
    both = FallbackKG(primary, offline)
    assert isinstance(both, Backed) and primary_of(both) is primary and both.fallback is offline
    assert not isinstance(offline, Backed) and primary_of(offline) is offline
    assert both.select("SELECT ?x WHERE { ?x ?p ?o }").caveat.startswith("down")
    assert not isinstance(offline, KnowsLabels)


def test_a_store_that_cannot_name_its_state_nor_hand_out_embeddings_says_so_by_type() -> None:
    class Plain:
        def count(self) -> int:
            return 0

    class Full(Plain):
        def version(self) -> str:
            return "v1"

        def embeddings(self) -> tuple[list[str], list[list[float]]]:
            return [], []

    assert not isinstance(Plain(), (Versioned, Embedded))
    assert isinstance(Full(), Versioned) and isinstance(Full(), Embedded)


def test_the_label_index_is_read_from_a_pipelines_names_step_only_where_it_has_one() -> None:
    def index() -> None:
        return None

    class WithNames:
        names = NameCheck(index)

    class OtherCheck:
        names = None

    assert label_index(WithNames()) is index
    assert label_index(OtherCheck()) is None and label_index(object()) is None


def test_eval_workers_follow_the_generators_slots_where_the_pipeline_says_which_generator() -> None:
    class WithGenerator:
        generator = ServerGenerator()

        def ask(self, question: str, shots: int | None = None, progress: object = None) -> None: ...

    class Plain:
        def ask(self, question: str, shots: int | None = None, progress: object = None) -> None: ...

    assert default_workers(WithGenerator()) == 3  # type: ignore[arg-type]
    assert default_workers(Plain()) == DEFAULT_WORKERS  # type: ignore[arg-type]
