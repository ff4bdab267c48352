"""One settings object for the whole product.

Read from a TOML file (``--config``/``CLINIC_CONFIG``, else the user config folder, else the
system-wide config folder from platformdirs), then overridden by ``CLINIC_*`` environment
variables. ``--data-dir``/``CLINIC_DATA_DIR`` moves every file the product writes.

Unknown keys and bad values are errors that name the file and line; they are never ignored.
Every key is documented in ``docs/configuration.md``.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from engine.errors import ConfigError

APP_NAME = "clinic-assistant"
APP_AUTHOR = "ClinicAssistant"

DEFAULT_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"

DEFAULT_EMERGENCY_TEXT = (
    "This may be an emergency. Call 999 now, or go to the nearest Emergency Department. "
    "If you are in the clinic, tell the reception desk immediately. "
    "For urgent mental health help, call the Samaritans on 116 123 (free, any time)."
)
DEFAULT_CLINICAL_TEXT = (
    "I can't give medical advice about your own health or treatment. Please ask a doctor, "
    "nurse or pharmacist: speak to reception, or call the clinic on 020 7946 0100."
)
DEFAULT_REFUSAL_TEXT = (
    "I don't know: the clinic's documents don't answer that. Please ask at reception."
)
DEFAULT_STAFF_REFUSAL_TEXT = (
    "I don't know: neither the public nor the staff documents answer that. Check with the "
    "practice manager; the question is in the Review tab so the gap can be filled."
)
DEFAULT_BOOKING_TEXT = (
    "To book, change or cancel an appointment, please go to the reception desk or call "
    "020 7946 0100 (Monday to Friday, 8:00 to 18:30)."
)
DEFAULT_STAFF_BOOKING_TEXT = (
    "Bookings are made in the Appointments tab (Ctrl+2): find a free slot there and book it."
)


@dataclass(frozen=True)
class DatabaseSettings:
    url: str = ""  # empty: start the embedded server under the data folder
    postgres_version: int = 18
    pool_size: int = 5
    connect_timeout: float = 5.0


@dataclass(frozen=True)
class EmbeddingSettings:
    model: str = DEFAULT_EMBEDDING_MODEL
    batch_size: int = 16
    ollama_model: str = ""  # when set, embed through Ollama instead of fastembed


@dataclass(frozen=True)
class ChunkingSettings:
    target_words: int = 180
    max_words: int = 260


@dataclass(frozen=True)
class IngestSettings:
    # Limits per file: a hostile or broken file costs one failed document, never the ingest.
    max_file_mb: float = 50.0
    max_seconds_per_file: float = 120.0  # reading and chunking (not embedding); 0: no limit
    max_chunks_per_document: int = 2000
    ocr: bool = True  # read scanned PDFs with tesseract when it is installed


@dataclass(frozen=True)
class RetrievalSettings:
    candidates: int = 30
    max_passages: int = 6
    rrf_k: int = 60
    # Per embedding model; measured by `clinic-assistant evaluate` (all-MiniLM-L6-v2 on the sample
    # clinic: 0.40 by the whole gate, sentence evidence included, see docs/evaluation.md). A model
    # missing here is refused, never guessed at.
    similarity_floors: dict[str, float] = field(
        default_factory=lambda: {DEFAULT_EMBEDDING_MODEL: 0.40}
    )
    # A passage over the floor must also share this much of the question's rare terms (IDF-weighted,
    # stemmed as PostgreSQL's english configuration does): clinic-adjacent questions the documents
    # do not answer reach 0.5-0.7 similarity on topic words alone.
    vector_min_term_share: float = 0.2
    # A full-text match alone counts as evidence with at least this cosine similarity...
    keyword_min_similarity: float = 0.2
    # ...and at least this IDF-weighted share of the question's terms present in the passage.
    keyword_min_term_share: float = 0.7
    # The top full-text match with that share also counts from this similarity when one of its
    # sentences holds every content word of the question (short questions score low against a
    # longer passage: "Do I have to sign a consent form?" 0.16).
    sentence_min_similarity: float = 0.1

    def similarity_floor(self, model: str) -> float:
        try:
            return self.similarity_floors[model]
        except KeyError:
            raise ConfigError(
                f"No similarity floor is set for the embedding model {model!r}. Run "
                "'clinic-assistant evaluate' and put the floor it recommends under "
                "[retrieval.similarity_floors] in the config file."
            ) from None


@dataclass(frozen=True)
class OllamaSettings:
    hosts: tuple[str, ...] = ()  # empty: no model server; answers are extractive
    model: str = "llama3.1:8b-instruct-q4_K_M"
    generation: str = "auto"  # auto | ollama | extractive
    num_ctx: int = 8192
    keep_alive: str = "30m"
    connect_timeout: float = 3.0
    read_timeout: float = 60.0
    temperature: float = 0.1
    # Generation limits (issue #12): at most this many tokens per answer (Ollama's num_predict,
    # the OpenAI backend's max_tokens; 0: none sent), and a hard cap on the characters streamed.
    # Either cut-off is a model failure: the answer falls back to quoting the passages.
    num_predict: int = 300
    max_answer_chars: int = 2000
    router: bool = False  # ask the model for a second opinion on routing (only once measured)


@dataclass(frozen=True)
class GenerationSettings:
    backend: str = "ollama"  # ollama | openai (any OpenAI-compatible server: vLLM, llama.cpp)
    openai_base_url: str = ""  # e.g. http://gpu-box:8000/v1
    openai_model: str = ""  # the name the server serves, e.g. Qwen/Qwen2.5-7B-Instruct
    openai_api_key: str = ""  # vLLM --api-key; empty: none
    # `doctor` warns when the last `evaluate --generate` found fewer useful answers than this.
    min_useful_rate: float = 0.8


@dataclass(frozen=True)
class TextSettings:
    emergency: str = DEFAULT_EMERGENCY_TEXT
    clinical: str = DEFAULT_CLINICAL_TEXT
    refusal: str = DEFAULT_REFUSAL_TEXT
    staff_refusal: str = (
        DEFAULT_STAFF_REFUSAL_TEXT  # staff are the reception: never "ask at reception"
    )
    booking: str = DEFAULT_BOOKING_TEXT
    staff_booking: str = DEFAULT_STAFF_BOOKING_TEXT


@dataclass(frozen=True)
class KioskSettings:
    clinic_name: str = "Riverside Family Clinic"
    idle_seconds: int = 90
    warning_seconds: int = 30
    exit_pin: str = "2468"
    fullscreen: bool = True
    db_retry_seconds: int = 5
    clinic_phone: str = "020 7946 0100"  # shown on the kiosk's "unavailable" screen
    name: str = ""  # how reception alerts and check-ins name this kiosk; "": the host name


@dataclass(frozen=True)
class QueueSettings:
    """The waiting room (engine/frontdesk/waiting_queue.py)."""

    late_after_minutes: int = 15  # the clinic's own lateness rule (visiting-the-clinic.md)
    default_consultation_minutes: int = 15  # wait estimate until there is history
    max_failed_lookups: int = 5  # per kiosk in ten minutes, then "please see reception"


@dataclass(frozen=True)
class SignInSettings:
    """Staff sign-in throttling and idle sign-out (engine.frontdesk.users, staff_app)."""

    max_failures: int = 5  # per account, then locked for lockout_minutes
    machine_max_failures: int = 20  # per machine, across accounts
    lockout_minutes: int = 15
    first_delay_seconds: float = 1.0  # doubles after each failure until the lockout
    idle_minutes: float = 10.0  # the staff app signs out after this long without input
    idle_warning_seconds: int = 60  # countdown shown before the idle sign-out


@dataclass(frozen=True)
class LoggingSettings:
    level: str = "INFO"
    answer_retention_days: int = 30


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    config_file: Path | None = None
    log_folder: Path | None = None  # None: <data dir>/logs
    database: DatabaseSettings = DatabaseSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    chunking: ChunkingSettings = ChunkingSettings()
    ingest: IngestSettings = IngestSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    ollama: OllamaSettings = OllamaSettings()
    generation: GenerationSettings = GenerationSettings()
    texts: TextSettings = TextSettings()
    kiosk: KioskSettings = KioskSettings()
    logging: LoggingSettings = LoggingSettings()
    sign_in: SignInSettings = SignInSettings()
    queue: QueueSettings = QueueSettings()

    @property
    def pgdata_dir(self) -> Path:
        return self.data_dir / "pgdata"

    @property
    def log_dir(self) -> Path:
        """The platform's log folder by default; under the data folder when that was moved."""
        return self.log_folder or self.data_dir / "logs"

    @property
    def model_dir(self) -> Path:
        return self.data_dir / "models"

    @property
    def similarity_floor(self) -> float:
        return self.retrieval.similarity_floor(self.embedding.model)

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)


