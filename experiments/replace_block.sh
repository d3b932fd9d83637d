#!/usr/bin/env bash
# Replaces the lines between "<!-- NAME: begin -->" and "<!-- NAME: end -->" of PAGE
# with the contents of BLOCK (the page written whole, then renamed); fails, changing
# nothing, when PAGE lacks either marker. Shared by the speed scripts.
# usage: experiments/replace_block.sh PAGE NAME BLOCK
set -euo pipefail
page=$1 name=$2 block=$3
begin="<!-- $name: begin -->" end="<!-- $name: end -->"
if ! grep -qF "$begin" "$page" || ! grep -qF "$end" "$page"; then
  echo "$name: $page lacks the lines '$begin' and '$end'" >&2
  exit 1
fi
awk -v begin="$begin" -v end="$end" -v block="$block" '
  $0 == begin { print; while ((getline line < block) > 0) print line; skipping = 1; next }
  $0 == end { skipping = 0 }
  !skipping' "$page" > "$page.tmp"
mv "$page.tmp" "$page"
