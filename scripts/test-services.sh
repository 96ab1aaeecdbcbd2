#!/usr/bin/env bash
# `npm run test:services`: the suite alone (no typecheck or lint) against real servers instead of the
# embedded defaults, as CI runs it (scripts/services.sh starts and names them).
set -euo pipefail
source "$(dirname "$0")/services.sh"
exec vitest run "$@"
