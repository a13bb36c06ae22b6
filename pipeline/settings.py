"""One settings object, read from the environment (``KGQA_*``, ``SLACK_*``, ``SCIQA_DIR``, ...) and an optional .env
by pydantic-settings' own sources; the only module that reads the process environment.

(No ``from __future__ import annotations`` here: pydantic reads the field types at class creation.)

Each setting is declared once, below: its field, environment variable, type (with allowed values) and default; a value
that is not set is ``None``. Adding one is one line. A bad value is a ``ConfigError`` of one line naming the variable
(``KGQA_SHOTS=three: ...``)."""
import os
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import AfterValidator, BeforeValidator, Field, SecretStr, ValidationError
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from pipeline.errors import ConfigError

ORKG_ENDPOINT = "https://orkg.org/triplestore"
DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def _number(value: Any) -> Any:
    """'5' -> 5, so that an environment string can be one of a few allowed numbers."""
    return int(value) if isinstance(value, str) and value.strip().isdigit() else value


def _expand(path: Path | None) -> Path | None:
    return path.expanduser() if path is not None else None


def _blank_is_none(value: Any) -> Any:
    """'' (a secret given in code as blank) -> None: unset is None, never an empty string."""
    return None if isinstance(value, str) and not value.strip() else value


def _zero_is_none(value: Any) -> Any:
    """0 (as the environment writes "off" and "every core") -> None, the one way a value is not set."""
    return None if isinstance(value, (int, float, str)) and str(value).strip() in ("0", "0.0") else value


Folder = Annotated[Path, AfterValidator(_expand)]
Shots = Annotated[Literal[1, 3, 5], BeforeValidator(_number)]
Seconds = Annotated[float, Field(gt=0)]  # a timeout: 0 would mean "never wait"
Count = Annotated[int, Field(ge=0)]
Off = Annotated[Seconds | None, BeforeValidator(_zero_is_none)]  # 0 or unset: no limit
Cores = Annotated[Annotated[int, Field(ge=1)] | None, BeforeValidator(_zero_is_none)]  # 0 or unset: every core
# a token: None when unset; shown as '**********' wherever it is printed (``revealed`` hands the value to a client)
Secret = Annotated[SecretStr | None, BeforeValidator(_blank_is_none)]


def env(var: str, default: Any = None, *, secret: bool = False, factory: Any = None) -> Any:
    """A setting read from ``var``; ``secret`` keeps its value out of reprs and in ``Settings.secrets()``."""
    if factory is not None:
        return Field(default_factory=factory, validation_alias=var, repr=not secret)
    return Field(default, validation_alias=var, repr=not secret)


