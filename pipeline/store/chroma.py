"""The example store: SciQA (and team) question->SPARQL pairs in Chroma, embedded by their question."""
from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from pipeline.errors import StoreError, StoreUnavailable
from pipeline.parts import Encoder
from pipeline.records import Example, Retrieved
from pipeline.store.connection import ChromaConnection, transport_cause

BATCH = 256



def _missing(exc: BaseException) -> bool:
    """chromadb's "no such collection" (never built, or rebuilt by another process meanwhile)."""
    from chromadb.errors import NotFoundError

    return isinstance(exc, NotFoundError)

MIN_SCORE = 0.45  # below it a plain cosine neighbour is too far from the question to adapt


class EncoderFunction:
    """Chroma's embedding-function interface over our Encoder, so Chroma's own (downloading) default never runs."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder

    def __call__(self, input: Sequence[str]) -> list[Any]:
        import numpy as np

        return [np.asarray(v, dtype=np.float32) for v in self.encoder.encode(list(input))]

    def embed_query(self, input: Sequence[str]) -> list[Any]:
        return self(input)

    @staticmethod
    def name() -> str:
        return "kgqa-encoder"

    def get_config(self) -> dict[str, Any]:
        return {"model": self.encoder.name}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> EncoderFunction:
        """Chroma rebuilds the function from a stored collection's config; the model loads only if it is used (every
        call of ours passes its own function, so this copy keeps the declared defaults: no environment is read)."""
        from pipeline.settings import Settings
        from pipeline.store.encoder import model_encoder

        defaults = Settings()
        return EncoderFunction(model_encoder(str(config.get("model", "")), defaults.encoder_backend,
                                             defaults.encoder_dir, offline=defaults.hf_offline))

    def is_legacy(self) -> bool:
        return False

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine"]


def fingerprint(examples: Iterable[Example], model: str) -> str:
    digest = hashlib.sha256(model.encode())
    for ex in sorted(examples, key=lambda e: e.id):
        digest.update(json.dumps([ex.id, ex.question, ex.sparql, ex.template_id]).encode())
    return digest.hexdigest()[:32]


def team_id(question: str) -> str:
    return "team-" + hashlib.sha256(" ".join(question.lower().split()).encode()).hexdigest()[:16]


class ChromaStore:
    """Known pairs in one Chroma collection; documents are questions, the SPARQL is metadata."""

    min_score = MIN_SCORE  # the threshold for its plain cosine scores

    def __init__(self, client: Any, encoder: Encoder, collection: str) -> None:
        """``client``: an open chromadb client, or a ChromaConnection opened at first use (so a bot whose Chroma
        server is down starts anyway and says so in its answers)."""
        if isinstance(client, ChromaConnection):
            self.connection, self._client = client, None
        else:
            self.connection, self._client = ChromaConnection(None, None, None), client  # opened elsewhere
        self.encoder = encoder
        self.name = collection
        self._function = EncoderFunction(encoder)
        self._collection: Any = None
        self._opening = threading.Lock()

    @property
    def client(self) -> Any:
        """The chromadb client, opened at first use."""
        if self._client is None:
            client = self.connection.open()  # (waits outside the lock: concurrent callers share one attempt)
            with self._opening:
                self._client = self._client or client
        return self._client

    def open(self) -> None:
        """Open the client now rather than at first use."""
        _ = self.client

    def _failure(self, exc: Exception, doing: str) -> StoreError:
        return exc if isinstance(exc, StoreError) else self.connection.failure(exc, doing)

    # -- reading -----------------------------------------------------------------------------------------
    def _col(self, create: bool = False) -> Any:
        if self._collection is None:
            self._recover()
            try:
                if create:
                    self._collection = self.client.get_or_create_collection(
                        self.name, embedding_function=self._function, metadata={"hnsw:space": "cosine"})
                else:
                    self._collection = self.client.get_collection(self.name, embedding_function=self._function)
            except Exception as exc:
                if not create and _missing(exc):
                    raise StoreError("the example store is empty: run `kgqa index` first") from exc
                raise self._failure(exc, "reading") from exc
        return self._collection

    def _fresh(self, action: Callable[[Any], Any], doing: str) -> Any:
        """Run ``action`` on the collection; once more on a fresh handle if another process rebuilt it meanwhile."""
        try:
            try:
                return action(self._col())
            except StoreError:
                raise
            except Exception as exc:
                if not _missing(exc):
                    raise
                self._collection = None
                return action(self._col())
        except Exception as exc:
            raise self._failure(exc, doing) from exc

    def count(self) -> int:
        """How many pairs are stored; 0 for a missing or unreadable store, StoreUnavailable for an unreachable one."""
        try:
            return int(self._fresh(lambda c: c.count(), "counting"))
        except StoreUnavailable:
            raise
        except StoreError:
            return 0

    def search(self, question: str, k: int) -> list[Retrieved]:
        return self.search_vector(self.encoder.encode([question])[0], k)

    def search_vector(self, vector: Sequence[float], k: int, where: dict[str, Any] | None = None) -> list[Retrieved]:
        res = self._fresh(lambda c: c.query(query_embeddings=[list(vector)], n_results=max(1, k), where=where,
                                            include=["documents", "metadatas", "distances"]), "a search")
        out = []
        for id_, doc, meta, dist in zip(res["ids"][0], res["documents"][0], res["metadatas"][0], res["distances"][0]):
            out.append(Retrieved(_example(id_, doc, meta), 1.0 - float(dist)))
        return out

    def examples(self, source: str | None = None) -> list[Example]:
        """Every stored pair (optionally of one source), read in pages."""
        res = self._read(["documents", "metadatas"], {"source": source} if source else None)
        return [_example(i, d, m) for i, d, m in zip(res["ids"], res["documents"], res["metadatas"])]

    def embeddings(self) -> tuple[list[str], Any]:
        """Every stored question's id and vector (a numpy array, a row each), read in pages."""
        import numpy as np

        res = self._read(["embeddings"])
        return res["ids"], np.asarray(res["embeddings"], dtype=np.float32).reshape(len(res["ids"]), -1)

    def _read(self, include: list[str], where: dict[str, Any] | None = None) -> dict[str, list[Any]]:
        """Every stored record's id and the ``include``d fields, read in pages of 1,000."""
        out: dict[str, list[Any]] = {key: [] for key in ["ids", *include]}
        while True:
            res = self._fresh(lambda c: c.get(include=include, limit=1000, offset=len(out["ids"]), where=where),
                              "reading")
            for key, values in out.items():
                values.extend(res[key])
            if len(res["ids"]) < 1000:
                return out

    def fingerprint(self) -> str:
        try:
            self._collection = None  # the metadata of a cached handle may be stale
            return str((self._col().metadata or {}).get("kgqa_fingerprint", ""))
        except StoreUnavailable:
            raise
        except StoreError:
            return ""

    def version(self) -> str:
        """Names the store's state: the indexed data and model, the count and the team's pairs (another process's
        additions included), so what is derived from one state is never used for another."""
        digest = hashlib.sha256(f"{self.fingerprint()}|{self.count()}|{self.encoder.name}".encode())
        for ex in sorted(self.examples("team"), key=lambda e: e.id):
            digest.update(json.dumps([ex.id, ex.question, ex.sparql, ex.template_id]).encode())
        return digest.hexdigest()[:32]

    # -- writing -----------------------------------------------------------------------------------------
    def add(self, examples: Sequence[Example]) -> int:
        """Add or replace pairs (by id); returns how many were written."""
        self._col(create=True)
        for start in range(0, len(examples), BATCH):
            chunk = list(examples[start:start + BATCH])
            self._fresh(partial(_upsert, chunk, self._function([e.question for e in chunk])), "a write")
        return len(examples)

    def rebuild(self, examples: Sequence[Example], print_fingerprint: str,
                progress: Callable[[int], None] | None = None) -> int:
        """Build a fresh collection aside, carry the team's pairs over, then swap it in (never half-built)."""
        try:
            return self._rebuild(examples, print_fingerprint, progress)
        except Exception as exc:
            raise self._failure(exc, "a rebuild") from exc

    def _rebuild(self, examples: Sequence[Example], print_fingerprint: str,
                 progress: Callable[[int], None] | None) -> int:
        self._collection = None
        team = self._read(["documents", "metadatas", "embeddings"], {"source": "team"}) if self.count() else \
            {"ids": [], "documents": [], "metadatas": [], "embeddings": []}  # (count() recovers a cut swap first)
        same_model = bool(team["ids"]) and (self._col().metadata or {}).get("kgqa_model") == self.encoder.name
        aside, old = f"{self.name}-building", f"{self.name}-old"
        self._drop(aside)
        self._drop(old)
        col = self.client.create_collection(aside, embedding_function=self._function, metadata={
            "hnsw:space": "cosine", "kgqa_fingerprint": print_fingerprint, "kgqa_model": self.encoder.name})
        items = list(examples) + ([] if same_model else
                                  [_example(i, d, m) for i, d, m in zip(team["ids"], team["documents"],
                                                                         team["metadatas"])])
        for start in range(0, len(items), BATCH):
            chunk = items[start:start + BATCH]
            col.add(ids=[e.id for e in chunk], documents=[e.question for e in chunk],
                    embeddings=self._function([e.question for e in chunk]), metadatas=[_meta(e) for e in chunk])
            if progress:
                progress(len(chunk))
        for start in range(0, len(team["ids"]) if same_model else 0, BATCH):  # the team's vectors carried over
            end = start + BATCH
            col.add(ids=team["ids"][start:end], documents=team["documents"][start:end],
                    embeddings=team["embeddings"][start:end], metadatas=team["metadatas"][start:end])
        # Swap by renames, never dropping the old store before the new one has its name: a crash between the two
        # renames leaves "-old", which _recover() puts back.
        current = self._get(self.name)
        if current is not None:
            current.modify(name=old)
        col.modify(name=self.name)
        self._drop(old)
        self._collection = None
        return len(examples) + len(team["ids"])

    def _get(self, name: str) -> Any:
        try:
            return self.client.get_collection(name, embedding_function=self._function)
        except Exception as exc:  # absent (or unreadable: the caller decides what that means), unless unreachable
            if transport_cause(exc) is not None:
                raise
            return None

    def _recover(self) -> None:
        """After a crash between a rebuild's two renames the store has no collection by its name but the previous
        one as "-old": put it back, so nothing (team pairs included) is lost."""
        client = self.client  # (an unreachable server is reported as such, by the caller)
        try:
            names = {getattr(c, "name", c) for c in client.list_collections()}
        except Exception:  # an unreadable store is reported by the caller
            return
        old = f"{self.name}-old"
        if self.name not in names and old in names:
            previous = self._get(old)
            if previous is not None:
                previous.modify(name=self.name)

    def _drop(self, name: str) -> None:
        try:
            self.client.delete_collection(name)
        except Exception:  # absent: nothing to drop
            pass


def _upsert(chunk: Sequence[Example], vectors: Any, collection: Any) -> None:
    """Write one chunk of pairs with their vectors into ``collection``."""
    collection.upsert(ids=[e.id for e in chunk], documents=[e.question for e in chunk], embeddings=vectors,
                      metadatas=[_meta(e) for e in chunk])


def _meta(e: Example) -> dict[str, Any]:
    return {"sparql": e.sparql, "template_id": e.template_id or "", "source": e.source}


def _example(id_: str, question: str | None, meta: dict[str, Any] | None) -> Example:
    meta = meta or {}
    return Example(id_, question or "", str(meta.get("sparql", "")), str(meta.get("template_id", "")),
                   str(meta.get("source", "sciqa")))
