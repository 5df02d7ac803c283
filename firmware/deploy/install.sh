#!/usr/bin/env bash
# Install dicetray on Raspberry Pi OS Bookworm (Pi 4, Pi 5) as a service that starts at boot.
#
#   sudo bash firmware/deploy/install.sh            # from a checkout of the repository
#   bash firmware/deploy/install.sh --dry-run       # print every step, run none
#
# What it does, in order:
#   1. apt: picamera2, OpenCV, NumPy and lgpio from Raspberry Pi OS (never from pip: a pip
#      NumPy 2 breaks apt's picamera2 and OpenCV, and pip's OpenCV lacks the Pi's camera stack)
#   2. a venv in /opt/dicetray/venv that sees those system packages (--system-site-packages);
#      dicetray goes in with --no-deps, its pure-Python dependencies by name under a constraint
#      file that pins NumPy to apt's version and forbids pip OpenCV; then the venv is checked:
#      numpy and cv2 must import from /usr/lib
#   3. a system user "dicetray" in the gpio and video groups, its data directory
#      /var/lib/dicetray, the default config to /etc/dicetray/config.toml (kept if present)
#   4. the systemd unit dicetray.service, enabled and (re)started
set -euo pipefail

PREFIX=/opt/dicetray
VENV="$PREFIX/venv"
CONSTRAINTS="$PREFIX/constraints.txt"
DATA_DIR=/var/lib/dicetray
CONFIG_DIR=/etc/dicetray
UNIT_DIR=/etc/systemd/system
SERVICE_USER=dicetray
SYSTEM_PYTHON="${DICETRAY_SYSTEM_PYTHON:-/usr/bin/python3}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$(cd "$HERE/../.." && pwd)"
DRY_RUN=0

APT_PACKAGES=(python3-venv python3-pip python3-picamera2 python3-opencv python3-numpy python3-lgpio)
# dicetray's runtime dependencies (pyproject.toml), all pure Python; installed by name so pip
# never resolves dicetray's own metadata into a NumPy or OpenCV wheel
PIP_PACKAGES=("click>=8.1" "gpiozero>=2.0" "flask>=3.0" "waitress>=3.0" "segno>=1.5")

usage() {
    cat <<EOF
usage: install.sh [--dry-run] [--source DIR]
  --dry-run     print every step (the commands) without running any
  --source DIR  the dicetray checkout to install (default: $SOURCE)
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --source) SOURCE="$(cd "${2:?--source needs a directory}" && pwd)"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

step() { printf '\n== %s\n' "$*"; }

# run CMD...: print it (quoted, so it can be pasted into a shell), and run it unless this is
# a dry run
run() {
    printf '+'
    printf ' %q' "$@"
    printf '\n'
    if [ "$DRY_RUN" -eq 0 ]; then "$@"; fi
}

# write FILE MODE: print, then write stdin to FILE unless this is a dry run
write() {
    local file="$1" mode="$2" text
    text="$(cat)"
    printf '+ write %s (mode %s):\n%s\n' "$file" "$mode" "$(printf '%s\n' "$text" | sed 's/^/    /')"
    if [ "$DRY_RUN" -eq 0 ]; then
        printf '%s\n' "$text" > "$file"
        chmod "$mode" "$file"
    fi
}

# check_from_apt MODULE: the venv must import MODULE from apt's /usr/lib, not from a pip wheel
check_from_apt() {
    local code="import $1; print($1.__file__)" file
    printf "+ %s -c '%s'  # must be under /usr/lib/\n" "$VENV/bin/python" "$code"
    if [ "$DRY_RUN" -eq 1 ]; then return; fi
    file="$("$VENV/bin/python" -c "$code")"
    case "$file" in
        /usr/lib/*) echo "  $1: $file" ;;
        *) echo "install.sh: the venv imports $1 from $file, not from apt (/usr/lib)" >&2
           exit 1 ;;
    esac
}

if [ ! -f "$SOURCE/pyproject.toml" ]; then
    echo "install.sh: $SOURCE is not a dicetray checkout (no pyproject.toml); give --source" >&2
    exit 2
fi
if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo bash $0), or --dry-run to see the steps" >&2
    exit 1
fi
if ! grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release; then
    echo "install.sh: warning: written for Raspberry Pi OS Bookworm; this system is not" >&2
fi

step "1. system packages (apt)"
run apt-get update
run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

step "2. the venv, seeing apt's NumPy, OpenCV, picamera2 and lgpio"
run install -d -m 0755 "$PREFIX"
run "$SYSTEM_PYTHON" -m venv --system-site-packages "$VENV"
NUMPY_VERSION="$("$SYSTEM_PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null \
    || echo "APT-VERSION")"
write "$CONSTRAINTS" 0644 <<EOF
# apt's NumPy and OpenCV only: pip may neither replace NumPy nor add an OpenCV wheel
numpy==$NUMPY_VERSION
opencv-python<0
opencv-python-headless<0
opencv-contrib-python<0
opencv-contrib-python-headless<0
EOF
extra=()
if [ "$(uname -m)" = "aarch64" ]; then
    # the recognizer's faster backend; its NumPy requirement is met by apt's (see pyproject)
    extra=("onnxruntime>=1.17")
fi
run "$VENV/bin/pip" install --constraint "$CONSTRAINTS" "${PIP_PACKAGES[@]}" "${extra[@]}"
run "$VENV/bin/pip" install --no-deps "$SOURCE"
for module in numpy cv2; do
    check_from_apt "$module"
done

step "3. the service user, its data and the config"
if ! id "$SERVICE_USER" >/dev/null 2>&1 || [ "$DRY_RUN" -eq 1 ]; then
    echo "# only when the user $SERVICE_USER does not exist yet"
    run useradd --system --user-group --home-dir "$DATA_DIR" --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups gpio,video "$SERVICE_USER"
run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$DATA_DIR"
run install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/config.toml" ] || [ "$DRY_RUN" -eq 1 ]; then
    echo "# only when $CONFIG_DIR/config.toml does not exist yet (an edited config is kept)"
    run install -m 0644 "$HERE/config.toml" "$CONFIG_DIR/config.toml"
fi

step "4. the systemd unit"
run install -m 0644 "$HERE/dicetray.service" "$UNIT_DIR/dicetray.service"
run systemctl daemon-reload
run systemctl enable dicetray.service
run systemctl restart dicetray.service

step "done"
echo "The tray starts at boot. Logs: journalctl -u dicetray -f   Config: $CONFIG_DIR/config.toml"
