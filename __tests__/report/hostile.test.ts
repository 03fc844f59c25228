import { describe, expect, it } from '@jest/globals'
import type { Finding, ReplayStep } from '../../src/service/contract/index.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { FORBIDDEN_OUTPUT_CHARS } from '../../src/report/markdown-safe.js'
import { buildReport } from '../../src/report/build-report.js'
import type { ReportInput } from '../../src/report/report-model.js'
import { COMMENT_LIMIT, commentMarker, renderComment } from '../../src/report/comment.js'
import { hasMarker } from '../../src/github/sticky-comment.js'
import { renderJson } from '../../src/report/json.js'
import { renderSummary, SUMMARY_LIMIT } from '../../src/report/summary.js'
import { checkMarkdown, HOSTILE_STRINGS, splitFences } from '../__fixtures__/hostile-strings.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import {
  coverageRow,
  makeAttack,
  makeCoverage,
  makeFinding,
  makeModel,
  makeRun,
  makeRunListItem,
  makeStep,
  redactedFinding
} from '../__fixtures__/builders.js'

const RUN_URL = 'https://github.com/acme/shop/actions/runs/42'

/** Every untrusted field of the input set to `h`. */
function hostileInput(h: string): ReportInput {
  const step: ReplayStep = makeStep({
    step: h,
    message: h,
    response: h,
    session_id: h,
    method: h,
    url: h,
    headers: { [h || 'empty']: h, Authorization: h, 'X-Note': h },
    body: h,
    response_body: h,
    target: h,
    assertion: h,
    expected_behavior: h,
    capture_as: h
  })
  const hostileFinding = (f: Finding): Finding => ({
    ...f,
    finding_id: h,
    category: h,
    description: h,
    expected_behavior: h,
    attacks: [makeAttack({ attack_id: h, replay_script: [step, makeStep({ step: h })] })]
  })
  return makeInput({
    modelId: h,
    model: makeModel({ model_id: h, name: h, endpoint_host: h }),
    reason: `coverage incomplete: missing ${h}`,
    run: makeRun({ run_id: h, categories_planned: [h, 'prompt_injection', `${h}-2`], categories_completed: [h] }),
    runListItem: makeRunListItem({ run_id: h }),
    coverage: makeCoverage([coverageRow(h, { owasp: h, atlas: h }), coverageRow(`${h}-extra`, { owasp: h })]),
    findings: [
      hostileFinding(makeFinding('critical')),
      // Values outside the enums (the types say enum, the wire may say anything).
      hostileFinding(makeFinding('high', { lens: h as never, status: h })),
      hostileFinding(makeFinding('low')),
      redactedFinding('high', { finding_id: h, category: h })
    ],
    notes: [h, `Coverage could not be read: ${h}`],
    runUrl: RUN_URL
  })
}

describe('hostile strings in every untrusted field', () => {
  it('the corpus holds at least 40 distinct strings', () => {
    expect(HOSTILE_STRINGS.length).toBeGreaterThanOrEqual(40)
    expect(new Set(HOSTILE_STRINGS.map((h) => h.text)).size).toBe(HOSTILE_STRINGS.length)
  })

  describe.each(HOSTILE_STRINGS.map((h) => [h.name, h.text] as const))('%s', (_name, h) => {
    const report = buildReport(hostileInput(h))

    it('the comment renders nothing active and stays within its limit', () => {
      const out = renderComment(report)
      expect(checkMarkdown(out, { allowLinks: [RUN_URL] })).toEqual([])
      expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
      expect(hasMarker(out, commentMarker(h))).toBe(true)
      // The fences and details sections it opens are all closed.
      expect(splitFences(out).problems).toEqual([])
    })

    it('the summary renders nothing active and stays within its limit', () => {
      const out = renderSummary(report)
      expect(checkMarkdown(out, { allowLinks: [RUN_URL] })).toEqual([])
      expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(SUMMARY_LIMIT)
    })

    it('report.json keeps the text as data and parses back', () => {
      const data = JSON.parse(renderJson(report)) as {
        model_id: string
        findings: { description: string; attacks: { replay_script: { headers: Record<string, string> }[] }[] }[]
      }
      expect(data.model_id).toBe(report.modelId)
      const listed = data.findings.find((f) => f.description !== '[redacted]')
      expect(listed?.description).toBe(report.findings[0]?.description)
      expect(listed?.attacks[0]?.replay_script[0]?.headers.Authorization).toBe('***')
    })

    it('annotations are single lines without forbidden characters', () => {
      for (const a of buildAnnotations(report)) {
        expect(`${a.title}${a.message}`).not.toMatch(/[\n\r]/)
        expect(FORBIDDEN_OUTPUT_CHARS.test(a.title + a.message)).toBe(false)
        expect(a.message.length).toBeLessThan(2000)
      }
    })
  })
})

