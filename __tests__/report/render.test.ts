import { describe, expect, it } from '@jest/globals'
import { buildAnnotations } from '../../src/report/annotations.js'
import { buildReport } from '../../src/report/build-report.js'
import type { ReportInput } from '../../src/report/report-model.js'
import { commentMarker, previousResult, renderComment } from '../../src/report/comment.js'
import { hasMarker } from '../../src/github/sticky-comment.js'
import { renderJson } from '../../src/report/json.js'
import { renderSummary } from '../../src/report/summary.js'
import { scrubSecrets } from '../../src/util/redact.js'
import { checkMarkdown, splitFences } from '../__fixtures__/hostile-strings.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import {
  coverageRow,
  makeAttack,
  makeCoverage,
  makeFinding,
  makeModel,
  makeRun,
  makeStep,
  PLANNED,
  redactedFinding,
  TARGET_TOKEN
} from '../__fixtures__/builders.js'

const RUN_URL = 'https://github.com/acme/shop/actions/runs/42'

const RENDERERS = [
  ['comment', (i: ReportInput) => renderComment(buildReport(i))],
  ['summary', (i: ReportInput) => renderSummary(buildReport(i))]
] as const

describe.each(RENDERERS)('%s content', (_kind, render) => {
  it('opens with one headline (icon, result, blocking counts, model), then one metadata line', () => {
    const out = render(makeInput({ commit: { sha: 'ABCDEF1234567890', at: '2026-11-21T14:03:27Z' } }))
    const lines = out
      .replace(/^<!--.*\n/gm, '')
      .split('\n')
      .filter((l) => l !== '')
    expect(lines[0]).toBe('### ❌ Agent security gate: fail · 1 open critical, 1 open high · Demo banking agent')
    // The blockers by name under it, what does not block in one line, then the metadata (the model's id beside its name, once).
    expect(lines[1]).toBe('**Blocks (2):**')
    expect(lines[2]).toMatch(/^- 🔴 \*\*critical\*\* `prompt_injection` `f_\d+`$/)
    expect(lines[3]).toMatch(/^- 🟠 \*\*high\*\* `prompt_injection` `f_\d+`$/)
    expect(lines[4]).toMatch(/^\*\*Does not block:\*\* /)
    expect(lines[5]).toBe(
      `model \`m_demo\` · commit \`abcdef1\` · 2026-11-21 14:03 UTC · 3/3 categories · threshold high · 3 min 12 s · run \`run_1\` · [workflow run](${RUN_URL})`
    )
    expect(checkMarkdown(out, { allowLinks: [RUN_URL] })).toEqual([])
  })

  it.each([
    ['pass', '### ✅ Agent security gate: pass · nothing blocks at or above high · Demo banking agent'],
    ['incomplete', '### ⚠️ Agent security gate: incomplete · 3 of 3 categories completed · Demo banking agent'],
    ['error', '### ⛔ Not assessed: why · Demo banking agent']
  ] as const)('heads result %s with its own headline', (result, head) => {
    expect(render(makeInput({ result, reason: 'why', findings: [] }))).toContain(`${head}\n`)
  })

  it('never says pass under an error or an incomplete result, whatever the service said', () => {
    for (const result of ['error', 'incomplete'] as const) {
      const out = render(makeInput({ result, reason: 'coverage incomplete: 2 of 3 categories reached', verdict: 'pass', findings: [] }))
      expect(out).not.toMatch(/\bpass\b/i)
      expect(out).not.toMatch(/Verdict/)
    }
  })

  it("shows the service's verdict only where it differs from the result and was not overridden", () => {
    expect(render(makeInput())).not.toContain("The service's verdict")
    expect(render(makeInput({ verdict: 'pass', verdictComputed: true }))).not.toContain("The service's verdict")
    expect(render(makeInput({ result: 'pass', reason: 'ok', verdict: 'fail', findings: [] }))).toContain("**The service's verdict:** fail.")
  })

  it('names a timeout as not assessed, with the cause and what to do, not as good news', () => {
    const out = render(
      makeInput({
        result: 'error',
        reason: 'timeout_minutes ran out while the run was still running; 0 of 3 categories reached',
        run: makeRun({ status: 'running', categories_completed: [], verdict: null }),
        coverage: makeCoverage([]),
        findings: [],
        verdict: null
      })
    )
    expect(out).toContain(
      '### ⛔ Not assessed: timeout\\_minutes ran out before any category ran: raise timeout\\_minutes · Demo banking agent'
    )
    expect(out).toContain('**Why:** timeout\\_minutes ran out while the run was still running; 0 of 3 categories reached')
    expect(out).not.toMatch(/none|No findings/)
    expect(out).toMatch(
      _kind === 'comment'
        ? /3 categories not reached:\*\* `prompt_injection`, `data_leakage`, `jailbreak`/
        : /\| ⬜ `jailbreak` \*\*not reached\*\* \| – \|/
    )
  })

  it('heads a cancelled run with a finding as not assessed, and says what it found before it stopped', () => {
    const out = render(
      makeInput({
        result: 'error',
        reason: 'the step was cancelled and the run with it; 1 open finding at or above high in what it reached',
        run: makeRun({ status: 'cancelled' }),
        findings: [makeFinding('high')]
      })
    )
    expect(out).toContain('### ⛔ Not assessed: the job was cancelled before the run ended · Demo banking agent')
    expect(out).toContain('**Found before it stopped:** 1 open high.')
    expect(out).not.toMatch(/### ❌/)
  })

  it('says when the model or the run could not be read', () => {
    const out = render(
      makeInput({
        model: null,
        run: null,
        runListItem: null,
        coverage: null,
        findings: null,
        elapsedMs: null,
        result: 'error',
        reason: 'the run status could not be read'
      })
    )
    expect(out).toContain('### ⛔ Not assessed: the run status could not be read · m\\_demo')
    expect(out).toContain('**The findings could not be read.**')
    expect(out).toContain('the planned categories are unknown')
    expect(out).toContain('The coverage could not be read')
  })

  it('has a coverage table of at most five columns with a bar of attacks that got through', () => {
    const out = render(
      makeInput({
        run: makeRun({
          categories_planned: ['prompt_injection', 'data_leakage', 'jailbreak'],
          categories_completed: ['prompt_injection', 'data_leakage']
        }),
        coverage: makeCoverage([
          coverageRow('prompt_injection', {
            attacks_blocked: 12,
            attacks_succeeded: 3,
            owasp: 'LLM01',
            atlas: 'AML.T0051',
            worst_severity: 'critical'
          }),
          coverageRow('data_leakage', { attacks_blocked: 2, attacks_succeeded: 1, worst_severity: 'medium', owasp: 'LLM06' }),
          coverageRow('tool_misuse', { attacks_blocked: 1, attacks_succeeded: 0, worst_severity: null })
        ])
      })
    )
    expect(out).toContain('#### Coverage: 2 of 3 categories completed, 1 not reached · 4 of 19 attacks got through')
    expect(out).toContain('| ❗ `prompt_injection` | █░░░░ 3/15 | 🔴 critical | `LLM01`')
    // Attacks got through, but nothing of it blocks (a medium, below the threshold): no red mark, no severity colour.
    expect(out).toContain('| ⚪ `data_leakage` · does not block | █░░ 1/3 | medium | `LLM06`')
    expect(out).toContain('`tool_misuse` partial (not planned)')
    for (const line of out.split('\n').filter((l) => l.startsWith('|'))) expect(line.split(/(?<!\\)\|/).length - 2).toBeLessThanOrEqual(5)
  })

  it('says when the coverage could not be read', () => {
    expect(render(makeInput({ coverage: null }))).toContain('The coverage could not be read')
  })

  it('gives each blocking finding one collapsed section, most severe first, with escaped prose and its proof', () => {
    const findings = [
      makeFinding('high', {
        finding_id: 'h1',
        category: 'jailbreak',
        description: 'Role-play *bypass*.',
        expected_behavior: 'Stay in policy.'
      }),
      makeFinding('critical', { finding_id: 'c1', lens: 'safety', status: 'open' }),
      makeFinding('high', { finding_id: 'h2', status: 'dismissed' }),
      makeFinding('medium', { finding_id: 'm1' })
    ]
    const out = render(makeInput({ findings }))
    expect(out).toContain('#### 3 findings at or above high: 1 open critical, 1 open high · 1 closed')
    const c1 = out.indexOf(
      '<summary>🔴 <b>critical</b> · <code>prompt&#95;injection</code> · <code>c1</code> · 1 attack, 1 reproduced</summary>'
    )
    const h1 = out.indexOf('<summary>🟠 <b>high</b> · <code>jailbreak</code> · <code>h1</code>')
    const h2 = out.indexOf(
      '<summary>✔️ <b>high</b> · <b>closed</b> · <code>prompt&#95;injection</code> · <code>h2</code> · 1 attack, 1 reproduced · status dismissed</summary>'
    )
    expect(c1).toBeGreaterThan(0)
    expect(h1).toBeGreaterThan(c1)
    expect(h2).toBeGreaterThan(h1)
    expect(out).toContain('> Role\\-play \\*bypass\\*.')
    expect(out).toContain('**Expected:** Stay in policy.')
    expect(out).not.toContain('<code>m1</code>')
  })

  it('shows the proof as prompt, reply and failed check in one wrapped block, bodies only when they add something', () => {
    const long = 'word '.repeat(60).trim()
    const step = makeStep({
      message: 'hello',
      response: long,
      assertion: 'no secrets',
      body: '{"message":"hello"}',
      response_body: `{"reply":"${long}","debug":"x"}`
    })
    const out = render(
      makeInput({
        findings: [
          makeFinding('critical', { attacks: [makeAttack({ attack_id: 'a1', replay_script: [step] }), makeAttack({ attack_id: 'a2' })] })
        ]
      })
    )
    expect(out).toContain('**Proof:** attack `a1`, score 8, reproduced on the last replay.')
    expect(out).toMatch(/```text\n→ prompt\n {2}hello\n\n← reply \(HTTP 200\)\n {2}word word/)
    expect(out).toContain('✗ failed check\n  no secrets')
    expect(out).not.toContain('→ request body')
    expect(out).toContain('Also: `a2` (reproduced).')
    const split = splitFences(out)
    expect(split.problems).toEqual([])
    const fenced = out.split('\n').filter((_l, i) => split.outside[i] === '' && out.split('\n')[i] !== '')
    for (const line of fenced) expect(line.length).toBeLessThanOrEqual(90)
  })

  it('shows redacted findings as redacted, with the reason, counted the same', () => {
    const findings = [
      makeFinding('high', { finding_id: 'h1' }),
      redactedFinding('high', { finding_id: 'r1' }),
      redactedFinding('low', { finding_id: 'r2' })
    ]
    const out = render(makeInput({ findings }))
    expect(out).toContain('<code>r1</code> · proof withheld by the plan</summary>')
    expect(out).toContain(
      "**Redacted:** 2 findings (1 at or above high) are shown without proof: the workspace's plan withholds the proof of findings. They count the same as the others."
    )
    expect(out).not.toContain('`[redacted]`')
  })

  it('puts the notes in a labelled quote block above the footer, which says where the full data is', () => {
    const out = render(
      makeInput({ notes: ['The service gave no verdict; it was computed from the findings.', 'Run cancelled at timeout.'] })
    )
    const notes = out.indexOf('> **Notes from the run** (may quote the service: untrusted text, not instructions)')
    const footer = out.lastIndexOf('<sub>Quoted text')
    expect(notes).toBeGreaterThan(0)
    expect(footer).toBeGreaterThan(notes)
    expect(out).toContain('> - The service gave no verdict; it was computed from the findings.\n> - Run cancelled at timeout.')
    expect(out.slice(footer)).toMatch(/Full data: .*JSON report/)
  })

  it('keeps target credentials out (headers, URL)', () => {
    const findings = [
      makeFinding('high', {
        attacks: [
          makeAttack({
            replay_script: [
              makeStep({
                message: null,
                url: `https://agent.example.test/?token=${TARGET_TOKEN}`,
                headers: { Authorization: `Bearer ${TARGET_TOKEN}`, 'X-Trace': 'abc' }
              })
            ]
          })
        ]
      })
    ]
    const out = render(makeInput({ findings }))
    expect(out).not.toContain(TARGET_TOKEN)
    expect(out).toContain('→ request\n  POST https://agent.example.test/')
  })

  it('keeps the secrets given out of the output, even where escaping would split them', () => {
    const secret = 'sk-live_(key)*123'
    const out = render(makeInput({ secrets: [secret], reason: `bad ${secret}`, notes: [secret], model: makeModel({ name: secret }) }))
    expect(out).not.toContain(secret)
    expect(out).not.toContain('sk\\-live\\_\\(key\\)\\*123')
    expect(out).toMatch(/(\\?\*){3}/)
  })
})

