/**
 * Markdown to HTML the way github.com renders a comment or a job summary, close
 * enough to look at and to check: GFM (remark-gfm), raw HTML re-parsed
 * (rehype-raw) and cleaned with GitHub's sanitizer schema (rehype-sanitize's
 * default schema is GitHub's), then GitHub's post-filters that turn text into
 * links: @mentions, team mentions and issue references (#123, GH-123,
 * owner/repo#123), everywhere but inside code, pre and links. Bare URLs are
 * autolinked by remark-gfm, as GitHub does.
 *
 * Used by `npm run preview` (pages and screenshots) and by the tests that check
 * the HTML of the fixed report cases.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'

/** Width of the text of a PR comment on github.com (the timeline's comment body), in CSS pixels. */
export const COMMENT_WIDTH_PX = 815
/** Width of the page screenshots. */
export const VIEWPORT_PX = 900

// Minimal hast shapes (the packages' own types are not direct dependencies).
interface HText {
  type: 'text'
  value: string
}
interface HElement {
  type: 'element'
  tagName: string
  properties: Record<string, unknown>
  children: HNode[]
}
type HNode = HText | HElement | { type: string; children?: HNode[] }
interface HRoot {
  type: 'root'
  children: HNode[]
}

/** GitHub's mention and reference patterns (simplified from its html-pipeline filters). */
const LINKIFY =
  /(^|[^\w@/`])@([A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9][A-Za-z0-9-]*)?)|(^|[^\w/&#])#(\d+)\b|\b(GH-\d+)\b|\b([A-Za-z0-9][\w.-]*\/[\w.-]+#\d+)\b/g

const SKIP = new Set(['code', 'pre', 'a', 'kbd'])

function link(className: string, href: string, text: string): HElement {
  return { type: 'element', tagName: 'a', properties: { className: [className], href }, children: [{ type: 'text', value: text }] }
}

function linkifyText(value: string): HNode[] | null {
  const out: HNode[] = []
  let last = 0
  let found = false
  for (const m of value.matchAll(LINKIFY)) {
    found = true
    const start = m.index
    // Groups of the branches that did not match are undefined.
    const g: readonly (string | undefined)[] = m
    if (g[2] !== undefined) {
      const pre = g[1] ?? ''
      out.push({ type: 'text', value: value.slice(last, start) + pre })
      out.push(link('user-mention', `https://github.com/${g[2]}`, `@${g[2]}`))
    } else if (g[4] !== undefined) {
      const pre = g[3] ?? ''
      out.push({ type: 'text', value: value.slice(last, start) + pre })
      out.push(link('issue-link', `https://github.com/owner/repo/issues/${g[4]}`, `#${g[4]}`))
    } else {
      const ref = g[5] ?? g[6] ?? ''
      out.push({ type: 'text', value: value.slice(last, start) })
      out.push(link('issue-link', `https://github.com/issues/${encodeURIComponent(ref)}`, ref))
    }
    last = start + m[0].length
  }
  if (!found) return null
  out.push({ type: 'text', value: value.slice(last) })
  return out
}

function githubFilters(node: HNode): void {
  const children = (node as { children?: HNode[] }).children
  if (!children) return
  if (node.type === 'element' && SKIP.has((node as HElement).tagName)) return
  const next: HNode[] = []
  for (const child of children) {
    if (child.type === 'text') {
      const replaced = linkifyText((child as HText).value)
      if (replaced) next.push(...replaced)
      else next.push(child)
    } else {
      githubFilters(child)
      next.push(child)
    }
  }
  ;(node as { children: HNode[] }).children = next
}

function rehypeGithubFilters() {
  return (tree: HRoot): void => {
    githubFilters(tree)
  }
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, defaultSchema)
  .use(rehypeGithubFilters)
  .use(rehypeStringify)

/** The HTML github.com would show for `markdown` (the inside of `.markdown-body`). */
export function githubHtml(markdown: string): string {
  return String(processor.processSync(markdown))
}

export type { HElement, HNode, HRoot, HText }

/** The same as a tree (hast), for checks. */
export function githubTree(markdown: string): HRoot {
  return processor.runSync(processor.parse(markdown))
}

/** Every element of `tree`, depth first, with its ancestors' tag names. */
export function elements(tree: HRoot): { el: HElement; ancestors: string[] }[] {
  const out: { el: HElement; ancestors: string[] }[] = []
  const walk = (node: HNode, ancestors: string[]): void => {
    const el = node.type === 'element' ? (node as HElement) : null
    if (el) out.push({ el, ancestors })
    const next = el ? [...ancestors, el.tagName] : ancestors
    for (const child of (node as { children?: HNode[] }).children ?? []) walk(child, next)
  }
  walk(tree, [])
  return out
}

/** The text of a node, as a reader sees it. */
export function textOf(node: HNode): string {
  if (node.type === 'text') return (node as HText).value
  return ((node as { children?: HNode[] }).children ?? []).map(textOf).join('')
}

let css: string | null = null
/** GitHub's markdown stylesheet (light theme), from github-markdown-css. */
export function githubCss(): string {
  if (css === null) {
    const require = createRequire(import.meta.url)
    const pkg = require.resolve('github-markdown-css/package.json')
    css = readFileSync(pkg.replace(/package\.json$/, 'github-markdown-light.css'), 'utf8')
  }
  return css
}

/**
 * A page that frames `html` like a comment on a PR (a header line and a body
 * `COMMENT_WIDTH_PX` wide). A script writes what overflows sideways into
 * `#overflow` (read by the preview with --dump-dom); `?open=N` in the page's
 * URL opens its first N `<details>`.
 */
export function githubPage(html: string, title: string): string {
  const esc = title.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc}</title>
<style>${githubCss()}</style>
<style>
  html, body { margin: 0; background: #fff; }
  .frame { width: ${COMMENT_WIDTH_PX + 34}px; margin: 12px 0 12px 12px; border: 1px solid #d1d9e0; border-radius: 6px; }
  .hdr { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; color: #59636e;
         font: 14px -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; border-radius: 6px 6px 0 0; }
  .hdr b { color: #1f2328; }
  .markdown-body { padding: 16px; width: ${COMMENT_WIDTH_PX + 32}px; box-sizing: border-box; }
  #overflow { display: none; }
</style></head>
<body><div class="frame"><div class="hdr"><b>github-actions</b> bot commented · ${esc}</div>
<div class="markdown-body">
${html}
</div></div>
<pre id="overflow"></pre>
<script>
  const open = Number(new URLSearchParams(location.search).get('open') || 0);
  [...document.querySelectorAll('.markdown-body details')].slice(0, open).forEach((d) => { d.open = true; });
  const out = [];
  for (const el of document.querySelectorAll('.markdown-body table, .markdown-body pre')) {
    if (el.scrollWidth > el.clientWidth + 1) out.push(el.tagName.toLowerCase() + ' overflows by ' + (el.scrollWidth - el.clientWidth) + 'px: ' + el.textContent.slice(0, 60).replace(/\\s+/g, ' '));
  }
  out.push('height ' + Math.ceil(document.querySelector('.frame').getBoundingClientRect().bottom + 12));
  document.getElementById('overflow').textContent = out.join('\\n');
</script>
</body></html>
`
}
