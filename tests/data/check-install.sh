#!/bin/sh
# meson install into a staging folder (DESTDIR), as a package build does:
# everything lands where it should, and the installed binary, run from
# outside the checkout and pointed at the staged mappings with
# SKELBRIDGE_MAPPINGS_PATH, checks a mapping by name and runs the demo.
#   check-install.sh BUILD_ROOT BINDIR DATADIR UNITDIR MANDIR  (absolute folders)
set -eu
build=$1 bindir=$2 datadir=$3 unitdir=$4 mandir=$5
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
fail() {
	echo "check-install: $*" >&2
	exit 1
}

meson install -C "$build" --destdir "$stage" --no-rebuild >"$stage.log" 2>&1 ||
	{ cat "$stage.log" >&2; rm -f "$stage.log"; fail "meson install failed"; }
rm -f "$stage.log"

exe=$stage$bindir/skelbridge
share=$stage$datadir/skelbridge
[ -x "$exe" ] || fail "no skelbridge in $bindir"
for map in "${SKELBRIDGE_SOURCE_ROOT:?}"/mappings/*.map; do
	[ -f "$share/mappings/${map##*/}" ] || fail "${map##*/} not installed"
done
for patch in "$SKELBRIDGE_SOURCE_ROOT"/examples/pd/*.pd; do
	[ -f "$share/examples/pd/${patch##*/}" ] || fail "examples/pd/${patch##*/} not installed"
done
for file in $(cd "$SKELBRIDGE_SOURCE_ROOT" && find examples/avatar -type f); do
	[ -f "$share/$file" ] || fail "$file not installed"
done
[ -f "$stage$datadir/doc/skelbridge/README.md" ] || fail "README.md not installed"
[ -f "$stage$unitdir/skelbridge.service" ] || fail "skelbridge.service not installed"
for page in skelbridge.1 skelbridge.map.5; do
	section=${page##*.}
	# (Built only where scdoc is.)
	[ ! -f "$build/doc/$page" ] || [ -f "$stage$mandir/man$section/$page" ] ||
		fail "$page not installed"
done

cd "$stage"
export SKELBRIDGE_MAPPINGS_PATH="$share/mappings"
"$exe" check default || fail "the installed skelbridge cannot check 'default'"
"$exe" run --source demo:routine --fast --frames 60 --mapping default ||
	fail "the installed skelbridge cannot run the demo"
echo "installed into $stage: checks 'default' and runs the demo"
