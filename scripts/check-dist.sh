#!/usr/bin/env bash
# dist/ equals a fresh build of src/: rebuild it (npm run bundle, which starts
# from an empty dist/) and fail when git sees any change under dist/: a file
# changed, added, or no longer built. Run by .ci/run and the release workflow,
# after npm ci.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s bundle >/dev/null
if [ -n "$(git status --porcelain -- dist)" ]; then
  echo "dist/ differs from a fresh build of src/: run 'npm run bundle' and commit dist/." >&2
  git status --porcelain -- dist >&2
  git --no-pager diff --stat -- dist >&2
  exit 1
fi
echo "dist/ equals a fresh build."
