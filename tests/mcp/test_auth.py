"""The HTTP transport's token policy: who must bring a token, and which token passes."""
from __future__ import annotations

import pytest

from pipeline.errors import ConfigError
from pipeline.mcp.auth import StaticToken, http_auth, is_loopback
from tests.mcp.harness import run

TOKEN = "a-long-enough-token-123"


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("127.8.9.1", True), ("::1", True),
                                            ("[::1]", True), ("localhost", True), ("0.0.0.0", False),
                                            ("::", False), ("10.0.0.5", False), ("mcp.example.org", False)])
def test_loopback_is_told_from_everything_else(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_no_token_is_fine_on_loopback_only() -> None:
    assert http_auth(None, "127.0.0.1", 8765) == (None, None)
    with pytest.raises(ConfigError, match="KGQA_MCP_TOKEN"):
        http_auth(None, "0.0.0.0", 8765)


def test_a_set_token_is_required_on_loopback_too_and_only_it_passes() -> None:
    settings, verifier = http_auth(TOKEN, "127.0.0.1", 8765)
    assert settings is not None and verifier is not None

    async def scenario() -> None:
        accepted = await verifier.verify_token(TOKEN)
        assert accepted is not None and TOKEN not in accepted.model_dump_json()
        for wrong in ("", TOKEN[:-1], TOKEN + "x", TOKEN.upper()):
            assert await verifier.verify_token(wrong) is None

    run(scenario)


@pytest.mark.parametrize("token", ["short", " " + TOKEN, TOKEN + "\n"])
def test_weak_or_padded_tokens_are_refused_without_showing_them(token: str) -> None:
    with pytest.raises(ConfigError) as refused:
        http_auth(token, "0.0.0.0", 8765)
    assert token.strip() not in str(refused.value)


def test_the_verifier_keeps_no_copy_of_the_token_in_its_repr() -> None:
    assert TOKEN not in repr(StaticToken(TOKEN))
