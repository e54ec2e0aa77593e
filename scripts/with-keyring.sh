#!/usr/bin/env bash
# Runs a command with a private, unlocked Secret Service (gnome-keyring on a private D-Bus), so the
# keychain code is tested against the real thing on a headless machine. Without dbus-run-session or
# gnome-keyring it runs the command as it is (keychain tests then skip, and say so).
set -euo pipefail
if [[ -z ${WITH_KEYRING_INNER:-} ]]; then
  if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
    echo "with-keyring: no dbus-run-session/gnome-keyring-daemon; keychain tests will be skipped" >&2
    exec "$@"
  fi
  exec env WITH_KEYRING_INNER=1 dbus-run-session -- "$0" "$@"
fi
export XDG_DATA_HOME; XDG_DATA_HOME=$(mktemp -d)
export XDG_RUNTIME_DIR; XDG_RUNTIME_DIR=$(mktemp -d); chmod 700 "$XDG_RUNTIME_DIR"
eval "$(printf 'test' | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
# gnome-keyring 42 does not print GNOME_KEYRING_CONTROL with --unlock; its control socket lives here.
export GNOME_KEYRING_CONTROL=${GNOME_KEYRING_CONTROL:-$XDG_RUNTIME_DIR/keyring}
status=0
"$@" || status=$?
rm -rf "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
exit $status
