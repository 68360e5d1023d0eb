#!/bin/sh
# The shipped systemd unit is one systemd accepts without a single warning,
# restarts on failure, runs as an ordinary user and logs to the journal.
#   check-unit.sh BUILT-UNIT SKELBRIDGE-BINARY
set -eu
unit=$1
binary=$2
command -v systemd-analyze >/dev/null || {
	echo "systemd-analyze is missing (tools/setup installs systemd)" >&2
	exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The unit names the installed binary; verify it against the built one.
sed "s#^ExecStart=[^ ]*/skelbridge #ExecStart=$binary #" "$unit" >"$work/skelbridge.service"
systemd-analyze verify --man=no "$work/skelbridge.service" >"$work/out" 2>&1 || {
	cat "$work/out" >&2
	exit 1
}
if [ -s "$work/out" ]; then
	echo "systemd-analyze verify complains:" >&2
	cat "$work/out" >&2
	exit 1
fi

for line in "Restart=on-failure" "DynamicUser=yes" "StandardError=journal" \
	"ExecReload=/bin/kill -HUP \$MAINPID"; do
	grep -qxF "$line" "$unit" || {
		echo "$unit: no line '$line'" >&2
		exit 1
	}
done

# What the unit runs is a command skelbridge takes (on the demo here).
exec_start=$(sed -n "s#^ExecStart=[^ ]*/skelbridge ##p" "$unit")
# shellcheck disable=SC2086
set -- $exec_start
[ "$1" = run ] || {
	echo "$unit: ExecStart does not run 'skelbridge run'" >&2
	exit 1
}
shift
args=$(echo "$*" | sed 's/--source freenect/--source demo:empty/')
# shellcheck disable=SC2086
"$binary" run $args --frames 3 --fast --target osc.udp://127.0.0.1:9
echo "ok: $unit"
