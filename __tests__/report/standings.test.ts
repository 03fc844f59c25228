/**
 * One vocabulary of a finding's standing (src/report/standings.ts): every view
 * reads its words from the table, so rewording a standing there rewords it in
 * the comment, the summary, the annotations and JUnit at once.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { buildReport } from '../../src/report/build-report.js'
import { renderComment } from '../../src/report/comment.js'
import { renderSummary } from '../../src/report/summary.js'
import { renderJunit } from '../../src/report/junit.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { STANDINGS, type Standing } from '../../src/report/standings.js'
import { evidenceCaseInput } from '../__fixtures__/evidence-cases.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { countFindings } from '../../src/report/build-findings.js'
import { FINDING_STANDINGS, type FindingStanding, type Report } from '../../src/report/report-model.js'

const saved = Object.fromEntries(Object.entries(STANDINGS).map(([k, v]) => [k, { ...v }])) as typeof STANDINGS
afterEach(() => {
  for (const k of Object.keys(saved) as Standing[]) Object.assign(STANDINGS[k], saved[k])
})

function views(caseName: string): Record<'comment' | 'summary' | 'annotations' | 'junit', string> {
  const r = buildReport(evidenceCaseInput(caseName))
  return {
    comment: renderComment(r),
    summary: renderSummary(r),
    annotations: buildAnnotations(r)
      .map((a) => `${a.title} ${a.message}`)
      .join('\n'),
    junit: renderJunit(r, { file: null })
  }
}

describe('the standings table drives every view', () => {
  it('a known finding (fail_on new) wears the label and the reason of the table in each view', () => {
    STANDINGS.known.label = 'KNOWNLABEL'
    STANDINGS.known.why = () => 'KNOWNWHY'
    const v = views('evidence-missed-known')
    for (const [name, text] of Object.entries(v)) expect([name, text.includes('KNOWNLABEL')]).toEqual([name, true])
    for (const name of ['comment', 'summary', 'junit'] as const) expect([name, v[name].includes('KNOWNWHY')]).toEqual([name, true])
  })

  it('a weakness not reproduced that still blocks wears the held label in each view', () => {
    STANDINGS.held.label = 'HELDLABEL'
    const v = views('evidence-not-reproduced')
    for (const [name, text] of Object.entries(v)) expect([name, text.includes('HELDLABEL')]).toEqual([name, true])
  })

  it('the annotation level is the table’s', () => {
    const r = buildReport(evidenceCaseInput('evidence-missed-known'))
    expect(buildAnnotations(r).map((a) => a.level)).toEqual(['error', 'warning'])
    STANDINGS.known.annotation = 'notice'
    expect(buildAnnotations(r).map((a) => a.level)).toEqual(['error', 'notice'])
  })

  it('every standing has an icon or the severity colour, a label and a reason', () => {
    for (const [k, w] of Object.entries(STANDINGS)) {
      expect([k, w.label.length > 0]).toEqual([k, true])
      expect([k, w.why({ minSeverity: 'high', failOn: 'new' }).length > 0]).toEqual([k, true])
      expect([k, w.blocks === (w.junit === 'failure')]).toEqual([k, true])
    }
  })
})

describe('annotations name their finding', () => {
  it('in the 352-finding case every annotation but the roll-up names its finding id, none reads an empty "Blocks: ."', async () => {
    const { gateCaseInput } = await import('../__fixtures__/report-cases.js')
    const a = buildAnnotations(buildReport(gateCaseInput('huge')))
    for (const x of a.slice(0, -1)) expect(x.title).toMatch(/ finding f_(crit|high)_\d{3}: /)
    for (const x of a) expect(x.message).not.toContain('Blocks: .')
  })
})

describe('the comment a reviewer reads first', () => {
  const withPipeline = (name: string) => {
    const input = evidenceCaseInput(name)
    const pipeline = {
      assessmentsSpent: 1,
      budgetLine: 'Assessments spent by this step: 1.',
      lines: [],
      detection: 'What a pass means: PASSMEANS.'
    }
    return buildReport({ ...input, pipeline })
  }

  it('a held blocker (not reproduced in this run) is named by its weakness id in the blockers list', () => {
    const r = buildReport(evidenceCaseInput('evidence-not-reproduced'))
    const fp = r.baseline?.notReproduced.find((n) => n.blocks)?.fingerprint ?? 'none'
    const blocks = renderComment(r)
      .split('\n')
      .find((l) => l.startsWith('- ') && l.includes('not reproduced in this run, still blocks'))
    expect(blocks).toContain(`\`weakness ${fp.slice(0, 12)}\``)
  })

  it('"What a pass means" is said on a pass only', () => {
    expect(renderComment(withPipeline('evidence-pass-main-flaky'))).toContain('PASSMEANS')
    expect(renderComment(withPipeline('evidence-not-reproduced'))).not.toContain('PASSMEANS')
  })
})

describe('every standing of a finding is shown and counted in each view', () => {
  /** The fixture's report (a high and a critical finding at or above high), its high finding given `st`, alone in its category (JUnit lists what does not block only in a category nothing fails). */
  function withStanding(st: FindingStanding): { r: Report; id: string } {
    const r = buildReport(makeInput())
    const f = r.findings.find((x) => x.severity === 'high')
    if (f === undefined) throw new Error('the fixture has a high finding')
    f.standing = st
    f.category = 'data_leakage'
    if (r.counts !== null) r.counts.byStanding = countFindings(r.findings).byStanding
    return { r, id: f.findingId }
  }

  it.each(FINDING_STANDINGS.filter((st) => st !== 'blocking' && st !== 'below'))('%s', (st) => {
    const { r, id } = withStanding(st)
    const words = STANDINGS[st]
    for (const [name, md] of Object.entries({ comment: renderComment(r), summary: renderSummary(r) })) {
      // Listed, and counted with its label in the list's heading.
      const heading = md.split('\n').find((l) => /^#### \d+ findings? at or above/.test(l)) ?? ''
      expect([name, md.includes(`<code>${id.replace(/_/g, '&#95;')}</code>`)]).toEqual([name, true])
      expect([name, heading.includes(`1 ${words.label}`)]).toEqual([name, true])
    }
    const annotated = buildAnnotations(r).some((a) => a.message.includes(id))
    expect(annotated).toBe(words.annotation !== null)
    expect(renderJunit(r, { file: null }).includes(id)).toBe(words.junit !== 'none')
  })
})
