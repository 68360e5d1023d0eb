#!/bin/sh
# skelbridge under valgrind's memcheck, for the valgrind test setup: the
# end-to-end tests run this wherever they would run skelbridge. Any
# memory error or definite leak makes skelbridge exit with 99, which the
# tests see as a failure.
#   meson test -C build --setup valgrind --suite e2e
exec valgrind --quiet --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite --show-leak-kinds=definite \
	--suppressions="${SKELBRIDGE_SOURCE_ROOT:?}/tests/valgrind.supp" \
	"${SKELBRIDGE:?}" "$@"
