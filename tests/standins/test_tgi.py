"""The stand-in TGI server, driven through the real clients: ``text_generation.Client``, ``InferenceClient``, urllib."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from huggingface_hub import InferenceClient
from huggingface_hub.errors import HfHubHTTPError
from text_generation import Client
from text_generation.errors import GenerationError, OverloadedError, ValidationError

from standins._tgi_answers import GARBAGE_TEXT
from standins.tgi import FAULTS, MODEL_ID, TGIServer

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
SCIQA_DIR = Path(os.environ.get("SCIQA_DIR") or SHARED / "sciqa")
SEED_DIR = Path(os.environ.get("SEED_DIR") or SHARED / "seed-paper-outputs")
SHOT_FILES = {  # the seed's final-phase runs
    1: "test/one_shot/final_phase_test_200_questions_sparql_using_1_shot.json",
    3: "test/three_shot/three_shot_sparql.json",
    5: "test/few_shot/final_test_200_questions_sparql.json",
}
UNKNOWN = "Which pizza topping has achieved the highest crunchiness score on the Margherita benchmark?"
# text_generation 0.7 calls pydantic's deprecated ``.dict()`` on every request; that is its warning, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:The `dict` method is deprecated:DeprecationWarning")

VICUNA = (
    "A chat between a curious user and an artificial intelligence assistant. The assistant gives helpful, detailed, "
    "and polite answers to the user's questions. USER: {prompt} ASSISTANT:"
)


def flat(text: str) -> str:
    return " ".join(text.split())


def paper_prompt(examples: list[tuple[str, str]], question: str, form: str = "template") -> str:
    """Taffa & Usbeck's template; ``form`` varies how each example is laid out."""
    layouts = {
        "template": lambda q, s: f"Question: {flat(q)} \n Sparql: {flat(s)}",
        "one_line": lambda q, s: f"Question: {flat(q)} Sparql: {flat(s)}",
        "multiline": lambda q, s: f"Question: {q}\nSparql:\n{s}\n",
    }
    lines = [
        "Task: Generate SPARQL queries to query the ORKG.",
        "Instruction: If you cannot generate a SPARQL query based on the provided examples, explain the reason.",
        *(layouts[form](q, s) for q, s in examples),
        f"Question: {question}",
        "Sparql:",
        "Note: Output only the SPARQL query.",
    ]
    return "\n".join(lines)


def vicuna_prompt(examples: list[tuple[str, str]], question: str, form: str = "template") -> str:
    return VICUNA.format(prompt=paper_prompt(examples, question, form))


@pytest.fixture(scope="module")
def recorded() -> dict[int, dict[str, str]]:
    """The seed's final-phase SPARQL by shot count and question id."""
    return {
        shots: {row["id"]: row["sparql"] for row in json.loads((SEED_DIR / name).read_text(encoding="utf-8"))}
        for shots, name in SHOT_FILES.items()
    }


@pytest.fixture(scope="module")
def case(recorded: dict[int, dict[str, str]]) -> dict[str, Any]:
    """A final-phase question whose 1/3/5-shot outputs all differ and differ from its first example's SPARQL."""
    final = json.loads((SCIQA_DIR / "challenge" / "final_phase_sciqa_200_questions_1.json").read_text("utf-8"))
    similar = json.loads((SEED_DIR / "test" / "top_n_similar_questions.json").read_text("utf-8"))
    examples = {
        row["id"]: [(ex["similar_question"], ex["similar_question_sparql"]) for ex in row["top_n_similar_questions"]]
        for row in similar
    }
    for item in final:
        question = item["question"]["string"] if isinstance(item["question"], dict) else item["question"]
        outputs = {recorded[n][item["id"]] for n in SHOT_FILES} | {flat(examples[item["id"]][0][1])}
        if len(outputs) == len(SHOT_FILES) + 1:
            return {"id": item["id"], "question": question, "examples": examples[item["id"]]}
    raise AssertionError("no final-phase question with distinct recorded outputs")


@pytest.fixture
def srv() -> Iterator[TGIServer]:
    with TGIServer(SEED_DIR) as server:
        yield server


def three_shot(case: dict[str, Any], form: str = "template") -> str:
    return vicuna_prompt(case["examples"][:3], case["question"], form)


def test_three_shot_prompt_gets_the_recorded_three_shot_sparql(srv: TGIServer, case: dict[str, Any],
                                                               recorded: dict[int, dict[str, str]]) -> None:
    response = Client(srv.url).generate(three_shot(case), max_new_tokens=512)

    assert response.generated_text == recorded[3][case["id"]]
    assert response.details.finish_reason == "eos_token"
    assert response.details.tokens[-1].special
    path, body = srv.requests[-1]
    assert path == "/" and body["stream"] is False
    assert body["parameters"]["do_sample"] is False and body["parameters"]["details"] is True