class Settings(BaseSettings):
    """Every knob, with defaults that work offline on a laptop. ``Settings(...)`` takes exactly what it is given
    (tests, library users); ``Settings.from_env()`` reads the environment and .env (once, at the edge: the CLI and
    the bot)."""

    model_config = SettingsConfigDict(frozen=True, extra="forbid", validate_by_name=True, validate_by_alias=True,
                                      validate_default=False, str_strip_whitespace=True,
                                      case_sensitive=True, env_ignore_empty=True,  # a blank variable is unset
                                      dotenv_filtering="only_existing")  # a .env may hold other tools' variables

    home: Folder = env("KGQA_HOME", factory=lambda: Path.home() / ".kgqa")
    sciqa_dir: Folder | None = env("SCIQA_DIR")
    seed_dir: Folder | None = env("SEED_DIR")  # the reference outputs; None = seed-paper-outputs beside SCIQA_DIR
    embedding_model: str = env("KGQA_EMBEDDING_MODEL", DEFAULT_MODEL)
    encoder_backend: Literal["onnx", "torch"] = env("KGQA_ENCODER_BACKEND", "onnx")  # onnx: MiniLM only, else torch
    encoder_cache: Folder | None = env("KGQA_ENCODER_CACHE")  # exported models; None = $XDG_CACHE_HOME/kgqa
    xdg_cache_home: Folder | None = env("XDG_CACHE_HOME")  # the user's cache folder; None = ~/.cache
    hf_offline: bool = env("HF_HUB_OFFLINE", False)  # load a model from the Hugging Face cache, never the hub
    chroma_url: str | None = env("KGQA_CHROMA_URL")  # None: the embedded store under home
    store: str | None = env("KGQA_STORE")  # a registered store; None = chroma-server with KGQA_CHROMA_URL, else chroma
    store_timeout: Seconds = env("KGQA_STORE_TIMEOUT", 10.0)  # one call to a Chroma server, opening included
    collection: str = env("KGQA_COLLECTION", "sciqa_examples")
    generator: str | None = env("KGQA_GENERATOR")  # None: tgi when tgi_url is set, else adapter
    shots: Shots = env("KGQA_SHOTS", 3)
    kg: str = env("KGQA_KG", "auto")  # auto = live endpoint with snapshot fallback
    tgi_url: str | None = env("KGQA_TGI_URL")
    tgi_timeout: Seconds = env("KGQA_TGI_TIMEOUT", 60.0)
    max_new_tokens: Annotated[int, Field(ge=1)] = env("KGQA_MAX_NEW_TOKENS", 512)
    local_model: str | None = env("KGQA_LOCAL_MODEL")  # a .gguf file, or a name `kgqa models fetch` installs
    local_threads: Cores = env("KGQA_LOCAL_THREADS")  # None: every core
    local_context: Annotated[int, Field(ge=256)] = env("KGQA_LOCAL_CONTEXT", 4096)  # tokens, over all slots
    local_slots: Annotated[int, Field(ge=1)] = env("KGQA_LOCAL_SLOTS", 1)  # questions generated at once
    local_draft: Literal["ngram-simple", "none"] = env("KGQA_LOCAL_DRAFT", "ngram-simple")  # speculative drafts
    local_draft_ngram: Annotated[int, Field(ge=1)] = env("KGQA_LOCAL_DRAFT_NGRAM", 3)  # tokens matched to draft
    local_draft_max: Annotated[int, Field(ge=1)] = env("KGQA_LOCAL_DRAFT_MAX", 32)  # tokens drafted at once
    local_timeout: Seconds = env("KGQA_LOCAL_TIMEOUT", 180.0)  # one generation on a CPU, in all
    model_cache: Folder | None = env("KGQA_MODEL_CACHE")  # installed GGUF models; None = ~/.cache/kgqa/models
    openai_url: str | None = env("KGQA_OPENAI_URL")
    openai_model: str = env("KGQA_OPENAI_MODEL", "vicuna-13b")
    openai_api_key: Secret = env("KGQA_OPENAI_API_KEY", secret=True)
    endpoint: str = env("KGQA_ENDPOINT", ORKG_ENDPOINT)
    kg_timeout: Seconds = env("KGQA_KG_TIMEOUT", 30.0)
    row_cap: Annotated[int, Field(ge=1)] = env("KGQA_ROW_CAP", 1000)
    max_question_chars: Annotated[int, Field(ge=1)] = env("KGQA_MAX_QUESTION_CHARS", 2000)
    index_splits: str = env("KGQA_INDEX_SPLITS", "train")
    http_port: Annotated[int, Field(ge=0, le=65535)] = env("KGQA_HTTP_PORT", 3000)
    maintainers: str = env("KGQA_MAINTAINERS", "")
    slack_bot_token: Secret = env("SLACK_BOT_TOKEN", secret=True)
    slack_app_token: Secret = env("SLACK_APP_TOKEN", secret=True)  # set: Socket Mode
    slack_signing_secret: Secret = env("SLACK_SIGNING_SECRET", secret=True)  # HTTP mode
    slack_api_url: str | None = env("SLACK_API_URL")  # None: Slack's own
    workers: Annotated[int, Field(ge=1)] = env("KGQA_WORKERS", 4)
    min_similarity: float | None = env("KGQA_MIN_SIMILARITY")  # None: the retriever's calibrated threshold
    deadline: Off = env("KGQA_DEADLINE", 90.0)  # seconds a question may take in all; None: no deadline
    cache_ttl: Annotated[float, Field(ge=0)] = env("KGQA_CACHE_TTL", 86400.0)  # 0 turns the answer cache off
    cache_max: Count = env("KGQA_CACHE_MAX", 5000)
    queue_size: Count = env("KGQA_QUEUE_SIZE", 50)  # questions waiting for a worker before people are turned away
    user_questions: Annotated[int, Field(ge=1)] = env("KGQA_USER_QUESTIONS", 6)  # per person per window
    user_window_s: Seconds = env("KGQA_USER_WINDOW_S", 60.0)
    http_host: str = env("KGQA_HTTP_HOST", "0.0.0.0")
    dedup_path: Folder | None = env("KGQA_DEDUP_PATH")  # a SQLite file shared by replicas; None = in memory
    dedup_ttl: Seconds = env("KGQA_DEDUP_TTL", 3600.0)  # seconds an event id is remembered
    slack_timeout: Seconds = env("KGQA_SLACK_TIMEOUT", 15.0)
    # agent: status line, streamed answer, native tables, feedback buttons; classic: placeholder then update
    slack_surface: Literal["agent", "classic"] = env("KGQA_SLACK_SURFACE", "agent")
    retrieval: Literal["form", "plain"] = env("KGQA_RETRIEVAL", "form")  # plain: raw cosine neighbours
    llm_fallback: Literal["adapter", "none"] = env("KGQA_LLM_FALLBACK", "adapter")
    # who writes first; None: adapter first for a model run here (local), LLM first for a model server
    llm_order: Literal["llm-first", "adapter-first"] | None = env("KGQA_LLM_ORDER")
    # what an LLM is given of the graph (pipeline.schema): the schema beside the examples, the question's names
    # linked, decoding held to the graph's names by a grammar; the schema's share of the prompt, in tokens
    llm_schema: bool = env("KGQA_LLM_SCHEMA", False)
    llm_links: bool = env("KGQA_LLM_LINKS", False)
    llm_grammar: bool = env("KGQA_LLM_GRAMMAR", False)
    llm_schema_budget: Annotated[int, Field(ge=0)] = env("KGQA_LLM_SCHEMA_BUDGET", 300)
    # the ORKG's own vocabulary (pipeline.schema.vocabulary): N-Triples files or folders, os.pathsep-separated,
    # indexed once in KGQA_HOME; its labels, comments and shapes beside what the graph says. "" = off
    orkg_vocabulary: str = env("KGQA_ORKG_VOCABULARY", "")
    # the model as a reader (pipeline.intent.reader): it says which question the project answers is the one asked,
    # as JSON held to a schema, before it is asked to write SPARQL itself
    llm_reader: bool = env("KGQA_LLM_READER", True)
    # the model picking a reading of a comparison question the rules read in part (pipeline.intent.choose), with the
    # reader on; off by default: the 1.5B model picked 5 right and 4 wrong of 9 (docs/results/comparisons.md)
    llm_pick: bool = env("KGQA_LLM_PICK", False)
    redis_url: str | None = env("KGQA_REDIS_URL")  # redis://host:6379/0: state shared by replicas on many hosts
    redis_timeout: Seconds = env("KGQA_REDIS_TIMEOUT", 0.5)  # one Redis call, before falling back to own state
    mcp_token: Secret = env("KGQA_MCP_TOKEN", secret=True)  # bearer token `kgqa mcp --http` requires
    mcp_host: str = env("KGQA_MCP_HOST", "127.0.0.1")  # where `kgqa mcp --http` listens
    mcp_port: Annotated[int, Field(ge=0, le=65535)] = env("KGQA_MCP_PORT", 8765)

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """``Settings(...)``: only what it is given. The environment is read by ``from_env``, never behind a caller."""
        return (init_settings,)

    @classmethod
    def from_env(cls, dotenv: Path | None = Path(".env"), **overrides: Any) -> "Settings":
        """The process's settings, read by pydantic-settings: ``overrides`` (field names; None leaves a field to the
        environment) over the environment over the ``dotenv`` file. Blank variables count as unset."""
        read: dict[str, Any] = dict(DotEnvSettingsSource(cls, env_file=dotenv)()) if dotenv is not None else {}
        read.update(EnvSettingsSource(cls)())
        names = variables()
        read.update({names.get(k, k): v for k, v in overrides.items() if v is not None})
        return cls._checked(read)

    def with_(self, **changes: Any) -> "Settings":
        """A copy with ``changes`` (field names; None leaves a field as it is), checked like the environment."""
        return self._checked({**self.model_dump(), **{k: v for k, v in changes.items() if v is not None}})

    @classmethod
    def _checked(cls, values: dict[str, Any]) -> "Settings":
        try:
            return cls(**values)
        except ValidationError as exc:
            raise ConfigError(_one_line(exc)) from None

    @property
    def chroma_path(self) -> Path:
        return self.home / "chroma"

    @property
    def sciqa_cache(self) -> Path:
        """Where SciQA is downloaded to when SCIQA_DIR is not set (every command uses this one cache)."""
        return self.home / "hf"

    @property
    def encoder_dir(self) -> Path:
        """Where exported encoders live: KGQA_ENCODER_CACHE, else the user's cache folder (XDG_CACHE_HOME)."""
        return self.encoder_cache or (self.xdg_cache_home or Path.home() / ".cache") / "kgqa"

    @property
    def models_dir(self) -> Path:
        return self.model_cache or Path.home() / ".cache" / "kgqa" / "models"

    @property
    def kg_store(self) -> Path:
        return self.home / "kg"

    @property
    def orkg_vocabulary_paths(self) -> tuple[Path, ...]:
        """The files and folders KGQA_ORKG_VOCABULARY names; () when it is off."""
        return tuple(Path(p.strip()).expanduser() for p in self.orkg_vocabulary.split(os.pathsep) if p.strip())

    @property
    def vocabulary_dir(self) -> Path:
        """Where the ORKG vocabulary's index and its label embeddings are kept."""
        return self.home / "vocabulary"

    @property
    def maintainer_ids(self) -> frozenset[str]:
        return frozenset(m.strip() for m in self.maintainers.split(",") if m.strip())

    def secrets(self) -> list[str]:
        """The secret values set (and a password in KGQA_REDIS_URL), so that logs and replies can be scrubbed."""
        fields = type(self).model_fields
        values = [v for name, f in fields.items() if not f.repr and (v := revealed(getattr(self, name)))]
        return values + [p for p in (urlsplit(self.redis_url or "").password,) if p]

    def __repr_args__(self) -> Any:  # the Redis URL without its password
        for name, value in super().__repr_args__():
            yield name, masked(value) if name == "redis_url" and value else value


