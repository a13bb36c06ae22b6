"""The ORKG's own vocabulary: its predicates and classes with their labels and comments, and per class the predicates
its nodes carry (SHACL node shapes), read from N-Triples files (the ORKG's RDF dump, or the vocabulary and shapes
extracted from it). Indexed once in ``$KGQA_HOME/vocabulary/`` and read again only when the files change; an index is
replaced whole or not at all, so a file that cannot be read leaves the one before in place."""
from __future__ import annotations

import bz2
import gzip
import json
import os
import re
import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.errors import VocabularyError
from pipeline.sparql.text import PREFIXES

if TYPE_CHECKING:
    from pipeline.settings import Settings

RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SHACL = "http://www.w3.org/ns/shacl#"
LABEL, COMMENT = RDFS + "label", RDFS + "comment"
TARGET, PROPERTY, PATH = SHACL + "targetClass", SHACL + "property", SHACL + "path"
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
SUFFIXES = (".nt", ".nt.gz", ".nt.bz2")  # a folder's files read; a dump comes compressed
INDEX = "index.json"
FORMAT = 1  # of the index file; another number is read as no index

_NODE = r"(?:<[^<>\s]*>|_:[A-Za-z0-9_][\w.-]*)"
_LITERAL = r'"(?:[^"\\\n\r]|\\.)*"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\^\^<[^<>\s]*>)?'
_TRIPLE = re.compile(rf"({_NODE})[ \t]+<([^<>\s]*)>[ \t]+({_NODE}|{_LITERAL})[ \t]*\.[ \t]*(?:#.*)?")
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")
_CHARS = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_NAMESPACES = (("orkgp", PREFIXES["orkgp"]), ("orkgc", PREFIXES["orkgc"]))


@dataclass(frozen=True)
class Term:
    """A predicate or class of the ORKG and what it is called."""

    name: str  # prefixed: orkgp:P5049, orkgc:Paper
    label: str
    comment: str = ""


@dataclass(frozen=True)
class Vocabulary:
    """The ORKG's predicates and classes by prefixed name, and per class (by name) the predicates its nodes carry."""

    predicates: Mapping[str, Term] = field(default_factory=dict)
    classes: Mapping[str, Term] = field(default_factory=dict)
    shapes: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def label(self, name: str) -> str | None:
        term = self.predicates.get(name) or self.classes.get(name)
        return term.label if term is not None else None

    def merged(self, graph_labels: Mapping[str, str]) -> Vocabulary:
        """This vocabulary with the graph's own labels, which win over the files'; a predicate or class only the graph
        labels is added (a resource's label, ``orkgr:``, is not vocabulary)."""
        predicates, classes = dict(self.predicates), dict(self.classes)
        for name, label in graph_labels.items():
            into = predicates if name.startswith("orkgp:") else classes if name.startswith("orkgc:") else None
            if into is not None and label:
                held = into.get(name)
                into[name] = Term(name, label, held.comment if held is not None else "")
        return Vocabulary(predicates, classes, self.shapes)

    def carried_by(self, predicate: str) -> frozenset[str]:
        """The classes whose shapes carry ``predicate``."""
        return self._carriers.get(predicate, frozenset())

    @cached_property
    def _carriers(self) -> dict[str, frozenset[str]]:
        carriers: defaultdict[str, set[str]] = defaultdict(set)
        for cls, carried in self.shapes.items():
            for predicate in carried:
                carriers[predicate].add(cls)
        return {p: frozenset(c) for p, c in carriers.items()}

    @property
    def comments(self) -> int:
        return sum(1 for t in (*self.predicates.values(), *self.classes.values()) if t.comment)

    def __len__(self) -> int:
        return len(self.predicates) + len(self.classes)


