/**
 * What a reviewer with ten seconds sees: the nine problems it
 * names, one block each, on the preview's own cases (the gate's policy and
 * decision on fixed windows, rendered as the step renders them). Each
 * assertion failed on the renderings before the reviewer's order.
 */
import { describe, expect, it } from '@jest/globals'
import { buildReport } from '../../src/report/build-report.js'
import { renderComment } from '../../src/report/comment.js'
import { DETAILS_OPEN } from '../../src/report/markdown.js'
import { renderSummary } from '../../src/report/summary.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { failureStatus, statusDescription } from '../../src/github/commit-status.js'
import { reportOutcome, outcomeValues, type StepOutcome } from '../../src/action/outcome.js'
import { humanSummary } from '../../src/cli/render.js'
import { describeFailure } from '../../src/util/errors.js'
import { evidenceCaseInput } from '../__fixtures__/evidence-cases.js'
import { gateCaseInput, REPORT_CASES } from '../__fixtures__/report-cases.js'
import { movedPreviewInput, PIPELINE_CASES } from '../__fixtures__/pipeline-cases.js'
import type { Report } from '../../src/report/report-model.js'

const evidence = (name: string): Report => buildReport(evidenceCaseInput(name))
const lines = (md: string): string[] => md.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('<!--'))
const pipelineCase = (name: string) => PIPELINE_CASES.find((c) => c.name === name)!
const gateCase = (name: string) => REPORT_CASES.find((c) => c.name === name)!

/** The step's outcome of a report, as the action's report stage makes it (the command line renders it). */
function stepOf(report: Report): StepOutcome {
  const files = { report_path: 'r.json', sarif_path: 'r.sarif', junit_path: 'r.xml', markdown_path: 'r.md', codequality_path: 'r.cq.json' }
  return {
    end: {
      kind: 'assessed',
      result: report.result,
      runId: report.runId ?? '',
      status: 'completed',
      serviceVerdict: report.verdict,
      findingsCount: 0,
      categoriesPlanned: [],
      categoriesCompleted: [],
      files,
      assessmentsSpent: 1,
      commentUrl: null,
      ...reportOutcome(report)
    },
    prepared: { modelId: report.modelId, target: null, profileVersion: null },
    result: report.result,
    conclusion: { outcome: report.result === 'pass' ? 'pass' : 'fail', line: `Result: ${report.result}: ${report.reason}` }
  }
}

describe('1. every view agrees with the verdict (fail_on new, the blocker not reproduced in this run, a known high beside it)', () => {
  const r = evidence('evidence-missed-known')
  const comment = renderComment(r)
  it('the title counts the blocker as new, the heading does not say "0 new", and nothing says the blocker does not block', () => {
    const title = lines(comment)[0]
    expect(title).toBe('### ❌ Agent security gate: fail · 1 new high · Acme Support agent')
    const heading = lines(comment).find((l) => l.startsWith('#### ') && !l.startsWith('#### Coverage'))!
    expect(heading).not.toMatch(/\b0 new\b/)
    expect(heading).toMatch(/1 more blocks without being reproduced in this run/)
    expect(comment).not.toMatch(/so they do not block/)
  })
  it('new_count counts it, it is an error annotation, the command line lists it', () => {
    const step = stepOf(r)
    expect(outcomeValues(step)).toMatchObject({ new_count: 1, known_count: 1 })
    const errors = buildAnnotations(r).filter((a) => a.level === 'error')
    expect(errors.map((a) => a.title)).toEqual([
      expect.stringMatching(/^high tool_misuse weakness [0-9a-f]{12}: not reproduced in this run, still blocks$/)
    ])
    const cli = humanSummary(step)
    expect(cli).toContain('Blocking findings (1):')
    expect(cli.find((l) => l.includes('tool_misuse'))).toMatch(/not reproduced in this run/)
  })
  it("the coverage table marks the category that blocks, and never marks a known finding's category as blocking", () => {
    const rows = lines(renderSummary(r)).filter((l) => l.startsWith('| '))
    expect(rows.find((l) => l.includes('`tool_misuse`'))).toMatch(/^\| ❗ `tool_misuse` · blocks: not reproduced in this run/)
    expect(rows.find((l) => l.includes('`prompt_injection`'))).toMatch(/^\| ⚪ `prompt_injection` · does not block \|/)
    expect(rows.find((l) => l.includes('`prompt_injection`'))).not.toContain('🟠')
  })
})

