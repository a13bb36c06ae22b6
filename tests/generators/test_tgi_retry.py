"""TGI client: one more try when the server is overloaded or drops the connection, none after an error or a timeout;
a cheap reachability probe for /healthz."""
from __future__ import annotations

from typing import Any

import pytest

from pipeline.errors import GeneratorError, Reason
from pipeline.generators.tgi import TGIGenerator
from pipeline.records import Example, Retrieved
from standins.sparql_endpoint import refused_url

EXAMPLES = [Retrieved(Example("1", "What models are evaluated on CoQA?", "SELECT ?m WHERE { ?m ?p 'CoQA' }"), 0.9)]


def generations(tgi: Any) -> int:
    return sum(1 for path, _ in tgi.requests if path == "/")


def test_an_overloaded_server_is_asked_once_more(tgi: Any) -> None:
    tgi.set_fault("503", times=1)
    assert TGIGenerator(tgi.url, timeout=5, max_new_tokens=512, retries=1).generate("Best F1 on CoQA?", EXAMPLES).sparql
    assert generations(tgi) == 2


def test_a_dropped_connection_is_asked_once_more_and_twice_is_a_clear_error(tgi: Any) -> None:
    tgi.set_fault("drop", times=1)
    assert TGIGenerator(tgi.url, timeout=5, max_new_tokens=512, retries=1).generate("Best F1 on CoQA?", EXAMPLES).sparql
    assert generations(tgi) == 2
    tgi.set_fault("drop")
    with pytest.raises(GeneratorError, match="could not be reached") as raised:
        TGIGenerator(tgi.url, timeout=5, max_new_tokens=512, retries=1).generate("Best F1 on CoQA?", EXAMPLES)
    assert raised.value.reason is Reason.DROPPED and generations(tgi) == 4


@pytest.mark.parametrize("fault", ["500", "hang"])
def test_an_error_or_a_timeout_is_not_retried(tgi: Any, fault: str) -> None:
    tgi.set_fault(fault)
    with pytest.raises(GeneratorError):
        TGIGenerator(tgi.url, timeout=1, max_new_tokens=512, retries=1).generate("Best F1 on CoQA?", EXAMPLES)
    assert generations(tgi) == 1


def test_ping(tgi: Any) -> None:
    assert TGIGenerator(tgi.url, timeout=60.0, max_new_tokens=512, retries=1).ping(1) is True
    with refused_url() as url:
        assert TGIGenerator(url.removesuffix("/sparql"), timeout=60.0, max_new_tokens=512, retries=1).ping(1) is False
