"""The doctor's checks of what the configuration asks for: the config file parses and validates,
the kiosk's staff exit PIN is not the shipped default (and is digits, for the PIN pad), and OCR
for scanned PDFs is available when switched on.

It must never change the config file or the settings; an invalid config file is blocking, the PIN
and OCR only warn.
"""

from __future__ import annotations

from engine.errors import ClinicError
from engine.ops.doctor.report import Check
from engine.ops.settings import Settings, load_settings


def _check_config(settings: Settings) -> Check:
    path = settings.config_file
    if path is None:
        return Check(
            "config",
            True,
            False,
            "no config file found; built-in defaults and CLINIC_* variables are in use",
            "",
        )
    try:
        load_settings(path, settings.data_dir)
    except ClinicError as exc:
        return Check("config", False, True, str(exc), f"Correct {path} (docs/configuration.md).")
    return Check("config", True, False, f"{path} is valid", "")


def _check_kiosk_pin(settings: Settings) -> Check:
    from engine.ops.settings import KioskSettings

    pin = settings.kiosk.exit_pin
    if pin == KioskSettings().exit_pin:
        return Check(
            "kiosk exit PIN",
            False,
            False,
            "the kiosk's staff exit PIN is still the shipped default",
            "Set [kiosk] exit_pin (or CLINIC_KIOSK_PIN) to a PIN only staff know.",
        )
    if len(pin) < 4 or not pin.isdigit():
        return Check(
            "kiosk exit PIN",
            False,
            False,
            "the kiosk's exit PIN should be at least 4 digits (the PIN pad has digits only)",
            "Set [kiosk] exit_pin to 4 or more digits.",
        )
    return Check("kiosk exit PIN", True, False, "set (not the default)", "")


def _check_ocr(settings: Settings) -> Check:
    from engine.knowledge.loaders.ocr import ocr_status

    available, detail = ocr_status()
    if not settings.ingest.ocr:
        return Check(
            "OCR", True, False, "switched off ([ingest] ocr = false): scanned PDFs are refused"
        )
    return Check(
        "OCR",
        available,
        False,
        detail,
        "" if available else "Optional: apt-get install tesseract-ocr to read scanned PDFs.",
    )
