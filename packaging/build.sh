#!/usr/bin/env bash
# Build the three apps (one-folder PyInstaller bundles), then one .tar.gz per app and SHA256SUMS.
# Usage: packaging/build.sh [kiosk|staff|cli ...]   (default: all three)
# Needs: .venv with the project and pyinstaller==6.22.3 (pip install -e '.[packaging]').
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
APPS=("$@")
[ ${#APPS[@]} -eq 0 ] && APPS=(kiosk staff cli)
VERSION=$("$PY" -c 'import tomllib;print(tomllib.load(open("pyproject.toml","rb"))["project"]["version"])')
DIST=dist
mkdir -p "$DIST"
declare -A NAMES=([kiosk]=clinic-kiosk [staff]=clinic-staff [cli]=clinic-assistant)
for app in "${APPS[@]}"; do
    name=${NAMES[$app]:?unknown app $app}
    echo "== building $name $VERSION"
    start=$(date +%s)
    "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
        --distpath "$DIST" --workpath "build/pyinstaller-$app" "packaging/$app.spec"
    folder="$name-$VERSION"
    tar -C "$DIST" -czf "$DIST/$folder-linux-$(uname -m).tar.gz" "$folder"
    echo "   built in $(( $(date +%s) - start )) s: $(du -sh "$DIST/$folder" | cut -f1) folder, $(du -sh "$DIST/$folder-linux-$(uname -m).tar.gz" | cut -f1) archive"
done
(cd "$DIST" && sha256sum -- *.tar.gz > SHA256SUMS)
echo "== $DIST/SHA256SUMS"
cat "$DIST/SHA256SUMS"
