import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { FINDING_LENSES, FINDING_STATUSES, SEVERITIES, type Finding, type ReplayStep } from '../../src/service/contract/index.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { codeBlock, codeSpan, FORBIDDEN_OUTPUT_CHARS, proseText, sanitizeText } from '../../src/report/markdown-safe.js'
import { buildReport } from '../../src/report/build-report.js'
import type { ReportInput } from '../../src/report/report-model.js'
import { COMMENT_LIMIT, commentMarker, renderComment } from '../../src/report/comment.js'
import { hasMarker } from '../../src/github/sticky-comment.js'
import { renderJson } from '../../src/report/json.js'
import { renderSummary } from '../../src/report/summary.js'
import { checkMarkdown, HOSTILE_STRINGS, splitFences } from '../__fixtures__/hostile-strings.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { coverageRow, makeCoverage, makeModel, makeRun } from '../__fixtures__/builders.js'

/** Pieces that mean something to markdown, HTML or GitHub, to build adversarial strings from. */
const TOKENS = [
  '`',
  '``',
  '```',
  '````',
  '~~~',
  '<',
  '>',
  '</details>',
  '<details>',
  '<summary>',
  '</summary>',
  '<!--',
  '-->',
  '<script>',
  '<img src=x>',
  '@',
  '@user',
  '@org/team',
  'a@b.example',
  '#1',
  '[',
  ']',
  '(',
  ')',
  '![',
  '](',
  '[x](y)',
  'http://',
  'https://e.example',
  'www.',
  '|',
  '\\',
  '\\|',
  '*',
  '_',
  '~',
  '$',
  '&',
  '&#64;',
  '&lt;',
  '\n',
  '\r\n',
  '\r',
  '\n\n',
  '    ',
  '\t',
  ' ',
  'a',
  'Z',
  '1.',
  '- ',
  '# ',
  '> ',
  '---',
  '===',
  '\u202E',
  '\u2066',
  '\u200B',
  '\u200D',
  '\uFEFF',
  '\u0000',
  '\u001B',
  '\u0085',
  '\u2028',
  '\uD800',
  '\uDC00',
  '😀',
  '👨‍👩‍👧',
  '\u0301',
  String.fromCodePoint(0xe0041),
  '[UNTRUSTED:',
  ':smile:'
]

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n))
const hostile: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((t) => t.join('')), weight: 5 },
  { arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((h) => h.text.length < 5000).map((h) => h.text)), weight: 2 },
  { arbitrary: fc.constantFrom(...TOKENS).map((t) => t.repeat(3000)), weight: 1 }
)

const step: fc.Arbitrary<ReplayStep> = fc.record({
  step: hostile,
  message: fc.option(hostile),
  response: fc.option(hostile),
  method: fc.option(hostile),
  url: fc.option(hostile),
  headers: fc.option(fc.dictionary(hostile, hostile, { maxKeys: 3 })),
  body: fc.option(hostile),
  response_body: fc.option(hostile),
  response_status: fc.option(fc.integer({ min: 100, max: 599 }))
})

const finding: fc.Arbitrary<Finding> = fc.record({
  finding_id: hostile,
  lens: fc.constantFrom(...FINDING_LENSES),
  category: hostile,
  severity: fc.constantFrom(...SEVERITIES),
  description: hostile,
  expected_behavior: hostile,
  status: fc.constantFrom(...FINDING_STATUSES),
  created_at: fc.constant('2026-11-21T00:00:00Z'),
  attacks: fc.array(
    fc.record({
      attack_id: hostile,
      score: fc.integer({ min: -5, max: 100 }),
      source: fc.constant({ source_type: 'manual', assessment_id: 'a', attack_index: 0, date: 'd' }),
      replay_script: fc.array(step, { maxLength: 3 }),
      last_replay_status: fc.constantFrom('pending', 'reproduced', 'not_reproduced', 'inconclusive' as const),
      created_at: fc.constant('2026-11-21T00:00:00Z'),
      last_replayed_at: fc.constant(null)
    }),
    { maxLength: 2 }
  )
})

const input: fc.Arbitrary<ReportInput> = fc
  .record({
    modelId: hostile,
    name: hostile,
    host: hostile,
    reason: hostile,
    runId: hostile,
    categories: fc.array(hostile, { maxLength: 4 }),
    findings: fc.option(fc.array(finding, { maxLength: 12 }), { freq: 8 }),
    notes: fc.array(hostile, { maxLength: 3 }),
    minSeverity: fc.constantFrom(...SEVERITIES),
    result: fc.constantFrom('pass', 'fail', 'incomplete', 'error' as const)
  })
  .map((v) =>
    makeInput({
      modelId: v.modelId,
      model: makeModel({ name: v.name, endpoint_host: v.host }),
      reason: v.reason,
      run: makeRun({ run_id: v.runId, categories_planned: v.categories, categories_completed: v.categories.slice(1) }),
      coverage: makeCoverage(v.categories.map((c) => coverageRow(c, { owasp: c, atlas: v.reason }))),
      findings: v.findings,
      notes: v.notes,
      minSeverity: v.minSeverity,
      result: v.result
    })
  )

