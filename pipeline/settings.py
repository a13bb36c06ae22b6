"""One settings object, read from the environment (``KGQA_*``, ``SLACK_*``, ``SCIQA_DIR``) and an optional .env."""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

ORKG_ENDPOINT = "https://orkg.org/triplestore"
DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"

_ENV = {  # field -> environment variable
    "home": "KGQA_HOME", "sciqa_dir": "SCIQA_DIR", "embedding_model": "KGQA_EMBEDDING_MODEL",
    "chroma_url": "KGQA_CHROMA_URL", "collection": "KGQA_COLLECTION", "generator": "KGQA_GENERATOR",
    "shots": "KGQA_SHOTS", "kg": "KGQA_KG", "tgi_url": "KGQA_TGI_URL", "tgi_timeout": "KGQA_TGI_TIMEOUT",
    "max_new_tokens": "KGQA_MAX_NEW_TOKENS", "openai_url": "KGQA_OPENAI_URL", "openai_model": "KGQA_OPENAI_MODEL",
    "openai_api_key": "KGQA_OPENAI_API_KEY", "endpoint": "KGQA_ENDPOINT", "kg_timeout": "KGQA_KG_TIMEOUT",
    "row_cap": "KGQA_ROW_CAP", "max_question_chars": "KGQA_MAX_QUESTION_CHARS",
    "index_splits": "KGQA_INDEX_SPLITS", "http_port": "KGQA_HTTP_PORT", "maintainers": "KGQA_MAINTAINERS",
    "slack_bot_token": "SLACK_BOT_TOKEN", "slack_app_token": "SLACK_APP_TOKEN",
    "slack_signing_secret": "SLACK_SIGNING_SECRET", "slack_api_url": "SLACK_API_URL",
    "workers": "KGQA_WORKERS", "min_similarity": "KGQA_MIN_SIMILARITY", "deadline": "KGQA_DEADLINE",
    "cache_ttl": "KGQA_CACHE_TTL", "cache_max": "KGQA_CACHE_MAX", "queue_size": "KGQA_QUEUE_SIZE",
    "user_questions": "KGQA_USER_QUESTIONS", "user_window_s": "KGQA_USER_WINDOW_S", "http_host": "KGQA_HTTP_HOST",
    "dedup_path": "KGQA_DEDUP_PATH", "dedup_ttl": "KGQA_DEDUP_TTL", "slack_timeout": "KGQA_SLACK_TIMEOUT",
    "llm_fallback": "KGQA_LLM_FALLBACK", "retrieval": "KGQA_RETRIEVAL", "store_timeout": "KGQA_STORE_TIMEOUT",
    "redis_url": "KGQA_REDIS_URL", "redis_timeout": "KGQA_REDIS_TIMEOUT",
    "mcp_token": "KGQA_MCP_TOKEN", "mcp_host": "KGQA_MCP_HOST", "mcp_port": "KGQA_MCP_PORT",
}
SECRETS = ("slack_bot_token", "slack_app_token", "slack_signing_secret", "openai_api_key", "mcp_token")


@dataclass(frozen=True)
class Settings:
    """Every knob, with defaults that work offline on a laptop."""

    home: Path = field(default_factory=lambda: Path.home() / ".kgqa")
    sciqa_dir: Path | None = None
    embedding_model: str = DEFAULT_MODEL
    chroma_url: str = ""
    store_timeout: float = 10.0  # seconds for one call to a Chroma server (KGQA_CHROMA_URL), opening included
    collection: str = "sciqa_examples"
    generator: str = ""  # "" = tgi when tgi_url is set, else adapter
    shots: int = 3
    kg: str = "auto"  # auto = live endpoint with snapshot fallback
    tgi_url: str = ""
    tgi_timeout: float = 60.0
    max_new_tokens: int = 512
    openai_url: str = ""
    openai_model: str = "vicuna-13b"
    openai_api_key: str = ""
    endpoint: str = ORKG_ENDPOINT
    kg_timeout: float = 30.0
    row_cap: int = 1000
    max_question_chars: int = 2000
    index_splits: str = "train"
    http_port: int = 3000
    maintainers: str = ""
    slack_bot_token: str = ""
    slack_app_token: str = ""
    slack_signing_secret: str = ""
    slack_api_url: str = ""
    workers: int = 4
    min_similarity: float = 0.45
    deadline: float = 90.0  # seconds a question may take in all
    cache_ttl: float = 86400.0  # seconds a live-endpoint answer stays fresh; 0 turns the cache off
    cache_max: int = 5000
    queue_size: int = 50  # questions waiting for a worker before people are asked to come back later
    user_questions: int = 6  # per person per window
    user_window_s: float = 60.0
    http_host: str = "0.0.0.0"
    dedup_path: Path | None = None  # a SQLite file shared by replicas (one host or volume); None = in memory
    dedup_ttl: float = 3600.0  # seconds an event id is remembered (Slack retries within minutes)
    slack_timeout: float = 15.0  # seconds for one Slack Web API call
    retrieval: str = "form"  # "form": form-aware re-ranking (pipeline.store.retrieval); "plain": raw cosine neighbours
    llm_fallback: str = "adapter"  # when the LLM fails or writes no query: "adapter" answers instead, or "none"
    redis_url: str = ""  # redis://host:6379/0 or rediss://:password@host:6380/0: state shared by replicas on many hosts
    redis_timeout: float = 0.5  # seconds one Redis call may take before this process falls back to its own state
    mcp_token: str = ""  # bearer token `kgqa mcp --http` requires (always beyond loopback; on loopback when set)
    mcp_host: str = "127.0.0.1"  # where `kgqa mcp --http` listens
    mcp_port: int = 8765

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: Path | None = Path(".env"), **overrides: Any) -> Settings:
        """Read the environment (and a .env file, whose values the environment overrides)."""
        values: dict[str, str] = {}
        if dotenv is not None and dotenv.is_file():
            values.update(_read_dotenv(dotenv))
        values.update(os.environ if env is None else env)
        kwargs: dict[str, Any] = {}
        types = {f.name: f.type for f in fields(cls)}
        for name, var in _ENV.items():
            raw = values.get(var, "").strip()
            if raw:
                kwargs[name] = _convert(raw, str(types[name]))
        kwargs.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**kwargs)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    @property
    def chroma_path(self) -> Path:
        return self.home / "chroma"

    @property
    def kg_store(self) -> Path:
        return self.home / "kg"

    @property
    def maintainer_ids(self) -> frozenset[str]:
        return frozenset(m.strip() for m in self.maintainers.split(",") if m.strip())

    def secrets(self) -> list[str]:
        """The secret values set, so that logs and replies can be scrubbed of them."""
        from urllib.parse import urlsplit

        values = [v for v in (getattr(self, n) for n in SECRETS) if v]
        return values + [p for p in (urlsplit(self.redis_url).password,) if p]

    def __repr__(self) -> str:  # never print a token
        from pipeline.shared.link import masked

        shown = {f.name: ("***" if f.name in SECRETS and getattr(self, f.name) else getattr(self, f.name))
                 for f in fields(self)}
        shown["redis_url"] = masked(self.redis_url)
        return "Settings(" + ", ".join(f"{k}={v!r}" for k, v in shown.items()) + ")"


def _convert(raw: str, type_name: str) -> Any:
    if "Path" in type_name:
        return Path(raw).expanduser()
    if type_name == "int":
        return int(raw)
    if type_name == "float":
        return float(raw)
    return raw


def _read_dotenv(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            out[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return out