@pytest.mark.parametrize("shots", [1, 3, 5])
@pytest.mark.parametrize("form", ["template", "one_line", "multiline"])
def test_shot_count_and_prompt_layout(srv: TGIServer, case: dict[str, Any], recorded: dict[int, dict[str, str]],
                                      shots: int, form: str) -> None:
    prompt = vicuna_prompt(case["examples"][:shots], case["question"], form)

    assert Client(srv.url).generate(prompt, max_new_tokens=512).generated_text == recorded[shots][case["id"]]


def test_shot_count_without_a_recording_uses_three_shot(srv: TGIServer, case: dict[str, Any],
                                                         recorded: dict[int, dict[str, str]]) -> None:
    prompt = vicuna_prompt(case["examples"][:2], "  " + case["question"].upper() + " ")

    assert Client(srv.url).generate(prompt, max_new_tokens=512).generated_text == recorded[3][case["id"]]


def test_unknown_question_gets_the_first_examples_sparql(srv: TGIServer, case: dict[str, Any]) -> None:
    prompt = vicuna_prompt(case["examples"][:3], UNKNOWN, "multiline")

    assert Client(srv.url).generate(prompt, max_new_tokens=512).generated_text == flat(case["examples"][0][1])


def test_generate_stream(srv: TGIServer, case: dict[str, Any], recorded: dict[int, dict[str, str]]) -> None:
    events = list(Client(srv.url).generate_stream(three_shot(case), max_new_tokens=512))

    text = "".join(event.token.text for event in events if not event.token.special)
    assert text == events[-1].generated_text == recorded[3][case["id"]]
    assert all(event.generated_text is None for event in events[:-1])
    assert events[-1].details is not None and events[-1].details.finish_reason == "eos_token"
    assert srv.requests[-1][1]["stream"] is True


def test_stop_sequence_cuts_and_is_kept(srv: TGIServer, case: dict[str, Any],
                                        recorded: dict[int, dict[str, str]]) -> None:
    client = Client(srv.url)
    full = recorded[3][case["id"]]
    stop = full.split()[2]

    cut = client.generate(three_shot(case), max_new_tokens=512, stop_sequences=[stop])
    streamed = list(client.generate_stream(three_shot(case), max_new_tokens=512, stop_sequences=[stop]))

    assert cut.generated_text == full[: full.index(stop) + len(stop)]
    assert cut.details.finish_reason == "stop_sequence"
    assert streamed[-1].generated_text == cut.generated_text


def test_max_new_tokens_counts_words(srv: TGIServer, case: dict[str, Any]) -> None:
    response = Client(srv.url).generate(three_shot(case), max_new_tokens=4)

    assert len(response.generated_text.split()) == 4
    assert response.details.finish_reason == "length" and response.details.generated_tokens == 4


def test_too_many_stop_sequences_is_a_validation_error(srv: TGIServer, case: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="stop"):
        Client(srv.url).generate(three_shot(case), stop_sequences=["a", "b", "c", "d", "e"])


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def test_generate_route_returns_one_object(srv: TGIServer, case: dict[str, Any],
                                           recorded: dict[int, dict[str, str]]) -> None:
    inputs = three_shot(case)
    plain = post(srv.url + "/generate", {"inputs": inputs, "parameters": {"max_new_tokens": 512}})
    detailed = post(srv.url + "/generate", {"inputs": inputs, "parameters": {"max_new_tokens": 512, "details": True}})

    assert plain == {"generated_text": recorded[3][case["id"]]}
    assert detailed["generated_text"] == recorded[3][case["id"]]
    assert detailed["details"]["finish_reason"] == "eos_token" and detailed["details"]["prefill"]


def test_info_and_health(srv: TGIServer) -> None:
    with urllib.request.urlopen(srv.url + "/info", timeout=5) as response:
        info = json.loads(response.read())
    with urllib.request.urlopen(srv.url + "/health", timeout=5) as response:
        status = response.status

    assert info["model_id"] == MODEL_ID == "lmsys/vicuna-13b-v1.5"
    assert info["max_stop_sequences"] >= 1 and status == 200
    assert [path for path, _ in srv.requests] == ["/info", "/health"]


def chat(srv: TGIServer) -> InferenceClient:
    return InferenceClient(base_url=srv.url + "/v1", timeout=5)


def test_chat_completion(srv: TGIServer, case: dict[str, Any], recorded: dict[int, dict[str, str]]) -> None:
    messages = [{"role": "user", "content": paper_prompt(case["examples"][:3], case["question"])}]

    output = chat(srv).chat_completion(messages, max_tokens=512, temperature=None)

    assert output.choices[0].message.content == recorded[3][case["id"]]
    assert output.choices[0].finish_reason == "stop" and output.model == MODEL_ID
    assert srv.requests[-1][0] == "/v1/chat/completions"


def test_chat_completion_stream(srv: TGIServer, case: dict[str, Any], recorded: dict[int, dict[str, str]]) -> None:
    messages = [{"role": "user", "content": paper_prompt(case["examples"][:3], case["question"])}]

    chunks = list(chat(srv).chat_completion(messages, max_tokens=512, stream=True))

    assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks) == recorded[3][case["id"]]
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert srv.requests[-1][1]["stream"] is True


