/**
 * The proof of a finding in the markdown report: the attack that proves it
 * best, as prompt → reply → the check it failed, cut to a detail level.
 */
import type { DetailLevel } from './markdown-profile.js'
import { codeSpan, formatCount, type ProofSection } from './markdown-safe.js'
import type { ReportAttack, ReportFinding } from './report-model.js'
import { plural } from '../util/text.js'

const REPLAY_TEXT: Record<string, string> = {
  reproduced: 'reproduced on the last replay',
  not_reproduced: 'did not reproduce on the last replay',
  pending: 'not replayed since it was found',
  inconclusive: 'the last replay was inconclusive'
}

export function replayText(status: string): string {
  return REPLAY_TEXT[status] ?? `last replay ${codeSpan(status, { max: 30 })}`
}

/** The attack that proves the finding best: the first that reproduced, else the first. */
export function proofAttack(f: ReportFinding): ReportAttack | null {
  return f.attacks.find((a) => a.lastReplayStatus === 'reproduced') ?? f.attacks.at(0) ?? null
}

/** True when `body` only repeats `text` (e.g. a JSON body around the message). */
function repeats(body: string, text: string | null): boolean {
  if (text === null || text === '') return false
  return body.includes(text) || body.includes(JSON.stringify(text).slice(1, -1))
}

const ROUTINE_HEADERS = new Set([
  'content-type',
  'content-length',
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'host',
  'connection',
  'date',
  'authorization',
  'cookie',
  'x-api-key'
])

export function proofSections(a: ReportAttack, f: ReportFinding, level: DetailLevel): ProofSection[] {
  const out: ProofSection[] = []
  const steps = a.steps.slice(0, level.maxSteps)
  const many = a.steps.length > 1
  steps.forEach((st, i) => {
    const n = many ? ` (step ${i + 1} of ${a.steps.length})` : ''
    if (st.method !== null && st.url !== null && st.message === null) {
      out.push({ label: `→ request${n}`, text: `${st.method} ${st.url}` })
    }
    if (level.headers && st.headers !== null) {
      const extra = Object.entries(st.headers).filter(([k, v]) => !ROUTINE_HEADERS.has(k.toLowerCase()) && v !== '[redacted]')
      if (extra.length > 0) out.push({ label: `→ headers${n}`, text: extra.map(([k, v]) => `${k}: ${v}`).join('\n') })
    }
    if (st.message !== null) out.push({ label: `→ prompt${n}`, text: st.message })
    if (st.body !== null && (st.message === null || (level.bodies && !repeats(st.body, st.message)))) {
      out.push({ label: `→ request body${n}`, text: st.body })
    }
    const status = st.responseStatus !== null ? ` (HTTP ${formatCount(st.responseStatus)})` : ''
    if (st.response !== null) out.push({ label: `← reply${status}`, text: st.response })
    if (st.responseBody !== null && (st.response === null || (level.bodies && !repeats(st.responseBody, st.response)))) {
      out.push({ label: `← response body${st.response === null ? status : ''}`, text: st.responseBody })
    }
    if (st.assertion !== null) out.push({ label: '✗ failed check', text: st.assertion })
    else if (st.expectedBehavior !== null && st.expectedBehavior !== f.expectedBehavior)
      out.push({ label: '✗ expected', text: st.expectedBehavior })
  })
  if (a.steps.length > steps.length)
    out.push({ label: `… ${plural(a.steps.length - steps.length, 'more step')} in the full data`, text: '' })
  return out
}
