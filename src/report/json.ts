/**
 * report.json: the full data of the report (every finding, every replay step,
 * credentials already redacted by buildReport), pretty-printed, with
 * snake_case keys and a schema_version. Long texts are kept whole unless the
 * file would pass `limitChars` (64 Mi characters by default: far above a real
 * run, yet writable by any runner); then every long text is cut to the largest
 * of a few sizes that fits, and `truncation` says so. If even the smallest
 * cut does not fit (a run with about 100,000 findings or more), the file is
 * written without indentation, and then with only the first findings that fit
 * (most severe first, as the report orders them): `truncation` says how many
 * were left out. The text is always valid JSON and never above the limit.
 */
import type { FindingCounts, Report, ReportAcceptance, ReportFinding, ReportSeen, ReportStep } from './report-model.js'

/** Default ceiling of the JSON text (UTF-16 code units): far above any real run, below what a runner can hold. */
export const JSON_LIMIT_CHARS = 64 * 1024 * 1024

/** Per-field caps tried, in order, when the data is too large. */
const FIELD_CAPS = [1024 * 1024, 256 * 1024, 64 * 1024, 16 * 1024, 4096, 1024, 256]

export interface RenderJsonOptions {
  limitChars?: number
}

type Cap = (s: string) => string

function stepJson(st: ReportStep, cap: Cap): Record<string, unknown> {
  const c = (v: string | null): string | null => (v === null ? null : cap(v))
  let headers: Record<string, string> | null = null
  if (st.headers !== null) {
    headers = {}
    for (const [k, v] of Object.entries(st.headers)) headers[cap(k)] = cap(v)
  }
  return {
    step: cap(st.step),
    message: c(st.message),
    response: c(st.response),
    session_id: c(st.sessionId),
    method: c(st.method),
    url: c(st.url),
    headers,
    body: c(st.body),
    response_status: st.responseStatus,
    response_body: c(st.responseBody),
    target: c(st.target),
    assertion: c(st.assertion),
    expected_behavior: c(st.expectedBehavior),
    capture_as: c(st.captureAs)
  }
}

function findingJson(f: ReportFinding, cap: Cap): Record<string, unknown> {
  return {
    finding_id: f.findingId,
    severity: f.severity,
    at_or_above_threshold: f.atOrAbove,
    category: f.category,
    lens: f.lens,
    status: f.status,
    redacted: f.redacted,
    description: cap(f.description),
    expected_behavior: cap(f.expectedBehavior),
    created_at: f.createdAt,
    fingerprint: f.fingerprint,
    baseline: f.baselineState,
    seen: seenJson(f.seen),
    accepted: f.accepted ? acceptanceJson(f.accepted) : null,
    attacks: f.attacks.map((a) => ({
      attack_id: a.attackId,
      score: a.score,
      last_replay_status: a.lastReplayStatus,
      created_at: a.createdAt,
      last_replayed_at: a.lastReplayedAt,
      source: a.source
        ? {
            source_type: a.source.sourceType,
            assessment_id: a.source.assessmentId,
            attack_index: a.source.attackIndex,
            date: a.source.date
          }
        : null,
      replay_script: a.steps.map((st) => stepJson(st, cap))
    }))
  }
}

function acceptanceJson(e: ReportAcceptance): Record<string, unknown> {
  return {
    entry: e.index,
    line: e.line,
    category: e.category,
    fingerprint: e.fingerprint,
    reason_code: e.reasonCode,
    explanation: e.explanation,
    owner: e.owner,
    expires: e.expires
  }
}

/** Total length of the long texts, each counted at most `cap` (a cheap estimate of the file's size). */
function textSize(r: Report, cap: number): number {
  let n = 0
  const add = (v: string | null): void => {
    if (v !== null) n += Math.min(v.length, cap)
  }
  for (const f of r.findings) {
    add(f.description)
    add(f.expectedBehavior)
    for (const a of f.attacks) {
      for (const st of a.steps) {
        add(st.message)
        add(st.response)
        add(st.body)
        add(st.responseBody)
        add(st.assertion)
        add(st.expectedBehavior)
        add(st.url)
        if (st.headers) for (const [k, v] of Object.entries(st.headers)) n += Math.min(k.length, cap) + Math.min(v.length, cap)
        n += 900
      }
      n += 600
    }
    n += 800
  }
  // JSON escapes (\n, \", \\) and indentation.
  return Math.ceil(n * 1.15)
}

export interface JsonTruncation {
  max_field_chars: number | null
  fields_truncated: number
  /** Set only when findings had to be left out. */
  findings_omitted?: number
  findings_total?: number
  note?: string
}

