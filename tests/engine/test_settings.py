"""Settings: one TOML file, environment overrides, and mistakes reported with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import ConfigError
from engine.ops.settings import DEFAULT_EMBEDDING_MODEL, RetrievalSettings, load_settings


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_values_come_from_the_toml_file(tmp_path: Path) -> None:
    config = _write(
        tmp_path,
        '[database]\nurl = "postgresql://kiosk@db.clinic.lan/clinic"\npool_size = 3\n\n'
        '[ollama]\nhosts = ["http://gpu1:11434", "http://gpu2:11434"]\nnum_ctx = 4096\n\n'
        '[kiosk]\nclinic_name = "Hillside Surgery"\nfullscreen = false\n'
        '[texts]\nemergency = "Call 112 now."\n',
    )
    s = load_settings(config, tmp_path / "data", environ={})
    assert s.config_file == config
    assert s.database.url == "postgresql://kiosk@db.clinic.lan/clinic"
    assert s.database.pool_size == 3
    assert s.ollama.hosts == ("http://gpu1:11434", "http://gpu2:11434")
    assert s.ollama.num_ctx == 4096
    assert s.kiosk.clinic_name == "Hillside Surgery"
    assert s.kiosk.fullscreen is False
    assert s.texts.emergency == "Call 112 now."
    assert s.data_dir == (tmp_path / "data").resolve()
    assert s.log_dir == s.data_dir / "logs"


def test_environment_overrides_the_file(tmp_path: Path) -> None:
    config = _write(tmp_path, '[ollama]\nmodel = "from-file"\n[kiosk]\nidle_seconds = 60\n')
    env = {
        "CLINIC_OLLAMA_MODEL": "from-env",
        "CLINIC_OLLAMA_HOST": "http://a:11434, http://b:11434",
        "CLINIC_IDLE_SECONDS": "120",
        "CLINIC_GENERATION": "Extractive",
        "CLINIC_DATA_DIR": str(tmp_path / "elsewhere"),
    }
    s = load_settings(config, environ=env)
    assert s.ollama.model == "from-env"
    assert s.ollama.hosts == ("http://a:11434", "http://b:11434")
    assert s.kiosk.idle_seconds == 120
    assert s.ollama.generation == "extractive"
    assert s.data_dir == (tmp_path / "elsewhere").resolve()


def test_config_variable_names_the_file(tmp_path: Path) -> None:
    config = _write(tmp_path, '[logging]\nlevel = "debug"\n')
    s = load_settings(environ={"CLINIC_CONFIG": str(config), "CLINIC_DATA_DIR": str(tmp_path)})
    assert s.logging.level == "DEBUG"
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(environ={"CLINIC_CONFIG": str(tmp_path / "missing.toml")})


def test_unknown_key_names_file_and_line(tmp_path: Path) -> None:
    config = _write(tmp_path, '[kiosk]\nclinic_name = "X"\n\nidle_secs = 30\n')
    with pytest.raises(ConfigError) as info:
        load_settings(config, tmp_path, environ={})
    message = str(info.value)
    assert f"{config}, line 4" in message
    assert "idle_secs" in message and "idle_seconds" in message  # lists the known keys


def test_unknown_section_names_file_and_line(tmp_path: Path) -> None:
    config = _write(tmp_path, '[kiosk]\nclinic_name = "X"\n[olama]\nmodel = "m"\n')
    with pytest.raises(ConfigError, match=r"line 3.*'olama'"):
        load_settings(config, tmp_path, environ={})


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[database]\n\npool_size = "many"\n', 3, "whole number"),
        ("[kiosk]\nfullscreen = 3\n", 2, "true or false"),
        ('[ollama]\ngeneration = "sometimes"\n', 2, "auto, ollama, extractive"),
        ('[texts]\nrefusal = "  "\n', 2, "must not be empty"),
        ('[retrieval.similarity_floors]\n"m" = 1.5\n', 1, "between 0 and 1"),
    ],
)
def test_bad_value_names_file_and_line(tmp_path: Path, text: str, line: int, words: str) -> None:
    config = _write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_settings(config, tmp_path, environ={})
    assert f"{config}, line {line}" in str(info.value)
    assert words in str(info.value)


def test_bad_environment_value_is_reported_as_such(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"environment.*idle_seconds"):
        load_settings(data_dir=tmp_path, environ={"CLINIC_IDLE_SECONDS": "soon"})


def test_invalid_toml_is_reported(tmp_path: Path) -> None:
    config = _write(tmp_path, "[kiosk\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(config, tmp_path, environ={})


def test_warning_shorter_than_twenty_seconds_is_refused(tmp_path: Path) -> None:
    config = _write(tmp_path, "[kiosk]\nidle_seconds = 90\nwarning_seconds = 10\n")
    with pytest.raises(ConfigError) as info:
        load_settings(config, tmp_path, environ={})
    assert f"{config}, line 3" in str(info.value) and "at least 20" in str(info.value)
    ok = _write(tmp_path, "[kiosk]\nwarning_seconds = 20\n")
    assert load_settings(ok, tmp_path, environ={}).kiosk.warning_seconds == 20


def test_per_model_floors_merge_with_the_defaults(tmp_path: Path) -> None:
    config = _write(tmp_path, '[retrieval.similarity_floors]\n"nomic-embed-text" = 0.55\n')
    s = load_settings(config, tmp_path, environ={})
    default = RetrievalSettings().similarity_floors[DEFAULT_EMBEDDING_MODEL]
    assert s.retrieval.similarity_floors == {
        DEFAULT_EMBEDDING_MODEL: default,
        "nomic-embed-text": 0.55,
    }
    assert s.similarity_floor == default
    assert s.retrieval.similarity_floor("nomic-embed-text") == 0.55
    with pytest.raises(ConfigError, match="clinic-assistant evaluate"):
        s.retrieval.similarity_floor("some-other-model")
    override = _write(
        tmp_path, f'[retrieval.similarity_floors]\n"{DEFAULT_EMBEDDING_MODEL}" = 0.5\n'
    )
    assert load_settings(override, tmp_path, environ={}).similarity_floor == 0.5


def test_no_file_means_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "engine.ops.settings.default_config_files", lambda: [tmp_path / "none.toml"]
    )
    s = load_settings(data_dir=tmp_path, environ={})
    assert s.config_file is None
    assert s.ollama.hosts == ()
    assert s.kiosk.warning_seconds == 30


def test_logs_go_to_the_platform_log_folder_unless_the_data_folder_moves(tmp_path: Path) -> None:
    import platformdirs

    from engine.ops.settings import APP_AUTHOR, APP_NAME

    default = load_settings(environ={})
    assert default.log_dir == Path(platformdirs.user_log_dir(APP_NAME, APP_AUTHOR))
    moved = load_settings(data_dir=tmp_path, environ={})
    assert moved.log_dir == tmp_path.resolve() / "logs"
    by_env = load_settings(environ={"CLINIC_DATA_DIR": str(tmp_path)})
    assert by_env.log_dir == tmp_path.resolve() / "logs"
