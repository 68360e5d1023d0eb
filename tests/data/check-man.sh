#!/bin/sh
# The man pages agree with the program: every command and every option that
# `skelbridge COMMAND --help` lists is in skelbridge(1), every exit status of
# src/cli/cli.h is under EXIT STATUS, every key the mapping parser takes is in
# mappings/README.md (the source of skelbridge.map(5)); and the built pages
# render without a warning.
#   check-man.sh [BUILT_PAGE...]   (none when scdoc was not there)
set -u
root=${SKELBRIDGE_SOURCE_ROOT:?}
exe=${SKELBRIDGE:?}
page=$root/doc/skelbridge.1.scd
readme=$root/mappings/README.md
status=0
fail() {
	echo "check-man: $*" >&2
	status=1
}

commands=$("$exe" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || fail "skelbridge --help lists no commands"
for command in $commands; do
	grep -q "^\*$command\*" "$page" || fail "command '$command' is not in skelbridge(1)"
	options=$("$exe" "$command" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' |
		grep -oE -- '-[a-zA-Z]\b|--[a-z-]+')
	for option in $options; do
		grep -qF -- "*$option*" "$page" ||
			fail "$command's option $option is not in skelbridge(1)"
	done
done
for option in --help --version; do
	grep -qF -- "*$option*" "$page" || fail "$option is not in skelbridge(1)"
done

exits=$(sed -n '/^# EXIT STATUS/,/^# /p' "$page")
codes=$(grep -oE 'CLI_EXIT_[A-Z_]+ = [0-9]+' "$root/src/cli/cli.h" | grep -oE '[0-9]+$')
[ -n "$codes" ] || fail "no exit statuses found in src/cli/cli.h"
for code in $codes; do
	printf '%s\n' "$exits" | grep -qx "\*$code\*" ||
		fail "exit status $code is not under EXIT STATUS in skelbridge(1)"
done

# The parser names the keys a section takes when it meets one it does not.
maps=$(mktemp -d)
trap 'rm -rf "$maps"' EXIT
head='[mapping]
format = 1'
osc='[output o]
kind = osc
target = osc.udp://127.0.0.1:9'
printf '%s\nnot_a_key = 1\n' "$head" >"$maps/mapping.map"
printf '%s\n%s\nnot_a_key = 1\n' "$head" "$osc" >"$maps/osc.map"
printf '%s\n[output o]\nkind = tuio\nnot_a_key = 1\n' "$head" >"$maps/tuio.map"
printf '%s\n[output o]\nkind = websocket\nnot_a_key = 1\n' "$head" >"$maps/websocket.map"
for scope in joint event; do
	printf '%s\n%s\n[rule r]\noutput = o\nfor = %s\naddress = /a\nnot_a_key = 1\n' \
		"$head" "$osc" "$scope" >"$maps/rule-$scope.map"
done
printf '%s\n[gestures]\nnot_a_key = 1\n' "$head" >"$maps/gestures.map"
for map in "$maps"/*.map; do
	keys=$("$exe" check "$map" 2>&1 | sed -n 's/.*unknown key; keys are //p' |
		sed 's/ and /, /' | tr -d ',')
	[ -n "$keys" ] || fail "${map##*/}: the parser listed no keys"
	for key in $keys; do
		grep -qF -- "\`$key\`" "$readme" ||
			fail "${map##*/}: key '$key' is not in mappings/README.md"
	done
done

for built in "$@"; do
	warnings=$(MANWIDTH=80 man --warnings -l "$built" 2>&1 >/dev/null)
	[ -z "$warnings" ] || fail "${built##*/}: $warnings"
	MANWIDTH=80 man -l "$built" 2>/dev/null | grep -q '^NAME' ||
		fail "${built##*/} does not render"
done
[ $# -gt 0 ] || echo "check-man: scdoc was not there; the pages were not built"
exit $status