describe('comment specifics', () => {
  it('starts with the marker of its model and is recognised by it only', () => {
    const out = renderComment(buildReport(makeInput({ modelId: 'm_demo' })))
    expect(out.startsWith(`${commentMarker('m_demo')}\n`)).toBe(true)
    expect(hasMarker(out, commentMarker('m_demo'))).toBe(true)
    expect(hasMarker(out, commentMarker('m_dem'))).toBe(false)
    expect(hasMarker(out, commentMarker('m_demo2'))).toBe(false)
    expect(commentMarker('m_demo')).toBe('<!-- asas-gate:model=m_demo -->')
  })

  it('records its result, commit and time in a hidden line that the next run reads back, and nothing else', () => {
    const out = renderComment(buildReport(makeInput({ commit: { sha: 'abcdef1234567890', at: '2026-11-21T14:03:27Z' } })))
    expect(out.split('\n')[1]).toBe('<!-- asas-gate:result=fail;sha=abcdef123456;at=2026-11-21T14:03Z -->')
    expect(previousResult(out)).toEqual({ result: 'fail', sha: 'abcdef123456', at: '2026-11-21T14:03Z' })
    expect(previousResult(renderComment(buildReport(makeInput({ commit: null }))))).toEqual({ result: 'fail', sha: null, at: null })
    for (const body of [
      '',
      'x\n<!-- asas-gate:result=pass;sha=abc;at=- -->',
      'm\n<!-- asas-gate:result=pass;sha=abcdef1;at=- --> @x',
      'm\n<!-- asas-gate:result=ok;sha=-;at=- -->'
    ]) {
      expect(previousResult(body)).toBeNull()
    }
  })

  it('counts findings below the threshold without listing them', () => {
    const out = renderComment(
      buildReport(makeInput({ findings: [makeFinding('high'), makeFinding('low', { finding_id: 'l1' }), makeFinding('medium')] }))
    )
    expect(out).toContain('**Below high:** 2 findings (1 medium, 1 low), counted here and listed in the job summary.')
    expect(out).not.toContain('`l1`')
  })

  it('folds the coverage on a pass and rolls clean categories into one line', () => {
    const out = renderComment(
      buildReport(
        makeInput({
          result: 'pass',
          reason: 'ok',
          verdict: 'pass',
          findings: [],
          coverage: makeCoverage(PLANNED.map((c) => coverageRow(c, { attacks_succeeded: 0, worst_severity: null })))
        })
      )
    )
    expect(out).toContain('<details>\n<summary>Coverage: 3 of 3 categories completed · 0 of 30 attacks got through</summary>')
    expect(out).toContain('✅ 3 categories: 0 of 30 attacks got through.')
    expect(out).not.toMatch(/^\| Category/m)
  })

  it('renders statuses the description does not name as code text', () => {
    const out = renderComment(
      buildReport(
        makeInput({ findings: [makeFinding('high', { status: 'reopened', attacks: [makeAttack({ last_replay_status: 'replaying' })] })] })
      )
    )
    expect(out).toContain('status <code>reopened</code>')
    expect(out).toContain('last replay `replaying`')
    expect(checkMarkdown(out, { allowLinks: [RUN_URL] })).toEqual([])
  })

  it('leaves a link out when the run URL is not a plain http(s) URL', () => {
    for (const runUrl of ['javascript:alert(1)', 'https://x.example/a)(b', 'https://x.example/ space', null]) {
      const out = renderComment(buildReport(makeInput({ runUrl })))
      expect(out).not.toContain('[workflow run]')
      expect(out).not.toContain('[job summary]')
    }
  })
})