describe('2. the verdict and every blocker by name come first, the jargon below the findings', () => {
  it.each([
    ['evidence-missed-known', () => renderComment(evidence('evidence-missed-known')), ['tool_misuse']],
    ['evidence-steady-flaky', () => renderComment(evidence('evidence-steady-flaky')), ['system_prompt_leakage', 'prompt_injection']],
    ['carried-fail', () => pipelineCase('carried-fail').render().comment!, ['system_prompt_leakage']],
    ['moved-preview', () => pipelineCase('moved-preview').render().comment!, ['system_prompt_leakage']]
  ] as const)('%s', (_name, render, names) => {
    const top = lines(render()).slice(0, 2 + names.length)
    for (const name of names) expect(top.join('\n')).toContain(`\`${name}\``)
    const md = render()
    const firstJargon = Math.min(
      ...['Assessments spent', 'service request', 'refs/heads', '**Baseline:**'].map((j) => md.indexOf(j)).filter((i) => i >= 0)
    )
    for (const name of names) expect(md.indexOf(`\`${name}\``)).toBeLessThan(firstJargon)
  })
})

describe('3. titles say what blocks; what does not block says so, and why, in one line', () => {
  it('a pass beside a weakness of main names no open high in its title, and says why it does not block', () => {
    const md = renderComment(evidence('evidence-pass-main-flaky'))
    expect(lines(md)[0]).toBe('### ✅ Agent security gate: pass · nothing blocks at or above high · Acme Support agent')
    expect(lines(md)[1]).toMatch(
      /^\*\*Does not block:\*\* 1 weakness not reproduced in this run \\\(a weakness of main's runs, not of this pull request's agent\\\)/
    )
  })
  it('a fail title holds no steady or flaky count after its blockers', () => {
    for (const name of ['evidence-not-reproduced', 'evidence-steady-flaky', 'evidence-new-known'])
      expect(lines(renderComment(evidence(name)))[0]).not.toMatch(/steady|flaky|not reproduced/)
  })
})

describe('4. flaky means seen in some but not all runs counted (at least two), and a flaky finding blocks all the same', () => {
  it('a weakness seen in 2 of 5 runs this run missed is called flaky', () => {
    const md = renderComment(evidence('evidence-pass-main-flaky'))
    expect(md).toContain("seen in 2 of main's last 5 runs \\(flaky\\)")
  })
  it('each blocker says which it is, and a flaky one that it blocks all the same; no bare "1 steady · 1 flaky"', () => {
    const md = renderComment(evidence('evidence-steady-flaky'))
    const blocks = lines(md).slice(1, 4)
    expect(blocks[1]).toMatch(/`system_prompt_leakage` `f_leak_11` · known · seen in 5 of the last 5 runs \\\(steady\\\)$/)
    expect(blocks[2]).toMatch(/`prompt_injection` `f_inj_12` · known · seen in 2 of the last 5 runs \\\(flaky: blocks all the same\\\)$/)
    expect(md).not.toMatch(/\d+ steady · \d+ flaky/)
  })
})

describe('5. a rate says what it counts, once, in one wording', () => {
  it('the runs counted are said once, and each rate counts the same runs', () => {
    const md = renderComment(evidence('evidence-steady'))
    expect(md).toContain("*Rates count the last 5 runs of this agent: this run and main's 4 recorded runs.*")
    expect(md).toContain('seen in 5 of the last 5 runs (steady)')
    expect(md).not.toMatch(/seen in \d+ of \d+ runs of main/)
  })
  it("a pull request's own runs are this agent's runs; main's runs of another agent are named main's", () => {
    expect(renderComment(evidence('evidence-pr-missed'))).toContain(
      '*Rates count the last 2 runs of this agent: this run and 1 other run of this pull request.*'
    )
    const known = renderComment(evidence('evidence-new-known'))
    expect(known).toContain("seen in 4 of main's last 5 runs (flaky)")
    expect(known).not.toMatch(/not reproduced in this run, seen in \d+ of the last/)
  })
})

describe('6. one agent, one name, the id beside it once', () => {
  it('a model gate whose agent is its id shows the inventory name, and the id once', () => {
    const input = gateCaseInput('fail')
    const md = renderComment(
      buildReport({ ...input, pipeline: { assessmentsSpent: 1, budgetLine: 'x', lines: [], agentName: input.modelId } })
    )
    expect(lines(md)[0]).toMatch(/ · Acme Support agent$/)
    expect(
      lines(md)
        .join('\n')
        .match(/m_acme_support/g)?.length
    ).toBe(1)
  })
  it("a moved preview is named by its target name, its target line says what moved without the name's suffixes", () => {
    const md = renderComment(buildReport(movedPreviewInput()))
    expect(lines(md)[0]).toMatch(/ · agent\\-app\\-pr\\-300$/)
    const target = lines(md).find((l) => l.startsWith('**Target:**'))!
    expect(target).not.toMatch(/cfg-|moved to|agent\\?-app\\?-pr\\?-300/)
    expect(target).toContain('its host moved from')
    expect(
      lines(md)
        .join('\n')
        .match(/m_moved_301/g)?.length
    ).toBe(1)
  })
})