_SECTIONS: dict[str, type] = {
    "database": DatabaseSettings,
    "embedding": EmbeddingSettings,
    "chunking": ChunkingSettings,
    "ingest": IngestSettings,
    "retrieval": RetrievalSettings,
    "ollama": OllamaSettings,
    "generation": GenerationSettings,
    "texts": TextSettings,
    "kiosk": KioskSettings,
    "logging": LoggingSettings,
    "queue": QueueSettings,
}

# Environment overrides: variable -> (section, key).
ENV_OVERRIDES: dict[str, tuple[str, str]] = {
    "CLINIC_DATABASE_URL": ("database", "url"),
    "CLINIC_OLLAMA_HOST": ("ollama", "hosts"),
    "CLINIC_OLLAMA_MODEL": ("ollama", "model"),
    "CLINIC_GENERATION": ("ollama", "generation"),
    "CLINIC_OLLAMA_ROUTER": ("ollama", "router"),
    "CLINIC_OLLAMA_NUM_PREDICT": ("ollama", "num_predict"),
    "CLINIC_MAX_ANSWER_CHARS": ("ollama", "max_answer_chars"),
    "CLINIC_GENERATION_BACKEND": ("generation", "backend"),
    "CLINIC_OPENAI_BASE_URL": ("generation", "openai_base_url"),
    "CLINIC_OPENAI_MODEL": ("generation", "openai_model"),
    "CLINIC_OPENAI_API_KEY": ("generation", "openai_api_key"),
    "CLINIC_EMBEDDING_MODEL": ("embedding", "model"),
    "CLINIC_LOG_LEVEL": ("logging", "level"),
    "CLINIC_KIOSK_PIN": ("kiosk", "exit_pin"),
    "CLINIC_IDLE_SECONDS": ("kiosk", "idle_seconds"),
    "CLINIC_KIOSK_NAME": ("kiosk", "name"),
}

