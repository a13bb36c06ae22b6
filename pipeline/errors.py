"""The errors the pipeline raises; each carries a message fit to show a user. Code branches on these types, on their
fields (``GeneratorError.reason``) and on ``pipeline.records.Outcome``, never on the message text."""
from enum import Enum


class KgqaError(Exception):
    """Base of every project error; ``str(err)`` is a human message without secrets."""


class ConfigError(KgqaError):
    """A setting is missing or wrong, or a model or data set cannot be had."""


class VocabularyError(ConfigError):
    """An ORKG vocabulary file cannot be read: missing, a malformed line, or a label another file contradicts. The
    message names the file and line; what was indexed before is kept."""


class TimedOut(KgqaError):
    """Something did not answer within its time (a part's own timeout, or the question's deadline)."""


class DeadlinePassed(TimedOut):
    """The question's time budget ran out; what is known so far is kept on the Answer."""


class StoreError(KgqaError):
    """The example store is missing, corrupt or unreachable."""


class StoreUnavailable(StoreError):
    """A Chroma server could not be reached or did not answer in time: nothing is wrong with the store itself, and
    nothing that depends on reading it (a rebuild carrying the team's pairs over) may go on without it."""


class Reason(str, Enum):
    """Why a call to a server failed, as the error that entered from its client library was mapped."""

    TIMEOUT = "timeout"  # no answer within the timeout
    UNREACHABLE = "unreachable"  # no connection (refused, no route, name unknown)
    DROPPED = "dropped"  # the connection was cut before the answer came
    OVERLOADED = "overloaded"  # the server said it is too busy now (TGI's 503, HTTP 429)
    BAD_REPLY = "bad_reply"  # an answer not in the protocol's format
    FAILED = "failed"  # the server answered with an error

    @property
    def transient(self) -> bool:
        """Worth one more try: the same request may well succeed a moment later."""
        return self in (Reason.DROPPED, Reason.OVERLOADED)


class GeneratorError(KgqaError):
    """The language model server failed, timed out or answered garbage; ``reason`` says which."""

    def __init__(self, message: str, reason: Reason = Reason.FAILED) -> None:
        super().__init__(message)
        self.reason = reason


class GeneratorTimeout(GeneratorError, TimedOut):
    """The language model server did not answer within its timeout."""

    def __init__(self, message: str, reason: Reason = Reason.TIMEOUT) -> None:
        super().__init__(message, reason)


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