def _name(node: str) -> str | None:
    """``<http://orkg.org/orkg/predicate/P5049>`` -> ``orkgp:P5049`` (predicates and classes only), else None."""
    iri = node[1:-1] if node.startswith("<") else ""
    for prefix, base in _NAMESPACES:
        if iri.startswith(base) and len(iri) > len(base):
            return f"{prefix}:{iri[len(base):]}"
    return None


def _unescaped(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = m.group(1) or m.group(2)
        return chr(int(code, 16)) if code else _CHARS.get(m.group(3), m.group(3))

    return _ESCAPE.sub(one, text) if "\\" in text else text


def _literal(node: str) -> str | None:
    """A string's text (plain, ``xsd:string`` or English); None for another language, another datatype or a node."""
    if not node.startswith('"'):
        return None
    end = node.rindex('"')
    suffix = node[end + 1:]
    if suffix and suffix != f"^^<{XSD_STRING}>" and suffix.lower() != "@en" and not suffix.lower().startswith("@en-"):
        return None
    return _unescaped(node[1:end])


def _same(label: str) -> str:
    """A label as two files are compared on: one label up to case and spacing (the ORKG relabelled "qb:DataSet" as
    "qb:Dataset" between its 2021-05 and 2021-11 dumps); the first file's spelling is kept."""
    return " ".join(label.split()).casefold()


@dataclass
class _Reading:
    """What the files have said so far, each label with the file and line it came from."""

    labels: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (label, "FILE line N")
    comments: dict[str, str] = field(default_factory=dict)
    targets: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # shape node -> classes
    properties: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # shape -> property shapes
    paths: dict[str, str] = field(default_factory=dict)  # property shape node -> predicate

    def add(self, subject: str, predicate: str, obj: str, where: str) -> None:
        if predicate in (LABEL, COMMENT):
            name, text = _name(subject), _literal(obj)
            if name is None or text is None:
                return
            if predicate == COMMENT:
                self.comments.setdefault(name, text)
                return
            held = self.labels.setdefault(name, (text, where))
            if _same(held[0]) != _same(text):
                raise VocabularyError(f"{name} is labelled {held[0]!r} at {held[1]} but {text!r} at {where} "
                                      f"(a clash: give only one of them)")
        elif predicate == TARGET and (cls := _name(obj)) is not None:
            self.targets[subject].add(cls)
        elif predicate == PROPERTY:
            self.properties[subject].add(obj)
        elif predicate == PATH and (path := _name(obj)) is not None:
            self.paths[subject] = path

    def vocabulary(self) -> Vocabulary:
        terms = {n: Term(n, label, self.comments.get(n, "")) for n, (label, _) in sorted(self.labels.items())}
        shapes: defaultdict[str, set[str]] = defaultdict(set)
        for shape, classes in self.targets.items():
            carried = {self.paths[p] for p in self.properties.get(shape, ()) if p in self.paths}
            for cls in classes:
                shapes[cls] |= carried
        return Vocabulary({n: t for n, t in terms.items() if n.startswith("orkgp:")},
                          {n: t for n, t in terms.items() if n.startswith("orkgc:")},
                          {c: frozenset(p) for c, p in sorted(shapes.items())})


def vocabulary_files(paths: Iterable[Path]) -> list[Path]:
    """The N-Triples files ``paths`` name: each file, and each folder's ``.nt`` files (``.gz``, ``.bz2`` too) in
    name order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.name.endswith(SUFFIXES) and p.is_file())
            if not found:
                raise VocabularyError(f"{path}: the folder holds no .nt (N-Triples) file")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise VocabularyError(f"{path}: no such file or folder")
    return files


def read_vocabulary(paths: Sequence[Path]) -> Vocabulary:
    """The vocabulary N-Triples files (or folders of them) hold; a malformed line, a missing file or two labels for
    one name is a ``VocabularyError`` naming the file and line."""
    reading = _Reading()
    for number, file in enumerate(vocabulary_files(paths)):
        _read_file(file, f"_:{number}.", reading)
    return reading.vocabulary()


def _read_file(file: Path, blank: str, reading: _Reading) -> None:
    """One file into ``reading``; blank nodes are told apart from other files' by ``blank``."""
    opened = gzip.open if file.name.endswith(".gz") else bz2.open if file.name.endswith(".bz2") else open
    try:
        with opened(file, "rt", encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                text = line.strip()
                if not text or text.startswith("#"):
                    continue
                m = _TRIPLE.fullmatch(text)
                if m is None:
                    raise VocabularyError(f"{file} line {number}: not an N-Triples triple: {text[:80]!r}")
                subject, predicate, obj = m.groups()
                if predicate in (LABEL, COMMENT, TARGET, PROPERTY, PATH):
                    reading.add(_local(subject, blank), predicate, _local(obj, blank), f"{file} line {number}")
    except UnicodeDecodeError as exc:
        raise VocabularyError(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except (OSError, EOFError) as exc:  # gzip's and bz2's errors for a damaged file are OSError or EOFError
        raise VocabularyError(f"{file}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from exc


def _local(node: str, blank: str) -> str:
    return blank + node[2:] if node.startswith("_:") else node


def _sources(files: Sequence[Path]) -> list[dict[str, Any]]:
    """What the index is keyed on: each file's path, size and modification time."""
    out = []
    for file in files:
        try:
            stat = file.stat()
        except OSError as exc:
            raise VocabularyError(f"{file}: cannot be read ({exc.strerror or exc})") from exc
        out.append({"path": str(file.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns})
    return out


def _encoded(sources: list[dict[str, Any]], vocabulary: Vocabulary) -> str:
    return json.dumps({"format": FORMAT, "sources": sources,
                       "predicates": {n: [t.label, t.comment] for n, t in vocabulary.predicates.items()},
                       "classes": {n: [t.label, t.comment] for n, t in vocabulary.classes.items()},
                       "shapes": {c: sorted(p) for c, p in vocabulary.shapes.items()}}, ensure_ascii=False)


def _decoded(text: str) -> tuple[list[dict[str, Any]], Vocabulary] | None:
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            return None
        terms = [{n: Term(n, str(label), str(comment)) for n, (label, comment) in data[kind].items()}
                 for kind in ("predicates", "classes")]
        shapes = {c: frozenset(map(str, p)) for c, p in data["shapes"].items()}
        return list(data["sources"]), Vocabulary(terms[0], terms[1], shapes)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


_HELD: dict[Path, tuple[list[dict[str, Any]], Vocabulary]] = {}  # index file -> what it holds, read once
_LOCK = threading.Lock()


def indexed_vocabulary(paths: Sequence[Path], folder: Path) -> tuple[Vocabulary, bool]:
    """The vocabulary of ``paths`` from the index in ``folder``, read from the files (and the index replaced) when
    they changed since; the bool says whether they were read."""
    sources = _sources(vocabulary_files(paths))
    index = folder / INDEX
    with _LOCK:
        held = _HELD.get(index)
        if held is None or held[0] != sources:
            try:
                held = _decoded(index.read_text(encoding="utf-8"))
            except OSError:
                held = None
        if held is not None and held[0] == sources:
            _HELD[index] = held
            return held[1], False
        vocabulary = read_vocabulary(paths)
        partial = folder / f".{INDEX}.{os.getpid()}.tmp"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            partial.write_text(_encoded(sources, vocabulary), encoding="utf-8")
            os.replace(partial, index)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise VocabularyError(f"cannot write the vocabulary's index {index}: {exc.strerror or exc}") from exc
        _HELD[index] = (sources, vocabulary)
        return vocabulary, True


def vocabulary_for(settings: Settings) -> Vocabulary | None:
    """The vocabulary KGQA_ORKG_VOCABULARY names, indexed in KGQA_HOME; None when it names none (off)."""
    paths = settings.orkg_vocabulary_paths
    return indexed_vocabulary(paths, settings.vocabulary_dir)[0] if paths else None
