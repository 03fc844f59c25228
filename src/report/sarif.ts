/**
 * SARIF 2.1.0 of a report, for github/codeql-action/upload-sarif. Pure.
 * - one rule per category (name, OWASP and ATLAS in the help and the tags,
 *   security-severity from the worst severity seen);
 * - one result per finding at or above the threshold, on a repository file the
 *   user names (the agent's profile or the workflow file), with
 *   partialFingerprints from the finding's fingerprint so code scanning keeps
 *   an alert's lifecycle across runs;
 * - accepted findings carry a suppression with their justification.
 */
import { atOrAbove, severityRank, type Severity } from '../service/contract/index.js'
import { FINGERPRINT_KEY } from '../baseline/fingerprint.js'
import type { Report, ReportFinding } from './report-model.js'

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'

/** GitHub's security-severity scale (critical is over 9.0, high 7.0 to 8.9, medium 4.0 to 6.9, low below 4.0). */
export const SECURITY_SEVERITY: Record<Severity, string> = { critical: '9.5', high: '8.0', medium: '5.5', low: '3.0' }
const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { critical: 'error', high: 'error', medium: 'warning', low: 'note' }

export interface SarifOptions {
  /** Repository-relative file every result is located on. */
  location: string
  /** Findings at or above it get a result. */
  threshold: Severity
  toolVersion: string
  informationUri?: string
}

function ruleId(category: string): string {
  return `agent-security/${category}`
}

export function renderSarif(report: Report, opts: SarifOptions): Record<string, unknown> {
  const findings = report.findings.filter((f) => atOrAbove(f.severity, opts.threshold))
  const categories = new Map<string, { worst: Severity; owasp: string | null; atlas: string | null }>()
  for (const row of report.coverageRows)
    categories.set(row.category, { worst: row.worstSeverity ?? 'low', owasp: row.owasp, atlas: row.atlas })
  for (const f of findings) {
    const c = categories.get(f.category) ?? { worst: f.severity, owasp: null, atlas: null }
    if (severityRank(f.severity) < severityRank(c.worst)) c.worst = f.severity
    categories.set(f.category, c)
  }
  const keys = [...categories.keys()]
  const rules = [...categories].map(([key, c]) => {
    const refs = [c.owasp ? `OWASP LLM Top 10 ${c.owasp}` : '', c.atlas ? `MITRE ATLAS ${c.atlas}` : ''].filter((x) => x !== '')
    const help = `AI agent security category ${key}.${refs.length > 0 ? ` Mapped to ${refs.join(' and ')}.` : ''} Each result is a finding of an assessment run; its proof (the attacks and replay steps) is in the run's report.`
    return {
      id: ruleId(key),
      name: key.replace(/(^|_)([a-z])/g, (_m, _s, ch: string) => ch.toUpperCase()),
      shortDescription: { text: `AI agent security: ${key}` },
      fullDescription: { text: help },
      help: { text: help, markdown: `**${key}**${refs.length > 0 ? `: ${refs.join(', ')}` : ''}` },
      defaultConfiguration: { level: LEVEL[c.worst] },
      properties: {
        tags: ['security', 'ai-agent', ...(c.owasp ? [`owasp-llm/${c.owasp}`] : []), ...(c.atlas ? [`mitre-atlas/${c.atlas}`] : [])],
        'security-severity': SECURITY_SEVERITY[c.worst],
        precision: 'high'
      }
    }
  })
  const results = findings.map((f: ReportFinding) => {
    const result: Record<string, unknown> = {
      ruleId: ruleId(f.category),
      ruleIndex: keys.indexOf(f.category),
      level: LEVEL[f.severity],
      message: {
        text: `${f.severity} ${f.category} finding ${f.findingId} (${f.status}${f.baselineState ? `, ${f.baselineState}` : ''}): ${f.description}`.slice(
          0,
          2000
        )
      },
      locations: [{ physicalLocation: { artifactLocation: { uri: opts.location, uriBaseId: '%SRCROOT%' }, region: { startLine: 1 } } }],
      partialFingerprints: f.fingerprint ? { [FINGERPRINT_KEY]: f.fingerprint } : {},
      properties: {
        'security-severity': SECURITY_SEVERITY[f.severity],
        findingId: f.findingId,
        status: f.status,
        ...(f.baselineState ? { baseline: f.baselineState } : {})
      }
    }
    if (f.accepted) {
      result.suppressions = [
        {
          kind: 'external',
          status: 'accepted',
          justification:
            `${f.accepted.reasonCode}: ${f.accepted.explanation} (owner ${f.accepted.owner}, expires ${f.accepted.expires})`.slice(0, 1000)
        }
      ]
    }
    return result
  })
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'agent-security-gate',
            version: opts.toolVersion,
            informationUri: opts.informationUri ?? 'https://github.com/marketplace/actions/ai-agent-security-gate',
            rules
          }
        },
        automationDetails: { id: `agent-security-gate/${report.modelId}/` },
        results,
        properties: { modelId: report.modelId, runId: report.runId, result: report.result }
      }
    ]
  }
}