def revealed(secret: SecretStr | None) -> str | None:
    """A secret's value, for the one client that needs it (never for a message); None when it is not set."""
    return secret.get_secret_value() if secret is not None else None


def unset_in_environment(name: str) -> None:
    """Drop a setting's variable (by field name) from this process's environment, once Settings holds its value, so
    that a library underneath does not read it again (slack_bolt warns when a token variable and a client differ)."""
    os.environ.pop(variables()[name], None)


def masked(url: str) -> str:
    """The URL with its password replaced by ``***`` (for logs and /healthz)."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[-1]}"))


def variables() -> dict[str, str]:
    """Field name -> environment variable, for every setting."""
    return {name: str(f.validation_alias) for name, f in Settings.model_fields.items()}


def _one_line(exc: ValidationError) -> str:
    """'KGQA_SHOTS=three: input should be 1, 3 or 5' (several problems joined by '; ')."""
    names = variables()
    hidden = {name for name, f in Settings.model_fields.items() if not f.repr} | {"redis_url"}  # never echoed
    hidden |= {names[name] for name in hidden}
    problems = []
    for error in exc.errors(include_url=False):
        where = str(error["loc"][0]) if error["loc"] else "settings"
        var = names.get(where, where)
        shown = "***" if where in hidden else str(error.get("input", ""))[:60]
        message = str(error["msg"])
        problems.append(f"{var}={shown}: {message[:1].lower()}{message[1:]}")
    return "; ".join(problems)
