/**
 * SARIF 2.1.0 of a report, for github/codeql-action/upload-sarif. Pure.
 * - one rule per category (name, OWASP and ATLAS in the help and the tags,
 *   security-severity from the worst severity seen);
 * - one result per finding at or above the threshold, on a repository file the
 *   user names (the agent's profile or the workflow file). Every result sits on
 *   line 1 of that file, so the finding's fingerprint is also its
 *   `primaryLocationLineHash`: code scanning groups alerts by it and would
 *   otherwise hash that one line, merging every alert of the run into one and
 *   replacing them all whenever the line is edited;
 * - the message names the severity, category, state and description, never
 *   the finding id (it changes on every run, and each change would be a diff);
 * - accepted findings carry a suppression with their justification, and their
 *   message says accepted, not open;
 * - text from the service is shown with its invisible characters named, as in
 *   the comment, and no string holds a control character.
 */
import { atOrAbove, severityRank, type Severity } from '../service/contract/index.js'
import { FINGERPRINT_KEY } from '../evidence/fingerprint.js'
import { clampText, codeSpan, sanitizeText } from './markdown-safe.js'
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
  return `agent-security/${sanitizeText(category, false)}`
}

/** One line of service text: invisible characters named, clamped. */
function line(text: string, max: number): string {
  return sanitizeText(clampText(text, max).text, false)
}

/** C0 and C1 controls, tab and line feed excepted (a carriage return is folded into a line feed first). */
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g

/** Every string of the log without control characters (NUL, BEL, ESC, ...): consumers print them. */
function withoutControls(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\r\n?/g, '\n').replace(CONTROLS, '')
  if (Array.isArray(value)) return value.map(withoutControls)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutControls(k) as string, withoutControls(v)]))
  return value
}

/** The characters a URI path segment holds as they are (RFC 3986 pchar); the others are percent-encoded. */
const PCHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:@]/

function encodeChar(ch: string): string {
  if (PCHAR.test(ch)) return ch
  try {
    return encodeURIComponent(ch)
  } catch {
    return '%EF%BF%BD' // a lone surrogate has no UTF-8 form: U+FFFD, as a decoder would show it
  }
}

/** A repository-relative path as the relative URI reference SARIF wants (`my dir/a.yml` -> `my%20dir/a.yml`). */
export function pathToUri(path: string): string {
  return (
    path
      .split('/')
      // By code point on purpose: each is encoded on its own (UTF-8), grapheme clusters do not matter in a URI.
      // eslint-disable-next-line @typescript-eslint/no-misused-spread
      .map((segment) => [...segment].map(encodeChar).join(''))
      .join('/')
  )
}

/** "open, new", "accepted, known", "fixed": never "open" for an accepted finding (it is suppressed). */
function stateOf(f: ReportFinding): string {
  return [f.accepted ? 'accepted' : f.status, ...(f.baselineState ? [f.baselineState] : [])].join(', ')
}

interface SarifCategory {
  worst: Severity
  owasp: string | null
  atlas: string | null
}

/** Every category (the coverage rows, then the findings'), with the worst severity found in it. */
function categoriesOf(report: Report, findings: readonly ReportFinding[]): Map<string, SarifCategory> {
  const categories = new Map<string, SarifCategory>()
  for (const row of report.coverageRows)
    categories.set(row.category, { worst: row.worstSeverity ?? 'low', owasp: row.owasp, atlas: row.atlas })
  for (const f of findings) {
    const c = categories.get(f.category) ?? { worst: f.severity, owasp: null, atlas: null }
    if (severityRank(f.severity) < severityRank(c.worst)) c.worst = f.severity
    categories.set(f.category, c)
  }
  return categories
}

