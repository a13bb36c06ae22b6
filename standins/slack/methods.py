"""The Web API methods the Slack stand-in answers, each as Slack does: takes the call's parameters, returns the JSON
payload. ``WebAPI`` is mixed into ``SlackAPIServer``, which holds the state the methods read and write."""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

from standins.slack.agent import AgentAPI
from standins.slack.blocks import blocks_error
from standins.slack.wire import maybe_json

TEAM_ID = "T1"
TEAM_NAME = "KGQA Test"
BOT_USER_ID = "UBOT"
BOT_ID = "BBOT"
BOT_USER_NAME = "kgqa"
APP_ID = "A1"

# Slack's ts values: seconds and a six-digit suffix, unique per channel and increasing.
_FIRST_TS_MICROS = 1_700_000_000_000_100
_TS_STEP_MICROS = 100


class WebAPI(AgentAPI):
    """The methods; the state they use is the server's."""

    socket_mode_url: str
    _pending_files: dict[str, dict[str, Any]]
    _uploads: dict[str, bytes]
    _ts: itertools.count[int]
    _ids: itertools.count[int]

    @property
    def base(self) -> str:
        raise NotImplementedError

    def _next_ts(self) -> str:
        micros = _FIRST_TS_MICROS + next(self._ts) * _TS_STEP_MICROS
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):09d}"

    # -- Web API methods: each takes the params and returns the JSON payload ---------------------------------

    def _auth_test(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "ok": True,
            "url": "https://kgqa-test.slack.com/",
            "team": TEAM_NAME,
            "user": BOT_USER_NAME,
            "team_id": TEAM_ID,
            "user_id": BOT_USER_ID,
            "bot_id": BOT_ID,
            "is_enterprise_install": False,
        }

    def _apps_connections_open(self, params: dict[str, Any]) -> dict[str, Any]:
        if not self.socket_mode_url:
            return {"ok": False, "error": "socket_mode_not_enabled"}
        return {"ok": True, "url": self.socket_mode_url}

    def _message(self, params: dict[str, Any], ts: str) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "message",
            "text": params.get("text", ""),
            "user": BOT_USER_ID,
            "bot_id": BOT_ID,
            "app_id": APP_ID,
            "team": TEAM_ID,
            "ts": ts,
        }
        if params.get("blocks"):
            message["blocks"] = maybe_json(params["blocks"])
        if params.get("thread_ts"):
            message["thread_ts"] = params["thread_ts"]
        return message

    def _chat_post_message(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("channel"):
            return {"ok": False, "error": "channel_not_found"}
        if not (params.get("text") or params.get("blocks") or params.get("attachments")):
            return {"ok": False, "error": "no_text"}
        if blocks_error(params.get("blocks")):
            return {"ok": False, "error": "invalid_blocks"}
        ts = self._next_ts()
        return {"ok": True, "channel": params["channel"], "ts": ts, "message": self._message(params, ts)}

    def _chat_update(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("channel"):
            return {"ok": False, "error": "channel_not_found"}
        if not params.get("ts"):
            return {"ok": False, "error": "message_not_found"}
        if blocks_error(params.get("blocks")):
            return {"ok": False, "error": "invalid_blocks"}
        ts = params["ts"]
        return {
            "ok": True,
            "channel": params["channel"],
            "ts": ts,
            "text": params.get("text", ""),
            "message": self._message(params, ts),
        }

    def _chat_post_ephemeral(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("channel"):
            return {"ok": False, "error": "channel_not_found"}
        if not params.get("user"):
            return {"ok": False, "error": "user_not_in_channel"}
        return {"ok": True, "message_ts": self._next_ts()}

    def _chat_delete(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("ts"):
            return {"ok": False, "error": "message_not_found"}
        return {"ok": True, "channel": params.get("channel", ""), "ts": params["ts"]}

    def _ok(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True}

    def _views_publish(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("user_id"):
            return {"ok": False, "error": "invalid_arguments"}
        view = maybe_json(params.get("view") or "{}")
        view_id = self._next_id("V")
        return {
            "ok": True,
            "view": {
                "id": view_id,
                "team_id": TEAM_ID,
                "type": view.get("type", "home"),
                "blocks": view.get("blocks", []),
                "private_metadata": view.get("private_metadata", ""),
                "callback_id": view.get("callback_id", ""),
                "hash": f"{time.time():.6f}",
                "app_id": APP_ID,
                "bot_id": BOT_ID,
                "root_view_id": view_id,
                "previous_view_id": None,
            },
        }

    def _conversations_replies(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "messages": [], "has_more": False, "response_metadata": {"next_cursor": ""}}

    def _users_info(self, params: dict[str, Any]) -> dict[str, Any]:
        user_id = str(params.get("user", ""))
        if not user_id:
            return {"ok": False, "error": "user_not_found"}
        name = "kgqa" if user_id == BOT_USER_ID else f"user-{user_id.lower()}"
        return {
            "ok": True,
            "user": {
                "id": user_id,
                "team_id": TEAM_ID,
                "name": name,
                "real_name": name.title(),
                "deleted": False,
                "is_bot": user_id == BOT_USER_ID,
                "is_admin": False,
                "tz": "Europe/Berlin",
                "tz_offset": 3600,
                "profile": {"display_name": name, "real_name": name.title(), "team": TEAM_ID},
            },
        }

    def _files_get_upload_url(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("filename") or not params.get("length"):
            return {"ok": False, "error": "invalid_arguments"}
        file_id = self._next_id("F")
        self._pending_files[file_id] = {"filename": params["filename"], "length": int(params["length"]),
                                        "alt_txt": params.get("alt_txt") or ""}
        return {"ok": True, "upload_url": f"{self.base}/upload/{file_id}", "file_id": file_id}

    def _files_complete_upload(self, params: dict[str, Any]) -> dict[str, Any]:
        files = []
        for item in maybe_json(params.get("files") or "[]"):
            file_id = item.get("id", "")
            if file_id not in self._uploads:
                return {"ok": False, "error": "file_not_found"}
            meta = self._pending_files[file_id]
            files.append(
                {
                    "id": file_id,
                    "created": int(time.time()),
                    "name": meta["filename"],
                    "title": item.get("title") or meta["filename"],
                    "mimetype": "image/png" if meta["filename"].endswith(".png") else "text/plain",
                    "filetype": "png" if meta["filename"].endswith(".png") else "text",
                    "alt_txt": meta["alt_txt"],
                    "user": BOT_USER_ID,
                    "size": len(self._uploads[file_id]),
                    "url_private": f"https://files.slack.com/files-pri/{TEAM_ID}-{file_id}/{meta['filename']}",
                    "permalink": f"https://kgqa-test.slack.com/files/{BOT_USER_ID}/{file_id}/{meta['filename']}",
                }
            )
        return {"ok": True, "files": files}


METHODS: dict[str, Callable[[WebAPI, dict[str, Any]], dict[str, Any]]] = {
    "auth.test": WebAPI._auth_test,
    "apps.connections.open": WebAPI._apps_connections_open,
    "chat.postMessage": WebAPI._chat_post_message,
    "chat.update": WebAPI._chat_update,
    "chat.postEphemeral": WebAPI._chat_post_ephemeral,
    "chat.delete": WebAPI._chat_delete,
    "assistant.threads.setStatus": WebAPI._set_status,
    "assistant.threads.setSuggestedPrompts": WebAPI._set_suggested_prompts,
    "assistant.threads.setTitle": WebAPI._set_title,
    "chat.startStream": WebAPI._start_stream,
    "chat.appendStream": WebAPI._append_stream,
    "chat.stopStream": WebAPI._stop_stream,
    "views.publish": WebAPI._views_publish,
    "reactions.add": WebAPI._ok,
    "conversations.replies": WebAPI._conversations_replies,
    "users.info": WebAPI._users_info,
    "files.getUploadURLExternal": WebAPI._files_get_upload_url,
    "files.completeUploadExternal": WebAPI._files_complete_upload,
}
