"""A local knowledge graph: a pyoxigraph store (in memory or on disk) loaded from RDF files."""
from __future__ import annotations

import bz2
import gzip
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import IO, cast

import pyoxigraph as ox

from pipeline.errors import ConfigError, KnowledgeGraphError
from pipeline.kg.indexed import for_index
from pipeline.records import Kind, Rows, Term
from pipeline.sparql.literal import XSD_STRING, quoted

COMPRESSED: dict[str, Callable[[Path, str], object]] = {".gz": gzip.open, ".bz2": bz2.open}
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
RDFS_LABEL = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
KIND_CLASSES = {ox.NamedNode(f"http://orkg.org/orkg/class/{kind.orkg_class}"): kind.value for kind in Kind}
RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
RDF_DIR_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString"
FORMATS: dict[str, ox.RdfFormat] = {
    ".nt": ox.RdfFormat.N_TRIPLES, ".ntriples": ox.RdfFormat.N_TRIPLES, ".nq": ox.RdfFormat.N_QUADS,
    ".nquads": ox.RdfFormat.N_QUADS, ".ttl": ox.RdfFormat.TURTLE, ".turtle": ox.RdfFormat.TURTLE,
    ".trig": ox.RdfFormat.TRIG, ".n3": ox.RdfFormat.N3, ".rdf": ox.RdfFormat.RDF_XML, ".owl": ox.RdfFormat.RDF_XML,
    ".xml": ox.RdfFormat.RDF_XML, ".jsonld": ox.RdfFormat.JSON_LD,
}