_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("ollama", "generation"): ("auto", "ollama", "extractive"),
    ("generation", "backend"): ("ollama", "openai"),
    ("logging", "level"): ("DEBUG", "INFO", "WARNING", "ERROR"),
}


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))


def default_config_files() -> list[Path]:
    """Config file candidates, most specific first (per-user, then system-wide)."""
    return [
        Path(platformdirs.user_config_dir(APP_NAME, APP_AUTHOR)) / "config.toml",
        Path(platformdirs.site_config_dir(APP_NAME, APP_AUTHOR)) / "config.toml",
    ]


def _line_of(text: str, key: str) -> int | None:
    # [ \t]*, not \s*: \s would swallow blank lines and report the line above the key.
    pattern = re.compile(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*=", re.MULTILINE)
    match = pattern.search(text)
    if match is None:  # a table header: [key] or [section.key]
        pattern = re.compile(rf"^[ \t]*\[[ \t]*(?:[\w-]+\.)?{re.escape(key)}[ \t]*\]", re.MULTILINE)
        match = pattern.search(text)
    return None if match is None else text.count("\n", 0, match.start()) + 1


def _where(source: str, text: str, key: str) -> str:
    line = _line_of(text, key) if text else None
    return f"{source}, line {line}" if line else source


def _coerce(section: str, key: str, value: Any, default: Any, where: str) -> Any:
    name = f"[{section}] {key}"
    if isinstance(default, bool):
        if isinstance(value, str) and value.lower() in {
            "1",
            "true",
            "yes",
            "on",
            "0",
            "false",
            "no",
            "off",
        }:
            return value.lower() in {"1", "true", "yes", "on"}
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {name} must be true or false, not {value!r}.")
        return value
    if isinstance(default, int):
        try:
            number = int(value) if isinstance(value, str) else value
        except ValueError:
            number = None
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise ConfigError(
                f"{where}: {name} must be a whole number of 0 or more, not {value!r}."
            )
        return number
    if isinstance(default, float):
        try:
            number = (
                float(value)
                if isinstance(value, (str, int)) and not isinstance(value, bool)
                else value
            )
        except ValueError:
            number = None
        if not isinstance(number, float) or number < 0:
            raise ConfigError(f"{where}: {name} must be a number of 0 or more, not {value!r}.")
        return number
    if isinstance(default, tuple):
        if isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: {name} must be a list of strings, not {value!r}.")
        return tuple(value)
    if isinstance(default, dict):
        if not isinstance(value, dict) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1
            for v in value.values()
        ):
            raise ConfigError(f"{where}: {name} must map model names to numbers between 0 and 1.")
        return {str(k): float(v) for k, v in value.items()}
    if not isinstance(value, str):
        raise ConfigError(f"{where}: {name} must be text, not {value!r}.")
    choices = _CHOICES.get((section, key))
    if choices is not None:
        normalised = value.upper() if section == "logging" else value.lower()
        if normalised not in choices:
            raise ConfigError(
                f"{where}: {name} must be one of {', '.join(choices)}, not {value!r}."
            )
        return normalised
    if section == "texts" and not value.strip():
        raise ConfigError(f"{where}: {name} must not be empty.")
    return value


