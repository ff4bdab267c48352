"""Frozen entry point for clinic-staff."""

import sys

from staff_app.main import main

sys.exit(main())
