"""Frozen entry point for clinic-kiosk (PyInstaller needs a script, not a console_scripts entry)."""

import sys

from kiosk_app.main import main

sys.exit(main())
