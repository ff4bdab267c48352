#!/usr/bin/env bash
# One command for a newcomer: install, start the embedded database, ingest the sample knowledge,
# and open the kiosk. Data (database, logs) goes to ./.data unless CLINIC_DATA_DIR says otherwise.
# Extra arguments go to the kiosk, e.g. `scripts/kiosk.sh --windowed`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/qt-system-libs.sh
export CLINIC_DATA_DIR="${CLINIC_DATA_DIR:-$PWD/.data}"
.venv/bin/clinic-assistant ingest knowledge
# The demo keeps the shipped exit PIN (2468); a real install sets its own and drops the flag.
exec .venv/bin/clinic-kiosk --allow-default-pin "$@"
