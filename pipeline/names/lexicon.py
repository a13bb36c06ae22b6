"""A graph's lexicon: its labels (``sources``) and its predicates and classes (``vocabulary``), one reader of each made
for one built pipeline and shared by every part that reads them (the names check, the intent step, the reader, a
language model's grounding and reply check, the warm-up); both cached on disk under $KGQA_HOME/labels."""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.names.sources import LABELS_TTL_S, LabelSource
from pipeline.names.vocabulary import TTL_S, GraphVocabulary
from pipeline.parts import KnowledgeGraph
from pipeline.settings import Settings


@dataclass(frozen=True)
class Lexicon:
    """The label source and the vocabulary of one graph."""

    labels: LabelSource
    vocabulary: GraphVocabulary

    @property
    def kg(self) -> KnowledgeGraph:
        return self.labels.kg

    @classmethod
    def of(cls, settings: Settings, kg: KnowledgeGraph) -> Lexicon:
        """``kg``'s readers, each read at its first use, in pages of at most KGQA_ROW_CAP rows."""
        folder, page = settings.home / "labels", min(1000, settings.row_cap)
        return cls(LabelSource(kg, folder, ttl=LABELS_TTL_S, page=page),
                   GraphVocabulary(kg, folder, ttl=TTL_S, page=page))
