#!/usr/bin/env bash
# The gate in any CI (Jenkins, Buildkite, CircleCI, Azure Pipelines...): one command,
# its exit code, and report files for the CI's test and code-scanning views.
#
# Needs Node 22 or later, and in the job's environment (as secrets of the CI):
#   ASAS_API_KEY   the service key (scope test:run)
#   ASAS_BASE_URL  the service's address (the part before /api/v1)
#   ASAS_MODEL_ID  the agent's model_id
#
# Writes into ./reports: report-<model_id>-<run_id>.json (every finding),
# .sarif (SARIF 2.1.0), .junit.xml (one test case per category: point the CI's JUnit
# reader at reports/*.junit.xml) and .codequality.json.
set -euo pipefail

: "${ASAS_API_KEY:?set ASAS_API_KEY from a secret of the CI}"
: "${ASAS_BASE_URL:?set ASAS_BASE_URL}"
: "${ASAS_MODEL_ID:?set ASAS_MODEL_ID}"

status=0
npx --yes agent-security-gate@1 assess --model-id "$ASAS_MODEL_ID" --min-severity high --out reports || status=$?

case "$status" in
  0) echo "agent security: pass" ;;
  1) echo "agent security: fail (blocking findings: see reports/)" ;;
  2) echo "agent security: incomplete (coverage incomplete or the run was cut short)" ;;
  *) echo "agent security: error (configuration, service or no verdict; see the log)" ;;
esac
# Any result but pass fails the job: an incomplete or failed assessment is never a pass.
exit "$status"
