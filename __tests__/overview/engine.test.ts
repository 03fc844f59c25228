import { buildOverview } from '../../src/overview/engine.js'
import { overviewMarkdown, OVERVIEW_MARKDOWN_MAX } from '../../src/overview/markdown.js'
import { overviewJson, overviewText } from '../../src/overview/text.js'
import type { AgentRead, OverviewInput } from '../../src/overview/page-model.js'
import type { RunEvidence } from '../../src/evidence/pool.js'
import { observed } from '../__fixtures__/observed.js'

const NOW = Date.parse('2026-12-05T12:00:00Z')
const DAY = 86_400_000
const at = (daysAgo: number): string => new Date(NOW - daysAgo * DAY).toISOString()

function run(id: string, daysAgo: number, findings: RunEvidence['findings'] = []): RunEvidence {
  return { runId: id, completedAt: at(daysAgo), categoriesCompleted: ['jailbreak', 'pii'], findings, provenance: 'service-list' }
}

function agent(name: string, runs: RunEvidence[], over: Partial<AgentRead> = {}): AgentRead {
  return {
    modelId: `mdl_${name}`,
    name,
    lastCompletedAt:
      runs.length > 0
        ? runs
            .map((r) => r.completedAt)
            .sort()
            .at(-1)!
        : '',
    runsInWindow: runs.length,
    moreThanListed: false,
    runs,
    unreadable: [],
    ...over
  }
}

function input(agents: AgentRead[]): OverviewInput {
  return {
    now: NOW,
    maxAgeDays: 7,
    minSeverity: 'high',
    categories: [
      { key: 'jailbreak', name: 'Jailbreak', owasp: 'LLM01', atlas: 'AML.T0054' },
      { key: 'pii', name: 'PII leak', owasp: 'LLM02', atlas: 'AML.T0057' },
      { key: 'tools', name: 'Tool misuse', owasp: 'LLM06', atlas: '' }
    ],
    agents
  }
}

