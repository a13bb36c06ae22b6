"""The HTTP transport's bearer token (``KGQA_MCP_TOKEN``): required beyond loopback, honoured on loopback when set."""
from __future__ import annotations

import hmac
import ipaddress

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from pydantic import AnyHttpUrl

from pipeline.errors import ConfigError

MIN_TOKEN_CHARS = 16
CLIENT_ID = "kgqa-mcp-token"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve anywhere


class StaticToken:
    """A TokenVerifier (the SDK's protocol) accepting exactly one token, compared in constant time."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        if not hmac.compare_digest(token.encode(), self._token):
            return None
        return AccessToken(token="", client_id=CLIENT_ID, scopes=[])  # the token itself is never kept around


def http_auth(token: str | None, host: str, port: int) -> tuple[AuthSettings | None, StaticToken | None]:
    """The SDK's auth settings and verifier for listening on ``host`` (``token`` None: no token set); a ConfigError
    when that would be unsafe."""
    if token is None:
        if not is_loopback(host):
            raise ConfigError(f"kgqa mcp --http on {host} is reachable beyond this machine: set KGQA_MCP_TOKEN "
                              "(a long random string, e.g. from `python -c \"import secrets; "
                              "print(secrets.token_urlsafe(32))\"`), or listen on 127.0.0.1")
        return None, None
    if len(token) < MIN_TOKEN_CHARS or token != token.strip():
        raise ConfigError(f"KGQA_MCP_TOKEN must be at least {MIN_TOKEN_CHARS} characters without outer blanks")
    # No authorization server: the token is shared out of band; the issuer is this server, and no OAuth metadata
    # routes are published (resource_server_url None).
    shown = f"[{host}]" if ":" in host else host
    return AuthSettings(issuer_url=AnyHttpUrl(f"http://{shown}:{port}"), resource_server_url=None), StaticToken(token)
