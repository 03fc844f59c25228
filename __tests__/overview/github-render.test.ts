/** The overview's markdown as github.com renders it: hostile service text stays text, the trend stays a Mermaid block. */
import { describe, expect, it } from '@jest/globals'
import { buildOverview } from '../../src/overview/engine.js'
import { overviewMarkdown } from '../../src/overview/markdown.js'
import type { AgentRead } from '../../src/overview/page-model.js'
import { elements, githubTree, textOf } from '../__fixtures__/github-html.js'
import { observed } from '../__fixtures__/observed.js'

const NOW = Date.parse('2026-12-05T12:00:00Z')
const EVIL = '@octo-org/security #12 GH-7 [click](https://evil.example) <img src=x onerror=alert(1)> **bold** | pipe'

function agent(name: string, daysAgo: number[]): AgentRead {
  const runs = daysAgo.map((d, i) => ({
    runId: `run_${name.length}_${i}`,
    completedAt: new Date(NOW - d * 86_400_000).toISOString(),
    categoriesCompleted: ['jailbreak'],
    findings: [observed(`${name}-w`, { description: EVIL, category: EVIL })],
    provenance: 'service-list' as const
  }))
  return {
    modelId: `mdl_${name.length}`,
    name,
    lastCompletedAt: runs[0].completedAt,
    runsInWindow: runs.length,
    moreThanListed: false,
    runs,
    unreadable: []
  }
}

function isMermaid(className: unknown): boolean {
  return Array.isArray(className) && className.includes('language-mermaid')
}

describe('the overview rendered as github.com does', () => {
  const md = overviewMarkdown(
    buildOverview({ now: NOW, maxAgeDays: 7, minSeverity: 'high', categories: [], agents: [agent(EVIL, [1, 2, 3]), agent('plain', [1])] })
  )
  const tree = githubTree(md)
  const all = elements(tree)

  it('makes no link, mention, reference, image or emphasis of service text', () => {
    expect(all.filter(({ el }) => el.tagName === 'a')).toEqual([])
    expect(all.filter(({ el }) => el.tagName === 'img')).toEqual([])
    expect(all.filter(({ el }) => el.tagName === 'strong' && textOf(el).includes('bold'))).toEqual([])
    expect(textOf(tree)).toContain('https://evil.example'.replace('://', '[:]//'))
  })

  it('keeps every table row whole (a pipe in service text splits no cell) and the trend a Mermaid block', () => {
    const rows = all.filter(({ el }) => el.tagName === 'tr').map(({ el }) => el.children.filter((c) => c.type === 'element').length)
    expect(new Set(rows.slice(0, 3))).toEqual(new Set([5]))
    const mermaid = all.filter(({ el }) => el.tagName === 'code' && isMermaid(el.properties.className))
    expect(mermaid).toHaveLength(1)
    expect(textOf(mermaid[0].el)).toMatch(/^xychart-beta\n/)
  })
})
