#!/usr/bin/env bash
# The browser test drives Debian's Chromium (test tools cannot download their own browser here).
# Installs it when missing; does nothing when it is there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "The browser test needs Chromium at /usr/bin/chromium: run 'sudo apt-get install -y chromium' (Debian/Ubuntu)." >&2
  exit 1
fi
echo "Installing Chromium from Debian's packages for the browser test..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