describe('7. commit statuses keep the cause and the fix within 140 characters', () => {
  it('a merge-queue refusal leads with what was refused and how to get past it, not as a mistake of endpoint_url', () => {
    const status = statusDescription(pipelineCase('merge-queue-refused').render().statusDescription!)
    expect(status).toMatch(/^Nothing to carry over from pull request #12\. Let the pull request's own check succeed at its head first/)
    expect(status).not.toMatch(/Configuration error|endpoint_url/)
    expect(Array.from(status).length).toBeLessThanOrEqual(140)
  })
  it("its report's Why line names the input it concerns, not a configuration error of it", () => {
    const summary = pipelineCase('merge-queue-refused').render().summary
    expect(summary).toMatch(/\*\*Why:\*\* endpoint\\_url is empty \\\(the target is a preview\\\)/)
    expect(summary).not.toContain('Configuration error')
  })
  it('a budget refusal keeps its reset date', () => {
    const status = statusDescription(pipelineCase('budget-monthly').render().statusDescription!)
    expect(status).toContain('resets on 2026-12-01')
    expect(status.startsWith('POST')).toBe(false)
  })
  it('a configuration mistake stays one', () => {
    expect(failureStatus(new Error('x'), 'Configuration error in input x: y')).toBe('Configuration error in input x: y')
  })
})

describe('8. no self-reference, no echo', () => {
  it('a carried-over comment does not link to itself; its summary does not point below at nothing', () => {
    const rendered = pipelineCase('carried-fail').render()
    expect(rendered.comment).not.toContain('the comment of that assessment')
    expect(rendered.summary).toContain('[the comment of that assessment](https://github.com/acme/agent-app/pull/12#issuecomment-4242)')
    expect(rendered.summary).not.toContain('(below)')
  })
  it('a budget refusal says its cause once in the report; the command line does not echo its result', () => {
    const md = pipelineCase('budget-monthly').render().comment!
    expect(md.match(/allowance\\?_exhausted/g)?.length).toBe(1)
    expect(humanSummary(stepOf(evidence('evidence-steady')))[0]).not.toMatch(/Result: fail/)
  })
  it('a page that quotes nothing from the service has no footer about quoted text', () => {
    const rendered = gateCase('incomplete').render()
    expect(rendered.comment).not.toContain('Quoted text')
    expect(gateCase('fail').render().comment).toContain('Quoted text')
  })
})

describe('9. 352 findings: what was cut is said before the rows', () => {
  it('the line on the one-line rows comes before them', () => {
    const md = gateCase('huge').render().comment!
    const cut = md.indexOf('342 findings as one-line rows without proof')
    expect(cut).toBeGreaterThan(0)
    const firstFinding = md.indexOf('<details>', md.indexOf(DETAILS_OPEN) + 1)
    expect(firstFinding).toBeGreaterThan(0)
    expect(cut).toBeLessThan(firstFinding)
    expect(cut).toBeLessThan(md.indexOf('| Severity | Category'))
  })
})

describe('10. the comment a reviewer reads in ten seconds: verdict, blockers, what does not block, then one fold', () => {
  /** The part of a comment shown before anything is opened: up to the first <details>. */
  const visible = (md: string): string => md.slice(0, md.indexOf('<details>'))
  it('the 352-finding comment shows at most 12 lines before its one fold, the blockers among them', () => {
    const md = gateCase('huge').render().comment!
    expect(md.indexOf(DETAILS_OPEN)).toBeGreaterThan(0)
    expect(md.indexOf('<details>')).toBe(md.indexOf(DETAILS_OPEN))
    const shown = visible(md)
    expect(shown.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(12)
    expect(shown).toContain('**Blocks (352):**')
    expect(shown).not.toMatch(/#### |\| --- \||Coverage|Quoted text/)
  })
  it('a fail shows its blocker by id and the line of what does not block before the fold; findings and coverage are inside', () => {
    const md = gateCase('fail').render().comment!
    const shown = visible(md)
    expect(shown).toMatch(/\*\*Blocks:\*\*\n- .*`f_leak_01`/)
    expect(shown).toContain('**Does not block:**')
    expect(shown.indexOf('**Blocks:**')).toBeLessThan(shown.indexOf('**Does not block:**'))
    const folded = md.slice(md.indexOf(DETAILS_OPEN))
    expect(folded).toContain('#### Coverage')
    expect(folded).toContain('#### 1 finding at or above high')
  })
  it('the job summary folds the same way', () => {
    const md = gateCase('huge').render().summary
    expect(visible(md)).toContain('**Blocks (352):**')
    expect(md.indexOf('<details>')).toBe(md.indexOf(DETAILS_OPEN))
  })
})

describe('the failure line of a refusal is kept whole where a person reads it (the Why line)', () => {
  it('budget-monthly', () => {
    const rendered = pipelineCase('budget-monthly').render()
    expect(rendered.summary).toContain('**Why:** POST /api/v1/run HTTP 403 allowance\\_exhausted')
    expect(typeof describeFailure).toBe('function')
  })
})
