/**
 * What a reviewer reads in the PR-pipeline situations, as the pure renderers
 * write it: the carried-over result (its cause, what to do, one headline),
 * the step's line and commit status, titles, the budget and refusal lines.
 */
import { describe, expect, it } from '@jest/globals'
import { carriedStepResult } from '../../src/decision/carried-result.js'
import { budgetLine } from '../../src/pipeline/budget.js'
import { gateTitle } from '../../src/report/markdown-headline.js'
import { proseText } from '../../src/report/markdown-safe.js'
import { renderNotAssessed } from '../../src/report/not-assessed.js'
import { withRecord } from '../../src/report/comment.js'
import { assessedCause, renderCarriedComment, renderPipelineSummary, type PipelineReportInput } from '../../src/report/pipeline-report.js'
import { ServiceError } from '../../src/util/errors.js'
import { PIPELINE_CASES } from '../__fixtures__/pipeline-cases.js'
import type { RenderedCase } from '../__fixtures__/report-cases.js'

const A = 'a'.repeat(40)

describe('assessedCause: what decided the result a comment holds', () => {
  it.each<[string, string, string | null]>([
    [
      'an assessed fail',
      '<!-- m -->\n<!-- s -->\n\n### ❌ Agent security gate: fail · 1 open critical, 2 open high · agent\\-app\\-pr\\-12\n\nx',
      '1 open critical, 2 open high'
    ],
    [
      'a pass with acceptances',
      '### ✅ Agent security gate: pass · nothing blocking at or above high · 1 accepted · m\\_shop',
      'nothing blocking at or above high · 1 accepted'
    ],
    [
      'a carried comment: the kept report says it',
      '### ❌ Agent security gate: fail · carried over from the assessment of aaaaaaa · x\n<!-- asas-gate:assessed-report -->\n**❌ Agent security gate: fail · 1 open high · x**\n<!-- asas-gate:assessed-report-end -->',
      '1 open high'
    ],
    [
      'escapes undone for plain text',
      '### ❌ Agent security gate: fail · 1 new high · 3 known &amp; `#12` · x',
      '1 new high · 3 known & #12'
    ],
    ['not a gate report', '### ⛔ Not assessed: the service refused · x', null],
    ['a carried headline only', '### ❌ Agent security gate: fail · carried over from the assessment of aaaaaaa · x', null]
  ])('%s', (_what, body, cause) => {
    expect(assessedCause(body)).toBe(cause)
  })
})

describe('carriedStepResult: the line and commit status lead with what decided', () => {
  it.each<[string, Parameters<typeof carriedStepResult>[0], string]>([
    [
      'a fail with its cause',
      { result: 'fail', reason: 'r', assessedSha: A, since: 'the same commit', cause: '1 open critical' },
      'Result: fail: 1 open critical, as assessed at aaaaaaa, carried over (the same commit)'
    ],
    [
      'a cause unknown',
      { result: 'pass', reason: 'r', assessedSha: A, since: '1 file changed since, none under agent_paths: a.md', cause: null },
      'Result: pass: as assessed at aaaaaaa, carried over (1 file changed since, none under agent_paths: a.md)'
    ],
    [
      'a merge queue (its own reason)',
      { result: 'pass', reason: 'carried over: #9 passed at its head ccccccc', since: null },
      'Result: pass: carried over: #9 passed at its head ccccccc'
    ]
  ])('%s', (_what, carried, line) => {
    expect(carriedStepResult(carried, { cancelled: false }).line).toBe(line)
  })
})

