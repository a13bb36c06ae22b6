"""The errors the pipeline raises; each carries a message fit to show a user. Code branches on these types (and on
``pipeline.records.Outcome``), never on the message text."""


class KgqaError(Exception):
    """Base of every project error; ``str(err)`` is a human message without secrets."""


class ConfigError(KgqaError):
    """A setting is missing or wrong, or a model or data set cannot be had."""


class TimedOut(KgqaError):
    """Something did not answer within its time (a part's own timeout, or the question's deadline)."""


class DeadlinePassed(TimedOut):
    """The question's time budget ran out; what is known so far is kept on the Answer."""


class StoreError(KgqaError):
    """The example store is missing, corrupt or unreachable."""


class StoreUnavailable(StoreError):
    """A Chroma server could not be reached or did not answer in time: nothing is wrong with the store itself, and
    nothing that depends on reading it (a rebuild carrying the team's pairs over) may go on without it."""


class GeneratorError(KgqaError):
    """The language model server failed, timed out or answered garbage."""


class GeneratorTimeout(GeneratorError, TimedOut):
    """The language model server did not answer within its timeout."""


class ModelUnavailable(GeneratorError):
    """The model cannot serve this question (its file is missing or broken, it does not fit in memory, its server
    stopped under the question): asking again within the question cannot help."""


class PromptTooLong(GeneratorError):
    """The prompt does not fit the model's context: asking again, with a longer prompt, cannot help."""


class KnowledgeGraphError(KgqaError):
    """The knowledge graph refused or failed a query."""


class EndpointUnreachable(KnowledgeGraphError):
    """The SPARQL endpoint could not be reached (connection refused, DNS, timeout)."""


class EndpointTimeout(EndpointUnreachable, TimedOut):
    """The SPARQL endpoint did not answer within its timeout."""


class NotInSnapshot(KnowledgeGraphError):
    """The SciQA snapshot holds no recorded answer for a query of this form (an empty answer in evaluation)."""


class Refused(KgqaError):
    """The read-only gate refused a query (an update, SERVICE, not SELECT/ASK, empty); nothing ran."""