export function renderJson(report: Report, opts: RenderJsonOptions = {}): string {
  const limit = opts.limitChars ?? JSON_LIMIT_CHARS
  // Caps to try: none, then the first whose estimate fits, then smaller ones while the text is still too long.
  const caps: number[] = [Number.POSITIVE_INFINITY, ...FIELD_CAPS]
  let i = caps.findIndex((c) => textSize(report, c) <= limit)
  if (i < 0) i = caps.length - 1
  // Far beyond the limit even at the smallest cap: skip straight to the last resorts.
  const hopeless = textSize(report, caps[caps.length - 1]) > 2 * limit
  let json = hopeless ? '' : renderJsonWithCap(report, caps[i])
  while (!hopeless && json.length > limit && i < caps.length - 1) {
    i += 1
    json = renderJsonWithCap(report, caps[i])
  }
  if (!hopeless && json.length <= limit) return json
  const smallest = caps[caps.length - 1]
  // Without indentation.
  if (!hopeless) {
    json = renderJsonWithCap(report, smallest, { indent: 0 })
    if (json.length <= limit) return json
  }
  return renderFirstFindings(report, smallest, limit)
}

/**
 * The report with only as many findings (in the report's order) as fit
 * under `limit`, compact, with the truncation marker saying how many were
 * left out. Each finding is measured once; the whole is checked at the end.
 */
function renderFirstFindings(report: Report, cap: number, limit: number): string {
  const total = report.findings.length
  const capFn: Cap = (s) => (s.length <= cap ? s : `${s.slice(0, cap)}…[${s.length - cap} more characters cut]`)
  const sizes = report.findings.map((f) => JSON.stringify(findingJson(f, capFn)).length + 1)
  const render = (keep: number): string =>
    renderJsonWithCap({ ...report, findings: report.findings.slice(0, keep) }, cap, {
      indent: 0,
      omitted: { omitted: total - keep, total, limit }
    })
  const frame = render(0).length
  let keep = 0
  let used = frame
  while (keep < total && used + sizes[keep] <= limit) used += sizes[keep++]
  let json = render(keep)
  while (json.length > limit && keep > 0) {
    keep = Math.floor(keep * 0.95)
    json = render(keep)
  }
  return json
}

/** How the model was obtained (endpoint_url), or null. */
function targetJson(r: Report) {
  if (r.target === null) return null
  const { outcome, name, movedFrom } = r.target
  return {
    outcome,
    name,
    moved_from: movedFrom === null ? null : { name: movedFrom.name, model_id: movedFrom.modelId, endpoint_host: movedFrom.endpointHost }
  }
}

function profileSyncJson(r: Report) {
  const p = r.profileSync
  if (p === null) return null
  return {
    file: p.file,
    status: p.status,
    created: p.created,
    changed: p.changed,
    confirmed: p.confirmed,
    version: p.version,
    error: p.error
  }
}

function runJson(r: Report) {
  return {
    run_id: r.runId,
    status: r.runStatus,
    started_at: r.startedAt,
    completed_at: r.completedAt,
    categories_planned: r.categoriesPlanned,
    categories_completed: r.categoriesCompleted,
    ingest_incomplete: r.ingestIncomplete,
    elapsed_ms: r.elapsedMs,
    url: r.runUrl
  }
}

function coverageJson(r: Report) {
  return {
    readable: r.coverageReadable,
    planned: r.coverageRows.filter((row) => row.planned).length,
    completed: r.coverageCompleted,
    not_reached: r.coverageNotReached,
    categories: r.coverageRows.map((row) => ({
      category: row.category,
      planned: row.planned,
      state: row.state,
      attacks_blocked: row.blocked,
      attacks_succeeded: row.succeeded,
      owasp: row.owasp,
      atlas: row.atlas,
      worst_severity: row.worstSeverity
    }))
  }
}

function countsJson(c: FindingCounts | null) {
  if (c === null) return null
  return {
    total: c.total,
    by_severity: c.bySeverity,
    open_by_severity: c.openBySeverity,
    at_or_above_threshold: c.atOrAbove,
    open_at_or_above_threshold: c.openAtOrAbove,
    below_threshold: c.belowThreshold,
    below_threshold_by_severity: c.belowBySeverity,
    redacted: c.redacted,
    redacted_at_or_above_threshold: c.redactedAtOrAbove
  }
}

