/**
 * Reports rendered from a real run: the gate against the emulator (whose demo
 * agent answers attacks with @mentions, images, HTML and fences, and whose
 * replay steps record the target's Authorization header), then every rule of
 * the reports checked on the three renderings.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { assess, type GateOutcome } from '../../src/gate/assess-run.js'
import { emulatorGateDeps } from '../__fixtures__/emulator-helpers.js'
import { buildReport } from '../../src/report/build-report.js'
import type { Report } from '../../src/report/report-model.js'
import { assessmentReportInput } from '../../src/gate/report-input.js'
import { COMMENT_LIMIT, commentMarker, renderComment } from '../../src/report/comment.js'
import { renderJson } from '../../src/report/json.js'
import { renderSummary } from '../../src/report/summary.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { checkMarkdown } from '../__fixtures__/hostile-strings.js'

/** Undefined when startEmulator failed (afterAll has nothing to stop then). */
let emu: Emulator | undefined
let outcome: GateOutcome
let report: Report

beforeAll(async () => {
  const e = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 30, attacksPerCategory: 3 })
  emu = e
  e.demoAgent.setAllVulnerable(true)
  outcome = await assess(emulatorGateDeps(e), { modelId: e.demoModelId, categories: [], minSeverity: 'medium', timeoutMs: 60_000 })
  report = buildReport({
    ...assessmentReportInput(outcome, {
      modelId: e.demoModelId,
      minSeverity: 'medium',
      runUrl: 'https://github.com/octo-org/agent-app/actions/runs/1',
      secrets: [e.keys.full]
    }),
    policy: null
  })
})
afterAll(async () => {
  await emu?.stop()
})

describe('reports of a real run', () => {
  it('is a failing run with real findings and attacks', () => {
    expect(outcome.decision.result).toBe('fail')
    expect(outcome.results.findings?.length).toBeGreaterThan(3)
    expect(outcome.results.findings?.every((f) => f.attacks.length > 0)).toBe(true)
  })

  it('renders the comment and summary with nothing active from the agent', () => {
    const comment = renderComment(report)
    const summary = renderSummary(report)
    const allow = { allowLinks: ['https://github.com/octo-org/agent-app/actions/runs/1'] }
    expect(checkMarkdown(comment, allow)).toEqual([])
    expect(checkMarkdown(summary, allow)).toEqual([])
    expect(comment.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(comment.startsWith(commentMarker(emu!.demoModelId))).toBe(true)
  })

  it('shows every planned category in the coverage table, with OWASP and ATLAS codes', () => {
    const summary = renderSummary(report)
    for (const c of outcome.run?.categories_planned ?? []) expect(summary).toContain(`\`${c}\``)
    expect(summary).toMatch(/LLM01:2025/)
    expect(summary).toMatch(/AML\.T\d{4}/)
  })

  it('never shows a target credential or the key, in any rendering', () => {
    const outputs = [renderComment(report), renderSummary(report), renderJson(report), JSON.stringify(buildAnnotations(report))]
    const credentials = emu!.control.registeredCredentials()
    expect(credentials.length).toBeGreaterThan(0)
    for (const out of outputs) {
      for (const secret of [...credentials, emu!.keys.full]) expect(out.includes(secret)).toBe(false)
    }
    // The replay steps really carried the header: it is there, redacted.
    expect(renderJson(report)).toMatch(/"authorization": "\*\*\*"/i)
  })

  it('keeps the full data in report.json', () => {
    const json = JSON.parse(renderJson(report)) as { findings: unknown[] }
    expect(json.findings).toHaveLength(outcome.results.findings?.length ?? -1)
  })

  it('caps the annotations at ten', () => {
    const annotations = buildAnnotations(report)
    expect(annotations.length).toBeLessThanOrEqual(10)
    expect(annotations.every((a) => !/[\r\n]/.test(a.message))).toBe(true)
  })
})
