#!/bin/sh
# Every mapping in mappings/ passes skelbridge check, warnings included.
set -u
cd "${SKELBRIDGE_SOURCE_ROOT:?}"
status=0
for file in mappings/*.map; do
	output=$("${SKELBRIDGE:?}" check "$file" 2>&1) || status=1
	echo "$output"
	case "$output" in
	*warning:*) status=1 ;;
	esac
done
exit $status