class OxigraphKG:
    """Runs SELECT/ASK queries on RDF loaded from a file or a folder of files (N-Triples, Turtle, RDF/XML, N-Quads,
    TriG, optionally gzip-compressed). The default graph is the union of all graphs, as on ORKG's Virtuoso."""

    virtuoso = False

    def __init__(self, source: str | Path | None, *, store_path: str | Path | None = None,
                 row_cap: int) -> None:
        """``store_path`` keeps the store on disk; a store there that already holds data is used as it is."""
        self.row_cap = row_cap
        self.on_disk = store_path is not None
        self.name = f"local:{source if source is not None else store_path}"
        self._literal_kinds: list[tuple[str, str]] | None = None  # (datatype, language) of the store's literals
        self._lowered: dict[str, list[str]] | None = None  # lowercase text -> the rdfs:label literals, written
        try:
            self.store = ox.Store(str(store_path)) if store_path is not None else ox.Store()
        except OSError as exc:
            raise ConfigError(f"cannot open the RDF store at {store_path}: {exc}") from exc
        if source is not None and (not self.on_disk or self._is_empty()):
            self.load(source)

    def _is_empty(self) -> bool:
        return next(iter(self.store.quads_for_pattern(None, None, None, None)), None) is None

    def load(self, source: str | Path) -> int:
        """Add the RDF in a file, or in every RDF file under a folder; returns the number of files read."""
        files = rdf_files(Path(source))
        for path in files:
            # bulk_load streams big dumps into an on-disk store; load is transactional and fine in memory
            loader = self.store.bulk_load if self.on_disk else self.store.load
            try:
                with open_rdf(path) as stream:
                    loader(stream, format=rdf_format(path), base_iri=path.resolve().as_uri())
            except (SyntaxError, ValueError, OSError) as exc:
                raise ConfigError(f"cannot read RDF from {path}: {exc}") from exc
        self._literal_kinds = None
        self._lowered = None
        self.literal_forms("", True)  # read what the index rewrites need now, not during the first question
        self.lowered([])
        return len(files)

    def label_pairs(self) -> Iterator[tuple[str, str]]:
        """(label, kind) of every Dataset, Model, Metric, Problem, ResearchField and Paper, read from the store's
        indexes: no query, no sort, no paging (what the names step checks names in)."""
        for cls, kind in KIND_CLASSES.items():
            for typed in self.store.quads_for_pattern(None, RDF_TYPE, cls, None):
                for label in self.store.quads_for_pattern(typed.subject, RDFS_LABEL, None, None):
                    if isinstance(label.object, ox.Literal):
                        yield label.object.value, kind

    def predicate_sets(self) -> Iterator[frozenset[str]]:
        """Per node, the predicates it is the subject of and ``a <class>`` for each of its types (``schema.shapes``),
        in one pass over the store (a node's quads need not lie together): a bit per predicate and class, a mask per
        node, each distinct mask turned into its set once."""
        bits: dict[str, int] = {}
        masks: dict[object, int] = {}
        for quad in self.store.quads_for_pattern(None, None, None, None):
            cls = quad.object if quad.predicate == RDF_TYPE and isinstance(quad.object, ox.NamedNode) else None
            term = f"a {cls.value}" if cls is not None else quad.predicate.value
            bit = bits.setdefault(term, 1 << len(bits))
            masks[quad.subject] = masks.get(quad.subject, 0) | bit
        named = {bit: term for term, bit in bits.items()}
        sets: dict[int, frozenset[str]] = {}
        for mask in masks.values():
            if mask not in sets:
                sets[mask] = frozenset(term for bit, term in named.items() if mask & bit)
            yield sets[mask]

    def terms(self) -> Iterator[str]:
        """The IRIs used as predicates and as classes: one unordered DISTINCT each (a paged ORDER BY would sort every
        triple for each page)."""
        for query in ("SELECT DISTINCT ?t WHERE { ?s ?t ?o }", "SELECT DISTINCT ?t WHERE { ?s a ?t }"):
            for solution in cast(ox.QuerySolutions, self.store.query(query)):
                term = solution["t"]
                if isinstance(term, ox.NamedNode):
                    yield term.value

    def lowered(self, keys: list[str]) -> list[str]:
        """The rdfs:label literals (in SPARQL syntax) whose lowercase is one of ``keys``: what a case-insensitive
        label test keeps. The map is built once per store; both Python's lowercase and casefold key it, so that a
        label SPARQL's LCASE lowers alike is not missed (the filter itself still decides)."""
        if self._lowered is None:
            lowered: dict[str, set[str]] = {}
            for quad in self.store.quads_for_pattern(None, RDFS_LABEL, None, None):
                if isinstance(quad.object, ox.Literal):
                    written = _written(quad.object)
                    for key in {quad.object.value.lower(), quad.object.value.casefold()}:
                        lowered.setdefault(key, set()).add(written)
            self._lowered = {key: sorted(forms) for key, forms in lowered.items()}
        return sorted({form for key in keys for form in self._lowered.get(key, ())})

    def literal_forms(self, text: str, any_form: bool) -> list[str]:
        """The literals with this text the store holds, in SPARQL syntax: of any datatype or language (what
        ``str(?x) = text`` matches), or only the plain one (``?x = text``)."""
        if self._literal_kinds is None:
            found = self.store.query("SELECT DISTINCT ?d ?l WHERE { ?s ?p ?o FILTER(isLiteral(?o)) "
                                     "BIND(datatype(?o) AS ?d) BIND(lang(?o) AS ?l) }", use_default_graph_as_union=True)
            assert isinstance(found, ox.QuerySolutions)
            self._literal_kinds = sorted((str(getattr(s["d"], "value", "")), str(getattr(s["l"], "value", "")))
                                         for s in found)
        kinds = self._literal_kinds if any_form else [(XSD_STRING, "")]
        forms = []
        for datatype, lang in kinds:
            try:
                term = ox.Literal(text, language=lang) if lang else ox.Literal(text, datatype=ox.NamedNode(datatype))
            except ValueError:
                continue
            if next(iter(self.store.quads_for_pattern(None, None, term, None)), None) is not None:
                forms.append(_written(term))
        return forms

    def select(self, query: str) -> Rows:
        try:
            result = self.store.query(for_index(query, self.literal_forms, self.lowered),
                                      use_default_graph_as_union=True)
        except SyntaxError as exc:
            raise KnowledgeGraphError(f"the query does not parse: {exc}") from exc
        except (OSError, ValueError, RuntimeError) as exc:
            raise KnowledgeGraphError(f"the local store failed the query: {exc}") from exc
        if isinstance(result, ox.QueryBoolean):
            return Rows([], [], bool(result), self.name)
        if not isinstance(result, ox.QuerySolutions):
            raise KnowledgeGraphError("only SELECT and ASK queries can run here")
        names = [v.value for v in result.variables]
        rows = [_row(solution, names) for solution in islice(_solutions(result), self.row_cap + 1)]
        caveat = ""
        if len(rows) > self.row_cap:
            rows = rows[:self.row_cap]
            caveat = f"only the first {self.row_cap} rows are shown"
        return Rows(names, rows, None, self.name, caveat)

    def ping(self, timeout: float = 2.0) -> bool:
        """Nothing to reach: the store is in this process."""
        return True