def test_enqueued_texts_come_first_in_order(srv: TGIServer, case: dict[str, Any],
                                            recorded: dict[int, dict[str, str]]) -> None:
    client = Client(srv.url)
    srv.enqueue("SELECT ?first WHERE { }", "SELECT ?second WHERE { }")

    texts = [client.generate(three_shot(case), max_new_tokens=512).generated_text for _ in range(3)]

    assert texts == ["SELECT ?first WHERE { }", "SELECT ?second WHERE { }", recorded[3][case["id"]]]


@pytest.mark.parametrize(("fault", "error"), [("500", GenerationError), ("503", OverloadedError)])
def test_error_faults_raise_the_clients_errors(srv: TGIServer, case: dict[str, Any], fault: str,
                                                error: type[Exception]) -> None:
    srv.fault = fault
    client = Client(srv.url)

    with pytest.raises(error):
        client.generate(three_shot(case))
    with pytest.raises(error):
        next(iter(client.generate_stream(three_shot(case))))
    with pytest.raises(HfHubHTTPError) as raised:
        chat(srv).chat_completion([{"role": "user", "content": three_shot(case)}])
    assert raised.value.response is not None and raised.value.response.status_code == int(fault)


def test_fault_for_a_number_of_requests(srv: TGIServer, case: dict[str, Any],
                                        recorded: dict[int, dict[str, str]]) -> None:
    srv.set_fault("503", times=1)
    client = Client(srv.url)

    with pytest.raises(OverloadedError):
        client.generate(three_shot(case), max_new_tokens=512)
    assert client.generate(three_shot(case), max_new_tokens=512).generated_text == recorded[3][case["id"]]
    assert srv.fault is None


def test_unknown_fault_is_refused(srv: TGIServer) -> None:
    with pytest.raises(ValueError, match="unknown fault"):
        srv.fault = "teapot"
    assert set(FAULTS) == {"500", "503", "hang", "drop", "garbage", "refusal", "truncated_sse", "bad_json",
                           "trickle"}


def test_hang_times_the_client_out_and_close_still_returns_promptly(case: dict[str, Any]) -> None:
    srv = TGIServer(SEED_DIR)
    try:
        srv.fault = "hang"
        with pytest.raises(requests.exceptions.Timeout):
            Client(srv.url, timeout=1).generate(three_shot(case))
        with pytest.raises(requests.exceptions.Timeout):
            next(iter(Client(srv.url, timeout=1).generate_stream(three_shot(case))))
    finally:
        started = time.monotonic()
        srv.close()
    assert time.monotonic() - started < 2


def test_hang_shorter_than_the_client_timeout_is_just_slow(case: dict[str, Any],
                                                           recorded: dict[int, dict[str, str]]) -> None:
    with TGIServer(SEED_DIR, hang_seconds=0.2) as srv:
        srv.fault = "hang"
        response = Client(srv.url, timeout=10).generate(three_shot(case), max_new_tokens=512)

    assert response.generated_text == recorded[3][case["id"]]


def test_garbage_and_refusal_come_back_as_text(srv: TGIServer, case: dict[str, Any]) -> None:
    client = Client(srv.url)

    srv.fault = "garbage"
    garbage = client.generate(three_shot(case), max_new_tokens=512).generated_text
    srv.fault = "refusal"
    refusal = client.generate(three_shot(case), max_new_tokens=512).generated_text
    streamed = list(client.generate_stream(three_shot(case), max_new_tokens=512))[-1].generated_text

    assert garbage == GARBAGE_TEXT and "SELECT" not in garbage
    assert refusal.startswith("I cannot generate a SPARQL query") and case["question"] in refusal
    assert streamed == refusal


def test_truncated_stream_breaks_the_clients(srv: TGIServer, case: dict[str, Any]) -> None:
    srv.fault = "truncated_sse"
    seen: list[Any] = []

    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        seen.extend(Client(srv.url).generate_stream(three_shot(case), max_new_tokens=512))
    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        list(chat(srv).chat_completion([{"role": "user", "content": three_shot(case)}], stream=True))
    with pytest.raises(requests.exceptions.ChunkedEncodingError):  # not a stream: the body stops halfway
        Client(srv.url).generate(three_shot(case), max_new_tokens=512)

    assert 1 <= len(seen) <= 2 and all(event.generated_text is None for event in seen)


def test_bad_json_is_a_decoding_error(srv: TGIServer, case: dict[str, Any]) -> None:
    srv.fault = "bad_json"
    client = Client(srv.url)

    with pytest.raises(ValueError):  # requests' JSONDecodeError
        client.generate(three_shot(case))
    with pytest.raises(ValueError):  # json.JSONDecodeError from the SSE line
        list(client.generate_stream(three_shot(case)))
    with pytest.raises(ValueError):
        chat(srv).chat_completion([{"role": "user", "content": three_shot(case)}])
