/**
 * The fixed report cases (the ones `npm run preview` screenshots) rendered to
 * HTML as github.com renders them, and checked as a reader would meet them.
 * CI has no browser: these checks stand in for looking at the screenshots.
 */
import { describe, expect, it } from '@jest/globals'
import { elements, githubHtml, githubTree, textOf, type HElement } from '../__fixtures__/github-html.js'
import { CASE_RUN_URL, REPORT_CASES } from '../__fixtures__/report-cases.js'

const pages = REPORT_CASES.flatMap((c) => {
  const r = c.render()
  return [
    ['comment', c, r.comment],
    ['summary', c, r.summary]
  ] as const
}).filter((p): p is readonly ['comment' | 'summary', (typeof REPORT_CASES)[number], string] => p[2] !== null)

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

  it("sanitizes as GitHub does: scripts and event handlers go, details and summary stay", () => {
    const html = githubHtml('<details><summary>s</summary>\n\nx <script>alert(1)</script><img src=x onerror=alert(1)>\n\n</details>')
    expect(html).toContain('<details>')
    expect(html).toContain('<summary>s</summary>')
    expect(html).not.toContain('<script')
    expect(html).not.toContain('onerror')
  })
})

describe.each(pages.map(([kind, c, md]) => [`${c.name} ${kind}`, kind, c, md] as const))('%s', (_label, _kind, c, md) => {
  it('has no link but the ones the gate built (no mention, reference or service URL goes live)', () => {
    const bad = links(md).filter((href) => href !== CASE_RUN_URL && !href.startsWith('#'))
    expect(bad).toEqual([])
  })

  it('renders no image, no bold or emphasis inside quoted text, and no open <details>', () => {
    const all = elements(tree(md))
    expect(all.filter(({ el }) => el.tagName === 'img')).toEqual([])
    expect(all.filter(({ el }) => el.tagName === 'details' && el.properties.open !== undefined && el.properties.open !== false)).toEqual([])
    if (c.hostile) {
      const bold = all.filter(({ el }) => ['strong', 'b', 'em'].includes(el.tagName) && /bold|approve/.test(textOf(el as HElement)))
      expect(bold).toEqual([])
    }
  })
})