/** The rule of a category: its help text (plain and markdown), level and tags. */
function ruleOf(key: string, c: SarifCategory): Record<string, unknown> {
  const refs = [c.owasp ? `OWASP LLM Top 10 ${line(c.owasp, 60)}` : '', c.atlas ? `MITRE ATLAS ${line(c.atlas, 60)}` : ''].filter(
    (x) => x !== ''
  )
  const tail = "Each result is a finding of an assessment run; its proof (the attacks and replay steps) is in the run's report."
  const help = `AI agent security category ${line(key, 200)}.${refs.length > 0 ? ` Mapped to ${refs.join(' and ')}.` : ''} ${tail}`
  // Service text in the markdown is code, as in the comment: it cannot link, mention or format.
  const mdRefs = [
    c.owasp ? `OWASP LLM Top 10 ${codeSpan(c.owasp, { max: 60 })}` : '',
    c.atlas ? `MITRE ATLAS ${codeSpan(c.atlas, { max: 60 })}` : ''
  ].filter((x) => x !== '')
  const markdown = `AI agent security category ${codeSpan(key, { max: 200 })}.${mdRefs.length > 0 ? ` Mapped to ${mdRefs.join(' and ')}.` : ''} ${tail}`
  return {
    id: ruleId(key),
    name: line(key, 200).replace(/(^|_)([a-z])/g, (_m, _s, ch: string) => ch.toUpperCase()),
    shortDescription: { text: `AI agent security: ${line(key, 200)}` },
    fullDescription: { text: help },
    help: { text: help, markdown },
    defaultConfiguration: { level: LEVEL[c.worst] },
    properties: {
      tags: ['security', 'ai-agent', ...(c.owasp ? [`owasp-llm/${c.owasp}`] : []), ...(c.atlas ? [`mitre-atlas/${c.atlas}`] : [])],
      'security-severity': SECURITY_SEVERITY[c.worst],
      precision: 'high'
    }
  }
}

/** The result of a finding; an accepted one is suppressed with its acceptance as the justification. */
function resultOf(f: ReportFinding, keys: readonly string[], opts: SarifOptions): Record<string, unknown> {
  const result: Record<string, unknown> = {
    ruleId: ruleId(f.category),
    ruleIndex: keys.indexOf(f.category),
    level: LEVEL[f.severity],
    message: { text: line(`${f.severity} ${f.category} finding (${stateOf(f)}): ${f.description}`, 2000) },
    locations: [
      { physicalLocation: { artifactLocation: { uri: pathToUri(opts.location), uriBaseId: '%SRCROOT%' }, region: { startLine: 1 } } }
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint, primaryLocationLineHash: f.fingerprint },
    properties: {
      'security-severity': SECURITY_SEVERITY[f.severity],
      findingId: f.findingId,
      status: f.status,
      ...(f.baselineState ? { baseline: f.baselineState } : {}),
      ...(f.seen.windowed
        ? {
            seen: f.seen.label,
            seenInRuns: f.seen.seen,
            runsCounted: f.seen.of,
            ...(f.seen.steadiness ? { steadiness: f.seen.steadiness } : {})
          }
        : {})
    }
  }
  if (f.accepted) {
    result.suppressions = [
      {
        kind: 'external',
        status: 'accepted',
        justification: line(
          `${f.accepted.reasonCode}: ${f.accepted.explanation} (owner ${f.accepted.owner}, expires ${f.accepted.expires})`,
          1000
        )
      }
    ]
  }
  return result
}

export function renderSarif(report: Report, opts: SarifOptions): Record<string, unknown> {
  const findings = report.findings.filter((f) => atOrAbove(f.severity, opts.threshold))
  const categories = categoriesOf(report, findings)
  const keys = [...categories.keys()]
  const rules = [...categories].map(([key, c]) => ruleOf(key, c))
  const results = findings.map((f) => resultOf(f, keys, opts))
  return withoutControls({
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
        properties: {
          modelId: report.modelId,
          runId: report.runId,
          result: report.result,
          ...(report.pipeline?.detection ? { detection: report.pipeline.detection } : {}),
          ...(report.pipeline?.confirmation
            ? { confirmation: report.pipeline.confirmation.lines, confirmationRuns: report.pipeline.confirmation.runIds }
            : {})
        }
      }
    ]
  }) as Record<string, unknown>
}
