#!/bin/sh
# Every mapping in mappings/, and every example mapping in its README,
# passes skelbridge check without a warning.
set -u
cd "${SKELBRIDGE_SOURCE_ROOT:?}"
examples=$(mktemp -d)
trap 'rm -rf "$examples"' EXIT
awk -v dir="$examples" '
	/^```/ { if (file) { close(file); file = "" } else fence = 1; next }
	fence && /^\[mapping\]$/ { n++; file = dir "/example" n ".map" }
	{ fence = 0 }
	file { print > file }
' mappings/README.md
status=0
for file in mappings/*.map "$examples"/*.map; do
	output=$("${SKELBRIDGE:?}" check "$file" 2>&1) || status=1
	echo "$output"
	case "$output" in
	*warning:*) status=1 ;;
	esac
done
exit $status