describe('the carried-over comment', () => {
  const input = (result: 'pass' | 'fail', cause: string | null): PipelineReportInput => ({
    kind: 'carried_over',
    result,
    subject: 'agent-app-pr-12',
    reason: `carried over: ${result} as assessed at aaaaaaa (the same commit)`,
    assessedSha: A,
    changedFiles: [],
    commitSha: 'b'.repeat(40),
    at: '2026-11-21T14:03:00Z',
    runUrl: null,
    recordUrl: null,
    lines: [],
    budgetLine: budgetLine({ kind: 'carried_over', assessedSha: A }).line,
    cause
  })
  const existing = withRecord(
    '<!-- asas-gate:model=x -->\n<!-- asas-gate:result=fail;sha=aaaaaaaaaaaa;at=- -->\n\n' +
      '### ❌ Agent security gate: fail · 1 open high · agent\\-app\\-pr\\-12\n\n' +
      'Assessments spent by this step: 1 \\(assessed run r\\_1 of aaaaaaa\\).\n\nFINDINGS',
    {
      result: 'fail',
      assessedSha: A,
      headSha: A,
      subject: 'target%3Ax',
      config: null,
      host: null,
      profileDigest: null,
      policyDigest: null,
      at: null
    }
  )

  it.each<[string, 'pass' | 'fail', string | null, RegExp[], RegExp[]]>([
    [
      'a fail: what failed, what to do, said once',
      'fail',
      '1 open high',
      [
        /\*\*What failed at aaaaaaa:\*\* 1 open high\./,
        /\*\*To pass:\*\* fix the findings/,
        /\*\*Carried over:\*\* from aaaaaaa: the same commit\./
      ],
      [/fail as assessed at/]
    ],
    [
      'a pass: what it was, nothing to do',
      'pass',
      'nothing open at or above high',
      [/\*\*Assessed at aaaaaaa:\*\* nothing open/],
      [/To pass/]
    ],
    ['a cause unknown: no empty line for it', 'fail', null, [/\*\*To pass:\*\*/], [/What failed/]]
  ])('%s', (_what, result, cause, present, absent) => {
    const summary = renderPipelineSummary(input(result, cause))
    for (const re of present) expect(summary).toMatch(re)
    for (const re of absent) expect(summary).not.toMatch(re)
  })

  it('keeps the assessed report as a bold line under one headline, its budget line of the step that assessed', () => {
    const body = renderCarriedComment(input('fail', '1 open high'), { marker: '<!-- asas-gate:model=x -->', record: null, existing })
    expect(body.match(/^### /gm)).toHaveLength(1)
    expect(body).toContain('**❌ Agent security gate: fail · 1 open high · agent\\-app\\-pr\\-12**')
    expect(body).toContain('FINDINGS')
    expect(body).toContain('Assessments spent by this step: 0 \\(result carried over')
    expect(body).toContain('Assessments spent by the step that assessed: 1 \\(assessed run')
    expect(body).not.toContain('Assessments spent by this step: 1')
  })
})

describe('titles, budget and refusal lines', () => {
  it.each<[string, string, string, string]>([
    ['a model', 'error', 'the service refused', 'Not assessed: the service refused · m'],
    [
      'no name: no stray separator',
      'error',
      'nothing to carry over from pull request #12',
      'Not assessed: nothing to carry over from pull request #12'
    ],
    ['a blank name', 'fail', '1 open high', 'Agent security gate: fail · 1 open high']
  ])('gateTitle: %s', (_what, result, cause, title) => {
    expect(gateTitle(result, cause, _what === 'a model' ? 'm' : _what === 'a blank name' ? '  ' : '')).toBe(title)
  })

  it.each<[string, string, string]>([
    [
      'a cause in its own parentheses is not nested',
      'the service refused (HTTP 403 allowance_exhausted)',
      'Assessments spent by this step: 0 (not assessed: the service refused, HTTP 403 allowance_exhausted).'
    ],
    ['a plain cause', 'no deployment ready to assess', 'Assessments spent by this step: 0 (not assessed: no deployment ready to assess).']
  ])('budgetLine: %s', (_what, reason, line) => {
    expect(budgetLine({ kind: 'not_assessed', reason }).line).toBe(line)
  })

  it.each<[string, string, string]>([
    ['a message that ends a sentence', 'Allowance spent.', 'POST /api/v1/run HTTP 403: Allowance spent. Hint here'],
    ['a message that does not', 'Allowance spent', 'POST /api/v1/run HTTP 403: Allowance spent. Hint here']
  ])('a refusal with a hint, %s: one full stop', (_what, message, line) => {
    expect(new ServiceError({ endpoint: 'POST /api/v1/run', status: 403, message, hint: 'Hint here' }).describe()).toBe(line)
  })

  it('the Why line of a refusal ends its sentence', () => {
    const md = renderNotAssessed({
      modelId: 'm',
      mode: 'gate',
      kind: 'service',
      cause: 'the service refused',
      line: 'POST /api/v1/run HTTP 429: busy: run the job again then',
      commitSha: null,
      assessedAt: null,
      runUrl: null
    })
    expect(md).toContain('run the job again then.')
  })

  it.each<[string, string, string]>([
    ['a reference is a code span (GitHub links nothing in code; every font has #)', 'see #12', 'see `#12`'],
    ['an escaped backslash before it stays', 'a\\#7', 'a\\\\`#7`'],
    ['a heading marker is escaped', '# title', '\\# title']
  ])('proseText: %s', (_what, text, md) => {
    expect(proseText(text)).toBe(md)
  })
})

describe('the preview cases read well', () => {
  // Rendered in the tests, never at import (a mutant behind a case then runs only the tests that read it).
  const renderedCase = (name: string): RenderedCase | undefined => PIPELINE_CASES.find((c) => c.name === name)?.render()
  it('never show ".;", "..", a full-width sign or a title ending in a separator', () => {
    const all = PIPELINE_CASES.map((c) => c.render()).flatMap((r) => [r.comment ?? '', r.summary, r.statusDescription ?? ''])
    for (const text of all) {
      expect(text).not.toMatch(/\.;|[^.]\.\.(?!\.)|＃|＠| · \n| ·$/m)
    }
  })

  it('a failed deployment has nothing to assess, not "nothing yet"', () => {
    expect(renderedCase('skipped-failed-deployment')?.summary).toMatch(/is failure, not success: nothing to assess\b(?! yet)/)
  })

  it('a refused merge-queue entry blames neither merge_group nor an empty name', () => {
    const summary = renderedCase('merge-queue-refused')?.summary ?? ''
    expect(summary).toMatch(/^### ⛔ Not assessed: nothing to carry over from pull request `#12` · agent\\-app\\-pr\\-12$/m)
    expect(summary).not.toMatch(/input 'merge_group'/)
  })

  it('a budget refusal advises no timeout_minutes past a long Retry-After', () => {
    expect(renderedCase('budget-daily')?.summary).not.toMatch(/timeout_minutes/)
    expect(renderedCase('budget-daily')?.summary).toMatch(/run the job again then\./)
  })

  it("a carried-over fail's commit status says what failed", () => {
    expect(renderedCase('carried-fail')?.statusDescription).toMatch(/^fail: 1 open high, as assessed at 9d8c7b6, carried over/)
  })
})