/** How often a finding was seen: { label: "4 of the last 5 runs" (or "4 of main's last 5 runs"), seen: 4, of: 5, scope: "main", steadiness: "flaky" }; null when no window was read. */
function seenJson(s: ReportSeen) {
  return s.windowed ? { label: s.label, seen: s.seen, of: s.of, scope: s.scope, steadiness: s.steadiness } : null
}

function baselineJson(r: Report) {
  const b = r.baseline
  if (b === null) return null
  return {
    fail_on: b.failOn,
    available: b.available,
    source: b.source,
    why: b.why,
    run_id: b.runId,
    created_at: b.createdAt,
    commit: b.commit,
    new_count: b.newCount,
    known_count: b.knownCount,
    gone: b.gone,
    not_reproduced: b.notReproduced.map((n) => ({
      fingerprint: n.fingerprint,
      category: n.category,
      severity: n.severity,
      description: n.description,
      seen: seenJson(n.seen),
      blocks: n.blocks,
      confirmed_gone: n.confirmedGone === true
    })),
    window: b.window
      ? {
          runs_read: b.window.runsRead,
          holders_read: b.window.holdersRead,
          service_requests: b.window.serviceRequests,
          github_requests: b.window.githubRequests,
          ms: b.window.ms
        }
      : null,
    uncovered: b.uncovered,
    saved: b.saved
  }
}

function acceptancesJson(r: Report) {
  const a = r.acceptances
  if (a === null) return null
  return {
    path: a.path,
    source: a.source,
    accepted_count: a.acceptedCount,
    expired: a.expired.map(acceptanceJson),
    stale: a.stale.map(acceptanceJson),
    pr_adds: a.prAdds.map(acceptanceJson),
    pr_removes: a.prRemoves.map(acceptanceJson)
  }
}

/** What was cut to fit: long fields capped, and findings left out (`omitted`); null when nothing was. */
function truncationOf(cap: number, truncatedFields: number, o: Omitted | undefined): JsonTruncation | null {
  if (o && o.omitted > 0) {
    return {
      max_field_chars: Number.isFinite(cap) ? cap : null,
      fields_truncated: truncatedFields,
      findings_omitted: o.omitted,
      findings_total: o.total,
      note: `report.json is limited to ${o.limit.toLocaleString('en-US')} characters: the first ${(o.total - o.omitted).toLocaleString('en-US')} of ${o.total.toLocaleString('en-US')} findings (most severe first) are listed, ${o.omitted.toLocaleString('en-US')} left out; the counts cover them all`
    }
  }
  return truncatedFields > 0 ? { max_field_chars: cap, fields_truncated: truncatedFields } : null
}

interface Omitted {
  omitted: number
  total: number
  limit: number
}

function renderJsonWithCap(report: Report, cap: number, opts: { indent?: number; omitted?: Omitted } = {}): string {
  let truncatedFields = 0
  const capFn: Cap = Number.isFinite(cap)
    ? (s) => {
        if (s.length <= cap) return s
        truncatedFields += 1
        return `${s.slice(0, cap)}…[${s.length - cap} more characters cut]`
      }
    : (s) => s

  const r = report
  const c = r.counts
  const data = {
    schema_version: r.schemaVersion,
    model_id: r.modelId,
    model: r.modelName === null ? null : { name: r.modelName, endpoint_host: r.endpointHost },
    target: targetJson(r),
    profile_sync: profileSyncJson(r),
    min_severity: r.minSeverity,
    result: r.result,
    reason: r.reason,
    verdict: r.verdict,
    verdict_computed: r.verdictComputed,
    run: runJson(r),
    coverage: coverageJson(r),
    counts: countsJson(c),
    redaction: c !== null && c.redacted > 0 ? { count: c.redacted, reason: r.redactionReason } : null,
    findings_readable: r.findingsReadable,
    findings: r.findings.map((f) => findingJson(f, capFn)),
    headline: r.headline,
    baseline: baselineJson(r),
    accepted_risks: acceptancesJson(r),
    notes: r.notes,
    assessments_spent: r.pipeline?.assessmentsSpent ?? null,
    budget: r.pipeline?.budgetLine ?? null,
    detection: r.pipeline?.detection ?? null,
    confirmation: r.pipeline?.confirmation ? { lines: r.pipeline.confirmation.lines, run_ids: r.pipeline.confirmation.runIds } : null,
    pipeline: r.pipeline?.lines ?? [],
    truncation: null as null | JsonTruncation
  }
  data.truncation = truncationOf(cap, truncatedFields, opts.omitted)
  const indent = opts.indent ?? 2
  return `${indent > 0 ? JSON.stringify(data, null, indent) : JSON.stringify(data)}\n`
}