describe('buildOverview', () => {
  it('counts an agent with only old runs as stale and one without runs as never assessed: the page is incomplete, not clear', () => {
    const page = buildOverview(
      input([agent('fresh', [run('r1', 1)]), agent('old', [], { lastCompletedAt: at(30), runsInWindow: 0 }), agent('new', [])])
    )
    expect(page.verdict).toMatchObject({ status: 'incomplete', agents: 3, assessed: 1, stale: 1, never: 1, failing: 0 })
    const byName = Object.fromEntries(page.agents.map((a) => [a.name, a]))
    expect(byName.old).toMatchObject({ state: 'stale', standing: 'unknown', ageDays: 30 })
    expect(byName.new).toMatchObject({ state: 'never', standing: 'unknown', ageDays: null, lastAssessedAt: null })
    expect(byName.fresh).toMatchObject({ state: 'assessed', standing: 'pass', coverage: { completed: 2, of: 3 } })
    expect(page.verdict.headline).toBe('Incomplete: 1 of 3 agents assessed within the bound, 1 stale, 1 never assessed')
  })

  it('is clear only when every agent was assessed within the bound and passes', () => {
    expect(buildOverview(input([agent('a', [run('r1', 1)])])).verdict.status).toBe('clear')
    expect(buildOverview(input([])).verdict.status).toBe('incomplete')
  })

  it('names an unreadable run and model, and a run not read keeps the agent from passing', () => {
    const bad = agent('flaky-read', [run('r1', 1)], {
      unreadable: [{ agent: 'flaky-read', modelId: 'mdl_flaky-read', runId: 'r2', reason: 'HTTP 500' }]
    })
    const gone = agent('gone', [], {
      lastCompletedAt: null,
      unreadable: [{ agent: 'gone', modelId: 'mdl_gone', runId: null, reason: 'HTTP 503' }]
    })
    const page = buildOverview(input([bad, gone]))
    expect(page.unreadable.map((u) => [u.agent, u.runId])).toEqual([
      ['flaky-read', 'r2'],
      ['gone', null]
    ])
    expect(page.agents.find((a) => a.name === 'flaky-read')!.standing).toBe('unknown')
    expect(page.agents.find((a) => a.name === 'gone')!.state).toBe('unreadable')
    expect(page.verdict.status).toBe('incomplete')
    const md = overviewMarkdown(page)
    expect(md).toContain('### Not read')
    expect(md).toContain('flaky\\-read, run `r2`: HTTP 500')
    expect(md).toContain('gone, its run list: HTTP 503')
  })

  it('rates a weakness over the runs read and names the agents it affects; a blocking one fails the agent', () => {
    const x = observed('prompt-x', { severity: 'critical' })
    const a = agent('a', [run('a1', 1, [x]), run('a2', 2), run('a3', 3, [x]), run('a4', 4), run('a5', 5, [x])])
    const b = agent('b', [run('b1', 1, [x]), run('b2', 2)])
    const page = buildOverview(input([a, b]))
    expect(page.weaknesses).toHaveLength(1)
    expect(page.weaknesses[0]).toMatchObject({ severity: 'critical', agents: ['a', 'b'], rate: { seen: 4, of: 7 } })
    expect(page.verdict).toMatchObject({ status: 'attention', failing: 2, open: { critical: 2, high: 0, medium: 0, low: 0 } })
    expect(page.categories[0]).toMatchObject({ key: 'jailbreak', owasp: 'LLM01', agents: 2 })
    expect(overviewMarkdown(page)).toContain('4 of the last 7 runs of 2 agents')
    expect(overviewMarkdown(buildOverview(input([a])))).toContain('3 of the last 5 runs')
    // One run read: no "this run" of a page that ran nothing.
    const one = overviewMarkdown(buildOverview(input([agent('c', [run('c1', 1, [x])])])))
    expect(one).toContain('the only run read')
    expect(one).not.toContain('this run')
  })

  it('a weakness the service closed in its newest run is not open; one below min_severity does not fail the agent', () => {
    const fixed = observed('w', { status: 'FIXED_VERIFIED' })
    const low = observed('l', { severity: 'low' })
    const page = buildOverview(input([agent('a', [run('a1', 1, [fixed, low]), run('a2', 2, [observed('w')])])]))
    expect(page.weaknesses.map((w) => w.fingerprint)).toEqual(['l'])
    expect(page.agents[0]).toMatchObject({ standing: 'pass', worst: { severity: 'low' } })
  })

  it('draws the trend per day from each agent’s newest run by that day, and counts the assessments spent', () => {
    const page = buildOverview(input([agent('a', [run('a1', 5, [observed('x'), observed('y')]), run('a2', 1, [observed('x')])])]))
    expect(page.trend).toHaveLength(7)
    expect(page.trend.map((p) => p.open.high)).toEqual([0, 2, 2, 2, 2, 1, 1])
    expect(page.spent).toEqual({ assessments: 2, atLeast: false })
    expect(overviewMarkdown(page)).toContain('xychart-beta')
  })
})

describe('renderers', () => {
  it('escapes hostile service text in markdown, and JSON and text carry it as data', () => {
    const evil = '<img src=x onerror=alert(1)> @org/team #12 [x](https://evil.example) | cell'
    const page = buildOverview(input([agent(evil, [run('r1', 1, [observed('f', { description: evil, category: 'a|b' })])])]))
    const md = overviewMarkdown(page)
    expect(md).not.toContain('<img')
    expect(md).not.toContain('@org')
    expect(md).not.toContain('](https://')
    expect(md).not.toMatch(/[^\\]\| cell/)
    expect(JSON.parse(overviewJson(page)).agents[0].name).toBe(evil)
    expect(overviewText(page)).toContain('Workspace overview: Needs attention')
  })

  it('keeps 200 agents with many weaknesses within the issue body limit, failing agents and top risks first', () => {
    const agents = Array.from({ length: 200 }, (_, i) =>
      agent(`agent-${String(i).padStart(3, '0')} ${'long name '.repeat(6)}`, [
        run(`r${i}`, 1, [observed(`w${i}`, { description: 'd'.repeat(300), severity: i % 2 === 0 ? 'critical' : 'low' })])
      ])
    )
    const page = buildOverview(input(agents))
    const md = overviewMarkdown(page)
    expect(md.length).toBeLessThanOrEqual(OVERVIEW_MARKDOWN_MAX)
    expect(md).toMatch(/more weaknesses not shown here/)
    expect(page.agents[0].standing).toBe('fail')
    expect(md.includes('| critical |')).toBe(true)
    expect(md.includes('| low |') ? md.indexOf('| critical |') < md.indexOf('| low |') : true).toBe(true)
  })
})
