#!/usr/bin/env bash
# Runs the test suite built with AddressSanitizer, LeakSanitizer and
# UndefinedBehaviorSanitizer (build-sanitize/, see scripts/configure_sanitize.sh);
# the CLI tests run the sanitized eie too. Any report fails its test. Not part of
# CI. Suppressions, each with its reason: scripts/sanitize.supp.
# usage: scripts/sanitize.sh [CTEST ARGS]   (default: -L fast; e.g. -L slow, or -R Decoding)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/configure_sanitize.sh
cmake --build build-sanitize --target eie eie_tests_fast eie_tests_slow -- -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitize.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
[ $# -gt 0 ] || set -- -L fast
ctest --test-dir build-sanitize --output-on-failure -j2 "$@"
