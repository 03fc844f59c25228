#!/usr/bin/env bash
# Lint the action metadata and the workflows against GitHub's schemas with
# action-validator (npm package @action-validator/cli, a dev dependency):
#   action.yml (if present), examples/*.yml|yaml, .github/workflows/*.yml|yaml
# Every file is checked; the script fails if any of them has an error.
#
# node24: action-validator 0.6.0 (the latest release) embeds an action schema
# whose runs.using enum stops at node20, while the runner supports node24
# (actions/runner#3940). When action.yml fails as it is AND says
# `using: node24`, it is checked again as a copy with only that value replaced
# by node20, so every other rule of the schema still applies. A note says so.
# Once the validator knows node24 the first check passes and no copy is made.
set -uo pipefail
cd "$(dirname "$0")/.."

validator=(npx --no-install action-validator)
if ! "${validator[@]}" --help >/dev/null 2>&1; then
  echo "lint-workflows: action-validator is not installed (npm ci installs @action-validator/cli)." >&2
  exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

failed=0
checked=0

# validate FILE: prints the validator's report on failure.
validate() {
  local file="$1"
  local out
  checked=$((checked + 1))
  if out="$("${validator[@]}" "$file" 2>&1)"; then
    echo "ok      $file"
    return 0
  fi
  # Only action metadata may need the node24 work-around (the file name tells the validator which schema).
  local base
  base="$(basename "$file")"
  if [[ "$base" == action.yml || "$base" == action.yaml ]] && grep -Eq "^[[:space:]]+using:[[:space:]]*['\"]?node24['\"]?[[:space:]]*$" "$file"; then
    mkdir -p "$tmp/node24"
    sed -E "s/^([[:space:]]+using:[[:space:]]*)(['\"]?)node24(['\"]?)[[:space:]]*$/\1\2node20\3/" "$file" >"$tmp/node24/$base"
    if out="$("${validator[@]}" "$tmp/node24/$base" 2>&1)"; then
      echo "ok      $file (runs.using node24 checked as node20: action-validator's schema predates node24)"
      return 0
    fi
  fi
  echo "FAILED  $file" >&2
  printf '%s\n' "$out" | grep -v '^npm warn' >&2
  failed=$((failed + 1))
}

shopt -s nullglob
files=()
for f in action.yml action.yaml; do [[ -f "$f" ]] && files+=("$f"); done
files+=(examples/*.yml examples/*.yaml .github/workflows/*.yml .github/workflows/*.yaml)

if [[ ${#files[@]} -eq 0 ]]; then
  echo "lint-workflows: nothing to check." >&2
  exit 1
fi

for f in "${files[@]}"; do validate "$f"; done

if [[ $failed -gt 0 ]]; then
  echo "lint-workflows: $failed of $checked files failed the schema check." >&2
  exit 1
fi
echo "lint-workflows: $checked files passed."
