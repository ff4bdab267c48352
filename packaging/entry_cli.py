"""Frozen entry point for the clinic-assistant command line."""

import sys

from engine.ops.cli import main

sys.exit(main())