const RUN_URL = 'https://github.com/acme/shop/actions/runs/42'
const opts = { numRuns: 60 }

describe('renderers under random and adversarial input', () => {
  it('the comment: no active markup, within the limit, marker first', () => {
    fc.assert(
      fc.property(input, (i) => {
        const out = renderComment(buildReport(i))
        expect(checkMarkdown(out, { allowLinks: [RUN_URL] })).toEqual([])
        expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
        expect(hasMarker(out, commentMarker(i.modelId))).toBe(true)
      }),
      opts
    )
  })

  it('the comment at any limit stays within it', () => {
    fc.assert(
      fc.property(input, fc.integer({ min: 200, max: 20_000 }), (i, limit) => {
        const out = renderComment(buildReport(i), { limit })
        expect(out.length).toBeLessThanOrEqual(limit)
        expect(checkMarkdown(out, { allowLinks: [RUN_URL] })).toEqual([])
      }),
      opts
    )
  })

  it('the summary: no active markup, within its byte limit', () => {
    fc.assert(
      fc.property(input, fc.integer({ min: 2_000, max: 60_000 }), (i, limitBytes) => {
        const report = buildReport(i)
        for (const out of [renderSummary(report), renderSummary(report, { limitBytes })]) {
          expect(checkMarkdown(out, { allowLinks: [RUN_URL] })).toEqual([])
        }
        expect(Buffer.byteLength(renderSummary(report, { limitBytes }), 'utf8')).toBeLessThanOrEqual(limitBytes)
      }),
      { ...opts, seed: 627513132 /* once found `[x](y)\\` in a <summary> code: kept as a regression */ }
    )
  })

  it('report.json parses back with every finding; annotations are clean single lines', () => {
    fc.assert(
      fc.property(input, (i) => {
        const report = buildReport(i)
        const data = JSON.parse(renderJson(report)) as { findings: unknown[] }
        expect(data.findings).toHaveLength(i.findings?.length ?? 0)
        const annotations = buildAnnotations(report)
        expect(annotations.length).toBeLessThanOrEqual(10)
        for (const a of annotations) {
          expect(FORBIDDEN_OUTPUT_CHARS.test(a.title + a.message)).toBe(false)
          expect(a.title + a.message).not.toMatch(/[\r\n]/)
        }
      }),
      opts
    )
  })
})

describe('escaping primitives', () => {
  it('a code span shows exactly the sanitised text and nothing active', () => {
    fc.assert(
      fc.property(hostile, (t) => {
        const span = codeSpan(t, { max: 100_000 })
        expect(checkMarkdown(`x ${span}`)).toEqual([])
        const clean = sanitizeText(t, false)
        if (clean.length > 0) {
          const fence = /^`+/.exec(span)![0]
          expect(span.endsWith(fence)).toBe(true)
          let inner = span.slice(fence.length, span.length - fence.length)
          if (inner.startsWith(' ') && inner.endsWith(' ') && inner.trim().length > 0) inner = inner.slice(1, -1)
          expect(inner).toBe(clean)
        }
      }),
      { numRuns: 300 }
    )
  })

  it('a code block holds every line of the text and nothing closes it early', () => {
    fc.assert(
      fc.property(hostile, (t) => {
        const md = codeBlock(t, { maxChars: 100_000, maxLineChars: 100_000 })
        const split = splitFences(md)
        expect(split.problems).toEqual([])
        expect(split.fences).toBe(1)
        expect(split.outside.every((l) => l === '')).toBe(true)
        const lines = md.split('\n')
        expect(lines.slice(1, -1).join('\n')).toBe(sanitizeText(t, true))
      }),
      { numRuns: 300 }
    )
  })

  it('prose text starts nothing and links nothing, even at the start of a list item', () => {
    fc.assert(
      fc.property(hostile, (t) => {
        const p = proseText(t, 100_000)
        expect(p).not.toMatch(/\n/)
        expect(checkMarkdown(`- ${p}`)).toEqual([])
        expect(checkMarkdown(`**x:** ${p}`)).toEqual([])
      }),
      { numRuns: 300 }
    )
  })
})