describe('summary specifics', () => {
  it('has the full coverage table with ATLAS, five columns', () => {
    const out = renderSummary(buildReport(makeInput()))
    expect(out).toContain('| Category | Got through | Worst | OWASP | ATLAS |')
    expect(out).toContain('| ❗ `prompt_injection` | █░░░░ 1/11 | 🟠 high | `LLM01` | `AML.T0051` |')
  })

  it('shows headers that are not routine in the proof', () => {
    const step = makeStep({ headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TARGET_TOKEN}`, 'X-Tenant': 'acme' } })
    const out = renderSummary(
      buildReport(makeInput({ findings: [makeFinding('high', { attacks: [makeAttack({ replay_script: [step] })] })] }))
    )
    expect(out).toContain('→ headers\n  X-Tenant: acme')
    expect(out).not.toContain('Content-Type')
    expect(out).not.toContain(TARGET_TOKEN)
  })
})

describe('report.json', () => {
  const findings = [
    makeFinding('low', { finding_id: 'l1' }),
    makeFinding('critical', { finding_id: 'c1' }),
    redactedFinding('high', { finding_id: 'r1' })
  ]
  const json = renderJson(buildReport(makeInput({ findings, notes: ['n1'] })))
  const data = JSON.parse(json)

  it('is pretty JSON with a schema version and the run', () => {
    expect(json).toMatch(/^\{\n {2}"schema_version": 1,/)
    expect(data).toMatchObject({
      schema_version: 1,
      model_id: 'm_demo',
      model: { name: 'Demo banking agent', endpoint_host: 'agent.example.test' },
      min_severity: 'high',
      result: 'fail',
      verdict: 'fail',
      verdict_computed: false,
      run: { run_id: 'run_1', status: 'completed', elapsed_ms: 192000, ingest_incomplete: false, url: RUN_URL },
      notes: ['n1'],
      truncation: null
    })
  })

  it('holds every finding (every severity), most severe first, with replay steps', () => {
    expect(data.findings.map((f: { finding_id: string }) => f.finding_id)).toEqual(['c1', 'r1', 'l1'])
    expect(data.findings[2]).toMatchObject({ severity: 'low', at_or_above_threshold: false, redacted: false })
    expect(data.findings[1]).toMatchObject({ redacted: true, description: '[redacted]', attacks: [] })
    const step = data.findings[0].attacks[0].replay_script[0]
    expect(step).toMatchObject({ step: 'send_message', method: 'POST', response_status: 200, message: expect.any(String) })
  })

  it('has counts, coverage and the redaction reason', () => {
    expect(data.counts).toMatchObject({
      total: 3,
      at_or_above_threshold: 2,
      below_threshold: 1,
      redacted: 1,
      by_severity: { critical: 1, high: 1, medium: 0, low: 1 }
    })
    expect(data.redaction).toEqual({ count: 1, reason: "the workspace's plan withholds the proof of findings" })
    expect(data.coverage.categories).toHaveLength(3)
    expect(data.coverage.categories[0]).toMatchObject({
      category: 'prompt_injection',
      planned: true,
      state: 'completed',
      attacks_blocked: 10
    })
  })

  it('redacts credential headers', () => {
    expect(json).not.toContain(TARGET_TOKEN)
    expect(data.findings[0].attacks[0].replay_script[0].headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: '***',
      'X-Api-Key': '***',
      Cookie: '***'
    })
  })
})

describe('scrubSecrets over whole outputs', () => {
  it('removes secrets from all three renderings', () => {
    const secret = 'api-key-"quoted"\\-value'
    const report = buildReport(makeInput({ notes: [secret] }))
    for (const out of [renderComment(report), renderSummary(report), renderJson(report)]) {
      const scrubbed = scrubSecrets(out, [secret])
      expect(scrubbed).not.toContain(secret)
      expect(scrubbed).not.toContain(JSON.stringify(secret).slice(1, -1))
    }
  })
})

describe('annotations from a rendered report', () => {
  it('agree with the comment on the findings at or above the threshold', () => {
    const report = buildReport(makeInput())
    const annotations = buildAnnotations(report)
    expect(annotations).toHaveLength(report.counts?.atOrAbove ?? -1)
  })
})
