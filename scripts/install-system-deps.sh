#!/usr/bin/env bash
# Debian/Ubuntu packages the tests and benches need (TOOLCHAIN.md): Chromium for e2e, gnome-keyring +
# D-Bus for the real Secret Service, libsecret headers for keytar's native build, PostgreSQL for the
# team server tests, ripgrep as the vault search baseline, Xvfb for headful screenshots.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  chromium gnome-keyring dbus libsecret-1-dev postgresql ripgrep xvfb ca-certificates >/dev/null
echo "install-system-deps: done"
