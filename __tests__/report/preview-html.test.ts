/**
 * The fixed report cases (the ones `npm run preview` screenshots) rendered to
 * HTML as github.com renders them, and checked as a reader would meet them.
 * CI has no browser: these checks stand in for looking at the screenshots.
 */
import { describe, expect, it } from '@jest/globals'
import { elements, githubHtml, githubTree, textOf, type HElement } from '../__fixtures__/github-html.js'
import { CASE_RUN_URL, REPORT_CASES as GATE_CASES } from '../__fixtures__/report-cases.js'
import { CASE_RECORD_URL, PIPELINE_CASES } from '../__fixtures__/pipeline-cases.js'
import { EVIDENCE_CASES } from '../__fixtures__/evidence-cases.js'

const REPORT_CASES = [...GATE_CASES, ...EVIDENCE_CASES, ...PIPELINE_CASES]
import { WRAP_WIDTH } from '../../src/report/markdown-profile.js'

/**
 * The pages a case renders (its comment, when it has one, and its summary), rendered in the test that reads them:
 * never at import, so that a mutant of the code behind a case is run only by the tests that read it.
 */
const rendered = new Map<string, string[]>()
function pagesOf(c: (typeof REPORT_CASES)[number]): string[] {
  let pages = rendered.get(c.name)
  if (!pages) {
    const r = c.render()
    pages = [r.comment, r.summary].filter((md): md is string => md !== null)
    rendered.set(c.name, pages)
  }
  return pages
}

const trees = new Map<string, ReturnType<typeof githubTree>>()
/** The rendered tree of `md`, parsed once (the huge case takes seconds). */
function tree(md: string): ReturnType<typeof githubTree> {
  let t = trees.get(md)
  if (!t) {
    t = githubTree(md)
    trees.set(md, t)
  }
  return t
}

/** Links a reader could follow: only the ones the gate built itself. */
function links(md: string): string[] {
  return elements(tree(md))
    .filter(({ el }) => el.tagName === 'a' && typeof el.properties.href === 'string')
    .map(({ el }) => el.properties.href as string)
}

describe('the github.com model used by the preview', () => {
  it('links mentions, issue references and bare URLs in text, and not in code', () => {
    const html = githubHtml('hi @octocat see #12 and https://evil.example/x\n\n`@octocat #12 https://evil.example/x`')
    expect(html).toContain('<a class="user-mention" href="https://github.com/octocat">@octocat</a>')
    expect(html).toContain('<a class="issue-link" href="https://github.com/owner/repo/issues/12">#12</a>')
    expect(html).toContain('<a href="https://evil.example/x">')
    expect(html).toContain('<code>@octocat #12 https://evil.example/x</code>')
  })

  it('sanitizes as GitHub does: scripts and event handlers go, details and summary stay', () => {
    const html = githubHtml('<details><summary>s</summary>\n\nx <script>alert(1)</script><img src=x onerror=alert(1)>\n\n</details>')
    expect(html).toContain('<details>')
    expect(html).toContain('<summary>s</summary>')
    expect(html).not.toContain('<script')
    expect(html).not.toContain('onerror')
  })
})

describe.each(REPORT_CASES.map((c) => [c.name, c] as const))('%s: its comment and summary', (_name, c) => {
  it('has no link but the ones the gate built (no mention, reference or service URL goes live)', () => {
    for (const md of pagesOf(c)) {
      const bad = links(md).filter((href) => href !== CASE_RUN_URL && href !== CASE_RECORD_URL && !href.startsWith('#'))
      expect(bad).toEqual([])
    }
  })

  it('renders no image, no bold or emphasis inside quoted text, and no open <details>', () => {
    for (const md of pagesOf(c)) {
      const all = elements(tree(md))
      expect(all.filter(({ el }) => el.tagName === 'img')).toEqual([])
      expect(all.filter(({ el }) => el.tagName === 'details' && el.properties.open !== undefined && el.properties.open !== false)).toEqual(
        []
      )
      if (c.hostile) {
        const bold = all.filter(({ el }) => ['strong', 'b', 'em'].includes(el.tagName) && /bold|approve/.test(textOf(el)))
        expect(bold).toEqual([])
      }
    }
  })

  it('starts with the headline: the result and its cause before anything else', () => {
    for (const md of pagesOf(c)) {
      const first = tree(md).children.find((n) => n.type === 'element') as HElement
      expect(first.tagName).toBe('h3')
      const text = textOf(first)
      const expected = {
        pass: /^✅ Agent security (gate|validation): pass · /,
        fail: /^❌ Agent security (gate|validation): fail · /,
        incomplete: /^⚠️ Agent security gate: incomplete · /,
        error: /^⛔ Not assessed: /,
        skipped: /^⏭️ Agent security gate: skipped · /,
        pending: /^⏳ Agent security gate: pending · /
      }[c.result]
      expect(text).toMatch(expected)
      // Never "pass" wording under an error or an incomplete result (the replaced result may be named as such).
      const own = md.replace(/^\*\*The previous result no longer applies:\*\*.*$/m, '')
      if (c.result === 'error' || c.result === 'incomplete') expect(textOf(githubTree(own) as never)).not.toMatch(/\bpass\b/i)
    }
  })

  it('has no table wider than five columns', () => {
    for (const md of pagesOf(c)) {
      for (const { el } of elements(tree(md)).filter(({ el }) => el.tagName === 'tr')) {
        expect(el.children.filter((ch) => ch.type === 'element').length).toBeLessThanOrEqual(5)
      }
    }
  })

  it(`has no line in a code block wider than ${WRAP_WIDTH} characters (nothing scrolls sideways)`, () => {
    for (const md of pagesOf(c)) {
      const long = elements(tree(md))
        .filter(({ el }) => el.tagName === 'pre')
        .flatMap(({ el }) => textOf(el).split('\n'))
        .filter((line) => Array.from(line).length > WRAP_WIDTH) // in code points
      expect(long).toEqual([])
    }
  })

  it('names every blocking finding at least by a one-line row', () => {
    for (const md of pagesOf(c)) {
      const text = textOf(tree(md))
      const missing = c.blockingIds.filter((id) => !text.includes(id))
      expect(missing).toEqual([])
    }
  })
})

describe('the huge case', () => {
  const huge = REPORT_CASES.find((c) => c.name === 'huge')
  it('has 352 blocking findings, each named in the comment, ten of them with proof', () => {
    const md = huge?.render().comment ?? ''
    expect(huge?.blockingIds).toHaveLength(352)
    expect(md.length).toBeLessThanOrEqual(65536)
    // One fold of everything under the header, holding one <details> per finding with proof.
    const details = elements(tree(md)).filter(({ el }) => el.tagName === 'details')
    expect(details.filter(({ ancestors }) => ancestors.length === 0)).toHaveLength(1)
    expect(details.filter(({ ancestors }) => ancestors.includes('details'))).toHaveLength(10)
  })
})