describe('the checker itself catches what it must', () => {
  // The checks above only mean something if the checker fails on raw hostile markdown.
  it.each([
    ['mention', 'hello @octocat'],
    ['team mention', 'cc @github/security'],
    ['raw html', 'x <img src=x onerror=alert(1)>'],
    ['image', '![t](https://e.example/p.png)'],
    ['link', '[a](https://e.example)'],
    ['autolink', '<https://e.example>'],
    ['bare url', 'see https://e.example'],
    ['www', 'see www.e.example'],
    ['email', 'a@e.example'],
    ['unclosed fence', '```text\ncode'],
    ['unbalanced details', '<details>\n<summary>s</summary>\n\ntext'],
    ['bidi', 'a\u202Eb'],
    ['zero width', 'a\u200Bb'],
    ['control', 'a\u0007b'],
    ['table pipe', '| a | b |\n| --- | --- |\n| `x|y` | z |'],
    ['entity mention', '&#64;octocat'],
    ['issue reference', 'fixes #12'],
    ['GH reference', 'see GH-12']
  ])('%s', (_name, md) => {
    expect(checkMarkdown(md)).not.toEqual([])
  })

  it.each([
    ['code span mention', 'hello `@octocat`'],
    ['fenced html', '````text\n<script>``` @x\n````'],
    ['escaped pipe in a table code span', '| a | b |\n| --- | --- |\n| `x\\|y` | z |'],
    ['full-width at', 'hello ＠octocat'],
    ['summary code', '<details>\n<summary>A <code>&lt;b&gt; @x</code></summary>\n\n</details>']
  ])('accepts %s', (_name, md) => {
    expect(checkMarkdown(md)).toEqual([])
  })
})

describe('the comment marker', () => {
  it.each(HOSTILE_STRINGS.map((h) => [h.name, h.text] as const))('is one safe line for %s', (_name, h) => {
    const marker = commentMarker(h)
    expect(marker).toMatch(/^<!-- asas-gate:model=[A-Za-z0-9_%.]*[A-Za-z0-9_%] -->$|^<!-- asas-gate:model= -->$/)
    expect(marker.length).toBeLessThan(300)
  })

  it('differs per model, also for ids that differ only in case, encoding or a long tail', () => {
    const ids = ['m_1', 'M_1', 'm_1 ', 'm%5F1', 'm-1', 'm_1-->', 'x'.repeat(500) + 'a', 'x'.repeat(500) + 'b', '', 'é', 'e\u0301']
    const markers = ids.map(commentMarker)
    expect(new Set(markers).size).toBe(ids.length)
  })

  it('is only recognised at the start of a comment, not quoted inside another one', () => {
    const other = buildReport(hostileInput(commentMarker('victim')))
    const body = renderComment(other)
    expect(body).toContain(commentMarker('victim'))
    expect(hasMarker(body, commentMarker('victim'))).toBe(false)
    expect(hasMarker(body, commentMarker(other.modelId))).toBe(true)
  })
})
