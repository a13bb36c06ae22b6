"""The few errors the pipeline raises; each carries a message fit to show a user."""


class KgqaError(Exception):
    """Base of every project error; ``str(err)`` is a human message without secrets."""


class ConfigError(KgqaError):
    """A setting is missing or wrong, or a model or data set cannot be had."""


class StoreError(KgqaError):
    """The example store is missing, corrupt or unreachable."""


class StoreUnavailable(StoreError):
    """A Chroma server could not be reached or did not answer in time: nothing is wrong with the store itself, and
    nothing that depends on reading it (a rebuild carrying the team's pairs over) may go on without it."""


class GeneratorError(KgqaError):
    """The language model server failed, timed out or answered garbage."""


class KnowledgeGraphError(KgqaError):
    """The knowledge graph refused or failed a query."""


class EndpointUnreachable(KnowledgeGraphError):
    """The SPARQL endpoint could not be reached (connection refused, DNS, timeout)."""


class UnsafeQuery(KgqaError):
    """A query was refused by the read-only gate, or does not parse."""
