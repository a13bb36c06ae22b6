"""The Slack Web API stand-in against the real slack_sdk WebClient, and the signing helper against a real Bolt app."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
from slack_bolt import Ack, App, Respond, Say
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from standins.slack.api import SlackAPIServer
from standins.slack.signing import post_command, post_event, post_interaction, sign
from tests.standins.slack.conftest import TOKEN

SECRET = "test-signing-secret"


# -- the Web API stand-in ------------------------------------------------------------------------------------


def test_auth_test_answers_as_the_bot(srv: SlackAPIServer, client: WebClient) -> None:
    response = client.auth_test()

    assert (response["user_id"], response["bot_id"], response["team_id"], response["user"]) == (
        "UBOT",
        "BBOT",
        "T1",
        "kgqa",
    )
    [call] = srv.calls_to("auth.test")
    assert call.headers["authorization"] == f"Bearer {TOKEN}"
    assert call.token == TOKEN


def test_post_in_thread_then_update(srv: SlackAPIServer, client: WebClient) -> None:
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "*working…*"}}]
    first = client.chat_postMessage(channel="C1", text="working", blocks=blocks, thread_ts="1699999999.000100")
    second = client.chat_postMessage(channel="C1", text="again", thread_ts="1699999999.000100")
    updated = client.chat_update(channel="C1", ts=first["ts"], text="done")

    assert first["channel"] == "C1"
    assert first["message"]["thread_ts"] == "1699999999.000100"
    assert first["message"]["blocks"] == blocks
    assert float(second["ts"]) > float(first["ts"])
    assert updated["ts"] == first["ts"] and updated["message"]["text"] == "done"
    post = srv.calls_to("chat.postMessage")[0]
    assert post.params["thread_ts"] == "1699999999.000100"
    assert post.json("blocks") == blocks
    assert [c.method for c in srv.calls] == ["chat.postMessage", "chat.postMessage", "chat.update"]


def test_files_upload_v2_flow_records_the_content(srv: SlackAPIServer, client: WebClient) -> None:
    content = "model,score\nT5,0.93\n"
    response = client.files_upload_v2(
        channel="C1", thread_ts="1700000000.000100", filename="answer.csv", content=content, title="All rows"
    )

    file_id = response["file"]["id"]
    assert srv.uploads[file_id] == content.encode()
    assert response["file"]["title"] == "All rows"
    assert response["file"]["size"] == len(content.encode())
    [complete] = srv.calls_to("files.completeUploadExternal")
    assert complete.params["channel_id"] == "C1"
    assert complete.params["thread_ts"] == "1700000000.000100"
    assert isinstance(complete.params["files"], str)  # a JSON string inside a form body, as Slack receives it
    assert complete.json("files")[0]["id"] == file_id
    assert [c.method for c in srv.calls] == ["files.getUploadURLExternal", "upload", "files.completeUploadExternal"]


def test_assistant_status_views_and_others(srv: SlackAPIServer, client: WebClient) -> None:
    client.assistant_threads_setStatus(channel_id="D1", thread_ts="1700000000.000100", status="is thinking…")
    home = {"type": "home", "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "hi"}}]}
    view = client.views_publish(user_id="U1", view=home)
    client.reactions_add(channel="C1", timestamp="1700000000.000100", name="eyes")
    assert client.conversations_replies(channel="C1", ts="1700000000.000100")["messages"] == []
    assert client.users_info(user="U1")["user"]["id"] == "U1"
    assert client.chat_postEphemeral(channel="C1", user="U1", text="only you")["message_ts"]
    assert client.chat_delete(channel="C1", ts="1700000000.000100")["ok"]

    assert view["view"]["blocks"] == home["blocks"]
    [status] = srv.calls_to("assistant.threads.setStatus")
    assert status.params == {"channel_id": "D1", "thread_ts": "1700000000.000100", "status": "is thinking…"}
    assert srv.calls_to("views.publish")[0].json("view") == home


def test_multipart_bodies_are_parsed(srv: SlackAPIServer, client: WebClient) -> None:
    client.api_call("chat.postMessage", data={"channel": "C1", "text": "multi part"})

    assert srv.calls_to("chat.postMessage")[0].params == {"channel": "C1", "text": "multi part"}


def test_missing_token_is_not_authed(srv: SlackAPIServer) -> None:
    with pytest.raises(SlackApiError) as caught:
        WebClient(base_url=srv.url).chat_postMessage(channel="C1", text="hi")

    assert caught.value.response["error"] == "not_authed"
    assert srv.calls_to("chat.postMessage")[0].token is None


def test_rate_limit_is_retried_after_retry_after(srv: SlackAPIServer) -> None:
    client = WebClient(token=TOKEN, base_url=srv.url, retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=1)])
    srv.fail_next("chat.postMessage", status=429, retry_after=1)

    response = client.chat_postMessage(channel="C1", text="hi")

    assert response["ok"]
    first, second = srv.calls_to("chat.postMessage")
    assert (first.status, second.status) == (429, 200)
    assert second.at - first.at >= 1.0


def test_server_error_surfaces_as_slack_api_error(srv: SlackAPIServer, client: WebClient) -> None:
    srv.fail_next("chat.postMessage", status=500)

    with pytest.raises(SlackApiError) as caught:
        client.chat_postMessage(channel="C1", text="hi")

    assert caught.value.response.status_code == 500
    assert caught.value.response["error"] == "internal_error"
    assert client.chat_postMessage(channel="C1", text="hi")["ok"]  # only the next call failed


def test_response_url_posts_are_recorded(srv: SlackAPIServer) -> None:
    body = json.dumps({"text": "answer", "response_type": "in_channel"}).encode()
    request = urllib.request.Request(
        srv.response_url("cmd1"), data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        assert json.loads(response.read()) == {"ok": True}

    [call] = srv.calls_to("response_url")
    assert call.params == {"text": "answer", "response_type": "in_channel"}
    assert call.path == "/response/cmd1"


def test_wait_for_reports_what_arrived(srv: SlackAPIServer, client: WebClient) -> None:
    client.reactions_add(channel="C1", timestamp="1700000000.000100", name="eyes")

    with pytest.raises(AssertionError, match="reactions.add"):
        srv.wait_for("chat.postMessage", timeout=0.2)


# -- the signing helper against a real Bolt app ---------------------------------------------------------------


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def bolt_url(srv: SlackAPIServer) -> Iterator[str]:
    app = App(signing_secret=SECRET, client=WebClient(token=TOKEN, base_url=srv.url))

    @app.event("app_mention")
    def reply(event: dict[str, Any], say: Say) -> None:
        say(text="pong", thread_ts=event.get("thread_ts") or event["ts"])

    @app.command("/kgqa")
    def kgqa(ack: Ack, command: dict[str, Any], respond: Respond) -> None:
        ack()
        respond(f"looked up {command['text']}")

    @app.action("approve")
    def approve(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        ack()
        client.reactions_add(channel=body["channel"]["id"], timestamp=body["message"]["ts"], name="white_check_mark")

    httpd: WSGIServer = make_server("127.0.0.1", 0, SlackRequestHandler(app), handler_class=_QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/slack/events"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _mention() -> dict[str, Any]:
    return {
        "type": "app_mention",
        "user": "U1",
        "text": "<@UBOT> which model is best on Story Cloze?",
        "ts": "1700000001.000200",
        "channel": "C1",
        "event_ts": "1700000001.000200",
    }


def test_sign_matches_slack_sdk_verifier() -> None:
    from slack_sdk.signature import SignatureVerifier

    body = b'{"type":"event_callback"}'
    headers = sign(SECRET, body)

    assert SignatureVerifier(SECRET).is_valid_request(body, headers)
    assert not SignatureVerifier("other").is_valid_request(body, headers)


def test_signed_mention_gets_a_threaded_reply(srv: SlackAPIServer, bolt_url: str) -> None:
    status, _ = post_event(bolt_url, SECRET, _mention())

    assert status == 200
    [reply] = srv.wait_for("chat.postMessage")
    assert reply.params["channel"] == "C1"
    assert reply.params["thread_ts"] == "1700000001.000200"
    assert reply.params["text"] == "pong"
    assert srv.calls_to("auth.test")  # Bolt verified its token against the stand-in


def test_wrong_secret_is_rejected(srv: SlackAPIServer, bolt_url: str) -> None:
    status, _ = post_event(bolt_url, "not-the-secret", _mention())

    assert status == 401
    assert srv.calls_to("chat.postMessage") == []


def test_stale_timestamp_is_rejected(srv: SlackAPIServer, bolt_url: str) -> None:
    status, _ = post_event(bolt_url, SECRET, _mention(), timestamp=int(time.time()) - 600)

    assert status == 401
    assert srv.calls_to("chat.postMessage") == []


def test_slash_command_responds_through_response_url(srv: SlackAPIServer, bolt_url: str) -> None:
    status, _ = post_command(bolt_url, SECRET, "/kgqa", "lookup SOTA", response_url=srv.response_url("kgqa"))

    assert status == 200
    [call] = srv.wait_for("response_url")
    assert call.params["text"] == "looked up lookup SOTA"


def test_block_action_is_delivered(srv: SlackAPIServer, bolt_url: str) -> None:
    payload = {
        "type": "block_actions",
        "team": {"id": "T1", "domain": "kgqa-test"},
        "user": {"id": "U1", "username": "alice", "team_id": "T1"},
        "api_app_id": "A1",
        "token": "legacy-verification-token",
        "trigger_id": "1.2.3",
        "channel": {"id": "C1", "name": "general"},
        "message": {"type": "message", "ts": "1700000000.000100", "text": "answer"},
        "response_url": srv.response_url("action"),
        "actions": [
            {"type": "button", "action_id": "approve", "block_id": "b1", "value": "x", "action_ts": "1700000002.1"}
        ],
    }

    status, _ = post_interaction(bolt_url, SECRET, payload)

    assert status == 200
    [call] = srv.wait_for("reactions.add")
    assert call.params["name"] == "white_check_mark"


def test_apps_connections_open_takes_only_an_app_token(srv: SlackAPIServer, client: WebClient) -> None:
    app = WebClient(token="xapp-1-A1-2-secret", base_url=srv.url)
    with pytest.raises(SlackApiError, match="socket_mode_not_enabled"):
        app.apps_connections_open(app_token="xapp-1-A1-2-secret")
    srv.socket_mode_url = "ws://127.0.0.1:9/link/?ticket=t"
    assert app.apps_connections_open(app_token="xapp-1-A1-2-secret")["url"] == srv.socket_mode_url
    with pytest.raises(SlackApiError, match="not_allowed_token_type"):
        client.apps_connections_open(app_token=TOKEN)  # a bot token cannot open a link
    with pytest.raises(SlackApiError, match="not_allowed_token_type"):
        app.chat_postMessage(channel="C1", text="hi")  # and an app token cannot post


def test_a_picture_goes_through_the_upload_flow_with_its_alt_text(srv: SlackAPIServer, client: WebClient) -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    response = client.files_upload_v2(channel="C1", thread_ts="1700000000.000100", file_uploads=[
        {"file": png, "filename": "chart.png", "title": "Chart", "alt_txt": "Bar chart of Accuracy"}])

    [stored] = srv.uploaded_files
    assert stored["content"] == png and stored["alt_txt"] == "Bar chart of Accuracy"
    assert response["files"][0]["mimetype"] == "image/png" and response["files"][0]["alt_txt"] == stored["alt_txt"]
    [ask] = srv.calls_to("files.getUploadURLExternal")
    assert ask.params["alt_txt"] == "Bar chart of Accuracy" and int(ask.params["length"]) == len(png)
