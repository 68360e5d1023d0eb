#!/bin/sh
# Runs one libFuzzer target for FUZZ_SECONDS (60 by default), seeded with the
# committed corpus. New inputs go to a work folder, never into the source
# tree; a crash leaves its input there and fails the test: add it to the
# corpus as a regression test once fixed. (libFuzzer's own failure code, 77,
# would read as a skip to meson.)
#   run-fuzzer.sh TARGET SEED_CORPUS WORK_DIR
set -eu
target=$1 seeds=$2 work=$3
mkdir -p "$work/corpus" "$work/artifacts"
exec "$target" -max_total_time="${FUZZ_SECONDS:-60}" -timeout=10 -rss_limit_mb=2048 \
	-error_exitcode=1 -timeout_exitcode=1 \
	-print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds"
