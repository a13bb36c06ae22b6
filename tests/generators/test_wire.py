"""Client errors mapped by type where they enter: an error's class or text never decides, what it is does."""
from __future__ import annotations

import pytest
import requests
import urllib3

from pipeline.errors import GeneratorError, GeneratorTimeout, Reason
from pipeline.generators.tgi import _errors
from pipeline.generators.wire import chain, classify, mapped


class ConnectionTimeoutLookalike(Exception):
    """Named and worded like a timeout of a connection; neither."""


def test_a_name_or_a_message_that_reads_like_a_timeout_is_not_one() -> None:
    assert classify(ConnectionTimeoutLookalike("Read timed out; Connection reset"), _errors()) is Reason.FAILED
    assert classify(RuntimeError("Connection aborted"), _errors()) is Reason.FAILED


def test_a_wrapped_error_is_classified_by_what_it_wraps() -> None:
    read_timeout = urllib3.exceptions.ReadTimeoutError(None, "/", "Read timed out.")  # type: ignore[arg-type]
    wrapped = requests.ConnectionError(urllib3.exceptions.MaxRetryError(None, "/", read_timeout))  # type: ignore
    assert read_timeout in chain(wrapped)
    assert classify(wrapped, _errors()) is Reason.TIMEOUT
    dropped = requests.ConnectionError(urllib3.exceptions.ProtocolError("Connection aborted.", ConnectionResetError()))
    assert classify(dropped, _errors()) is Reason.DROPPED and Reason.DROPPED.transient
    assert classify(requests.ConnectionError("refused"), _errors()) is Reason.UNREACHABLE
    assert not Reason.UNREACHABLE.transient and not Reason.TIMEOUT.transient


def test_mapped_raises_ours_lets_ours_through_and_an_unmapped_error_propagate() -> None:
    with pytest.raises(GeneratorTimeout, match="^the language model at http://m did not answer in time$"):
        with mapped([((TimeoutError,), Reason.TIMEOUT)], "http://m", "X"):
            raise TimeoutError("timed out")
    ours = GeneratorError("as it was", Reason.BAD_REPLY)
    with pytest.raises(GeneratorError) as raised:
        with mapped([((Exception,), Reason.FAILED)], "http://m", "X"):
            raise ours
    assert raised.value is ours
    with pytest.raises(KeyError):
        with mapped([((TimeoutError,), Reason.TIMEOUT)], "http://m", "X"):
            raise KeyError("a bug, not the server")
