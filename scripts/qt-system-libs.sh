#!/usr/bin/env bash
# Qt's X11 (xcb) platform plugin needs a few system libraries that a minimal Debian lacks.
# Installs them when run as root with apt-get; otherwise prints the command to run.
set -euo pipefail
packages="libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-image0 libxcb-render-util0
libxcb-xinerama0 libxcb-shape0 libxkbcommon-x11-0 libegl1 libgl1 libfontconfig1 libdbus-1-3"
missing=""
if command -v dpkg >/dev/null 2>&1; then
  for pkg in $packages; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
  done
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing the system libraries Qt needs to show a window:$missing"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing \
    || echo "Could not install them; the kiosk may fail to open a window." >&2
else
  echo "Qt needs these system libraries to show a window; install them with:" >&2
  echo "  sudo apt-get install$missing" >&2
fi