def _written(literal: ox.Literal) -> str:
    """A literal in SPARQL syntax."""
    if literal.language:
        return f"{quoted(literal.value)}@{literal.language}"
    datatype = literal.datatype.value
    return quoted(literal.value) if datatype == XSD_STRING else f"{quoted(literal.value)}^^<{datatype}>"


def _solutions(result: ox.QuerySolutions) -> Iterator[ox.QuerySolution]:
    try:
        yield from result
    except (OSError, ValueError, RuntimeError) as exc:  # evaluation is lazy: errors surface while iterating
        raise KnowledgeGraphError(f"the local store failed the query: {exc}") from exc


def _row(solution: ox.QuerySolution, names: list[str]) -> dict[str, Term]:
    row: dict[str, Term] = {}
    for name in names:
        value = solution[name]
        if value is not None:
            row[name] = to_term(value)
    return row


def to_term(node: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple) -> Term:
    """A pyoxigraph term in SPARQL 1.1 JSON results form (a plain string literal carries no datatype)."""
    if isinstance(node, ox.NamedNode):
        return {"type": "uri", "value": node.value}
    if isinstance(node, ox.BlankNode):
        return {"type": "bnode", "value": node.value}
    if isinstance(node, ox.Literal):
        term: Term = {"type": "literal", "value": node.value}
        if node.language:
            term["xml:lang"] = node.language
        elif node.datatype.value not in (XSD_STRING, RDF_LANG_STRING, RDF_DIR_LANG_STRING):
            term["datatype"] = node.datatype.value
        return term
    return {"type": "triple", "value": str(node)}  # RDF-star; ORKG has none


def rdf_files(source: Path) -> list[Path]:
    """The RDF files at ``source``: the file itself, or the known RDF files under a folder (sorted)."""
    if source.is_file():
        rdf_format(source)  # refuse unknown extensions early
        return [source]
    if source.is_dir():
        files = sorted(p for p in source.rglob("*") if p.is_file() and _format_or_none(p) is not None)
        if not files:
            raise ConfigError(f"no RDF files ({', '.join(sorted(FORMATS))}, optionally .gz or .bz2) under {source}")
        return files
    raise ConfigError(f"no RDF file or folder at {source}")


def rdf_format(path: Path) -> ox.RdfFormat:
    found = _format_or_none(path)
    if found is None:
        raise ConfigError(f"unknown RDF format for {path.name}; use one of {', '.join(sorted(FORMATS))} "
                          "(optionally .gz or .bz2)")
    return found


def _format_or_none(path: Path) -> ox.RdfFormat | None:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in COMPRESSED:
        suffixes.pop()
    return FORMATS.get(suffixes[-1]) if suffixes else None


def open_rdf(path: Path) -> IO[bytes]:
    """A binary stream of the file, decompressed when it ends in .gz or .bz2."""
    suffix = path.suffix.lower()
    if suffix in COMPRESSED:
        return cast(IO[bytes], COMPRESSED[suffix](path, "rb"))
    return path.open("rb")
