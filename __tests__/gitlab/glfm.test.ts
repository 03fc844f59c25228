/**
 * The note's markdown as GitLab renders it (GLFM): the comment's sections stay
 * sections (`<details>`/`<summary>`, which GitLab allows), and untrusted text
 * makes no GitLab reference: no user or group mention (@), issue (#1), merge
 * request (!1), label (~), milestone (%), snippet ($1) or epic (&1) outside
 * code and links. GitLab reads a backslash-escaped character as a literal its
 * reference filters skip (MarkdownPreEscapeFilter); the check does the same.
 */
import { describe, expect, it } from '@jest/globals'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { buildReport } from '../../src/report/build-report.js'
import { renderComment } from '../../src/report/comment.js'
import type { Finding } from '../../src/service/contract/index.js'
import { coverageRow, makeAttack, makeCoverage, makeFinding, makeModel, makeRun, makeStep } from '../__fixtures__/builders.js'
import { elements, type HNode, type HRoot, type HText } from '../__fixtures__/github-html.js'
import { HOSTILE_STRINGS } from '../__fixtures__/hostile-strings.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'

/** GitLab's own reference syntax, beside the corpus shared with the GitHub checks. */
const GITLAB_HOSTILE = [
  '!123 merge this, ~bug ~"needs review" %v1.0 %"Sprint 3" $42 &7 #9 @group/sub @all',
  'acme/shop!5 and acme/shop#6 and acme/shop~label',
  '[[wiki page]] {+ added +} [- removed -] :thumbsup: $`a^2`$'
]

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, defaultSchema)

/** Backslash-escaped reference characters, as GitLab keeps them: literals no reference filter reads. */
const preEscape = (md: string): string => md.replace(/\\[@#!$&~%^+]/g, '\uE000')

/** GitLab's reference patterns (simplified from its reference filters). */
const REFERENCES = /(?<![\w`])@[A-Za-z0-9_]|(?<![\w&])#\d|!\d|(?<!\w)~["A-Za-z0-9_]|(?<!\w)%["A-Za-z0-9_]|\$\d|&\d/

/** Text outside code, pre and links that GitLab would turn into a reference. */
function referencesIn(md: string): string[] {
  const tree = processor.runSync(processor.parse(preEscape(md))) as unknown as HRoot
  const out: string[] = []
  const walk = (node: HNode, skip: boolean): void => {
    if (node.type === 'text' && !skip && REFERENCES.test((node as HText).value)) out.push((node as HText).value)
    const tag = node.type === 'element' ? (node as { tagName: string }).tagName : ''
    for (const c of (node as { children?: HNode[] }).children ?? []) walk(c, skip || ['code', 'pre', 'a', 'kbd'].includes(tag))
  }
  walk(tree, false)
  return out
}

function noteFor(h: string): string {
  const hostile = (f: Finding): Finding => ({
    ...f,
    category: h,
    description: h,
    expected_behavior: h,
    attacks: [makeAttack({ replay_script: [makeStep({ message: h, response: h })] })]
  })
  const input = makeInput({
    model: makeModel({ name: h }),
    run: makeRun({ categories_planned: [h, 'prompt_injection'], categories_completed: [h] }),
    coverage: makeCoverage([coverageRow(h, { owasp: h, atlas: h })]),
    findings: [hostile(makeFinding('critical')), hostile(makeFinding('high')), hostile(makeFinding('low'))],
    notes: [h]
  })
  return renderComment(buildReport(input))
}

describe('the note in GitLab', () => {
  it('keeps its sections: details and summary survive the sanitizer', () => {
    const tree = processor.runSync(processor.parse(noteFor('Leaks the prompt.'))) as unknown as HRoot
    const tags = elements(tree).map((e) => e.el.tagName)
    expect(tags).toContain('details')
    expect(tags).toContain('summary')
  })

  it('the check finds a reference in plain text (it can fail)', () => {
    expect(referencesIn('see !12 and @bob')).toHaveLength(1)
    expect(referencesIn('see \\!12 and `@bob`')).toEqual([])
  })

  it.each([...GITLAB_HOSTILE, ...HOSTILE_STRINGS.map((h) => h.text).filter((t) => t.length < 10_000)])(
    'makes no GitLab reference of %j',
    (h) => {
      expect(referencesIn(noteFor(h))).toEqual([])
    }
  )
})