def _build_section(section: str, values: dict[str, Any], source: str, text: str) -> Any:
    cls = _SECTIONS[section]
    defaults = cls()
    known = {f.name for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(
                f"{_where(source, text, key)}: unknown key {key!r} in [{section}]. "
                f"Known keys: {', '.join(sorted(known))}."
            )
        kwargs[key] = _coerce(
            section, key, value, getattr(defaults, key), _where(source, text, key)
        )
    if section == "retrieval" and "similarity_floors" in kwargs:
        kwargs["similarity_floors"] = {**defaults.similarity_floors, **kwargs["similarity_floors"]}
    return cls(**kwargs)


def load_settings(
    config_file: str | os.PathLike[str] | None = None,
    data_dir: str | os.PathLike[str] | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Read the config file and environment into one :class:`Settings`."""
    env = dict(os.environ if environ is None else environ)
    path: Path | None = None
    if config_file is None and env.get("CLINIC_CONFIG"):
        config_file = env["CLINIC_CONFIG"]
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise ConfigError(f"The config file {path} does not exist.")
    else:
        path = next((p for p in default_config_files() if p.is_file()), None)

    raw: dict[str, Any] = {}
    text = ""
    source = str(path) if path else "defaults"
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8")
            raw = tomllib.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"The config file {path} cannot be read: {exc}.") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}.") from None

    top_data_dir = raw.pop("data_dir", None)
    for key, value in raw.items():
        if key not in _SECTIONS or not isinstance(value, dict):
            raise ConfigError(
                f"{_where(source, text, key)}: unknown section or key {key!r}. "
                f"Known sections: {', '.join(_SECTIONS)}."
            )

    sections = {name: dict(raw.get(name, {})) for name in _SECTIONS}
    for variable, (section, key) in ENV_OVERRIDES.items():
        if variable in env and env[variable] != "":
            sections[section][key] = env[variable]

    built = {
        name: _build_section(name, values, source if name in raw else "environment", text)
        for name, values in sections.items()
    }

    chosen = data_dir or env.get("CLINIC_DATA_DIR") or top_data_dir
    resolved = Path(chosen).expanduser().resolve() if chosen else default_data_dir()
    # Logs go where IT expects them (platformdirs' log folder) unless the data folder was moved,
    # in which case everything the product writes moves with it.
    log_folder = None if chosen else Path(platformdirs.user_log_dir(APP_NAME, APP_AUTHOR))
    settings = Settings(data_dir=resolved, config_file=path, log_folder=log_folder, **built)
    if settings.kiosk.warning_seconds < 20:
        raise ConfigError(
            f"{_where(source, text, 'warning_seconds')}: [kiosk] warning_seconds must be at "
            "least 20 so a person has time to react (WCAG 2.2.1)."
        )
    if settings.generation.min_useful_rate > 1:
        raise ConfigError(
            f"{_where(source, text, 'min_useful_rate')}: [generation] min_useful_rate is a "
            "share between 0 and 1 (0.8 means 80 %)."
        )
    sign_in = settings.sign_in
    if min(sign_in.max_failures, sign_in.machine_max_failures, sign_in.lockout_minutes) < 1 or (
        sign_in.idle_minutes <= 0 or sign_in.idle_warning_seconds < 20
    ):
        raise ConfigError(
            f"{source}: [sign_in] failures and lockout_minutes must be at least 1, idle_minutes "
            "above 0 and idle_warning_seconds at least 20."
        )
    if settings.chunking.target_words > settings.chunking.max_words:
        raise ConfigError(f"{source}: [chunking] target_words must not exceed max_words.")
    return settings
