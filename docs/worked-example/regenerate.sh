#!/usr/bin/env bash
# Rebuild the worked example's outputs and screenshots (docs/worked-example.md).
# Needs headless Chromium (Debian package `chromium`).  Run from anywhere:
#   bash docs/worked-example/regenerate.sh [OUTDIR]
# Everything is written to OUTDIR (default: a temporary directory); the PNGs are then copied
# next to this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
cd "$out"
cp "$here/matmul8.s" .
sed -e 's/^    .equ PITCH, N$/    .equ PITCH, N + 1/' -e 's/^    .equ STAGGER, 0$/    .equ STAGGER, 1/' \
    matmul8.s > matmul8-fixed.s
export COLUMNS=120
isasim run matmul8.s --cores 8 --json run.json --trace mm.json --report mm.html --vcd mm.vcd \
    > run.txt 2>&1
isasim report run.json --top 6 > report.txt
isasim run matmul8-fixed.s --cores 8 --json fixed.json --quiet
isasim diff run.json fixed.json --top 4 > diff.txt
shot() {   # shot PNG WIDTH,HEIGHT URL
    local profile
    profile="$(mktemp -d)"
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
        --user-data-dir="$profile" --window-size="$2" --screenshot="$1" "$3" 2>/dev/null
    rm -rf "$profile"
}
page="file://$out/mm.html"
shot timeline.png 1280,500 "$page?only=timeline"
shot timeline-zoom.png 1280,500 "$page?only=timeline&t0=15000&t1=15040"
shot stalls.png 1280,470 "$page?only=stalls"
shot conflicts.png 1280,560 "$page?only=conflicts"
shot hot.png 1280,420 "$page?only=hot"
cp timeline.png timeline-zoom.png stalls.png conflicts.png hot.png "$here/"
echo "outputs in $out"
