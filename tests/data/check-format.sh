#!/bin/sh
# Every C file follows .clang-format. Prints the files that do not.
set -u
cd "${SKELBRIDGE_SOURCE_ROOT:?}"
command -v clang-format >/dev/null || { echo "clang-format is not installed (tools/setup installs it)"; exit 1; }
status=0
for file in $(git ls-files '*.c' '*.h' 2>/dev/null || find src tracker gesture tests -name '*.[ch]'); do
	if ! clang-format --dry-run --Werror "$file" >/dev/null 2>&1; then
		echo "not formatted: $file (run clang-format -i $file)"
		status=1
	fi
done
exit $status
