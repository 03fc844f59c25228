/**
 * Untrusted text (from the service or the agent under test) made safe for
 * GitHub-flavoured markdown: the PR comment and the job summary.
 *
 * Strategy:
 * - Every untrusted value is shown as *code*: an inline code span, a fenced code
 *   block, or `<code>` inside a `<summary>`. GitHub renders nothing inside code:
 *   no HTML, no markdown, no links, no images, and its post-filters (@mentions,
 *   team mentions, #issue references, commit links, emoji) skip code elements.
 *   Fences are longer than any backtick run in the text, so the text cannot
 *   close them; inline text has no line breaks, so it cannot leave its paragraph
 *   or table row; table cells escape `|` (the GFM way, `\|`, also inside code).
 * - The few free-text lines the gate writes that may quote untrusted parts (the
 *   reason, notes) go through `proseText`: HTML-escaped, markdown punctuation
 *   backslash-escaped, `@` replaced by its full-width form and `#<digits>` put in
 *   a code span (an entity or a backslash would still render as a working mention
 *   or reference; a code span is skipped by GitHub's linking and renders in every
 *   font), URLs defanged.
 * - Before any of that, `sanitizeText` normalises line breaks and shows
 *   control, bidi, zero-width, tag and other invisible characters (and lone
 *   surrogates) by name, e.g. `⟨U+202E⟩`: the reader sees what was there, and
 *   the character itself never reaches the output. Everything is clamped in length first, so a
 *   megabyte reply costs no more than its clamp.
 */

/** Line breaks of every kind, normalised to \n. */
const LINE_BREAKS = /\r\n|[\r\u0085\u2028\u2029\u000B\u000C]/g

/**
 * Characters that never reach the output: C0/C1 controls (but \n and \t, handled
 * apart), soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul
 * fillers, Khmer invisible vowels, Mongolian selectors, zero-width and bidi
 * controls, invisible operators, BOM, interlinear annotations, non-characters,
 * lone surrogates, Unicode tag characters and supplementary variation selectors
 * (both used to smuggle invisible text), musical formatting controls.
 */
const UNSAFE_CHARS =
  // eslint-disable-next-line no-misleading-character-class -- each escape is one code point to strip on its own (the marks included), not a grapheme
  /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\uFFFE\uFFFF\uD800-\uDFFF\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u{1D173}-\u{1D17A}]+/gu

/** Runs of more than four combining marks ("zalgo" text) are cut to four. */
const COMBINING_PILE = /(\p{M}{4})\p{M}+/gu

/** Invisible characters named in a row at most; the rest of the run is counted. */
const NAMED_PER_RUN = 4

/** `⟨U+202E⟩` for each character of a run of invisible ones (at most four named, then a count). */
export function nameInvisible(run: string): string {
  const units: string[] = []
  for (const ch of run) units.push(ch)
  const named = units.slice(0, NAMED_PER_RUN).map((ch) => `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`)
  const more = units.length - named.length
  return named.join('') + (more > 0 ? `⟨+${more} more⟩` : '')
}

/** Used by tests: a character the output must never contain. */
export const FORBIDDEN_OUTPUT_CHARS = new RegExp(UNSAFE_CHARS.source.replace(/\+$/, ''), 'u')

/**
 * Normalises line breaks and shows unsafe characters by name (`⟨U+202E⟩`).
 * `multiline` keeps \n (tabs become four spaces); otherwise every line break
 * becomes a space (tabs one space).
 */
export function sanitizeText(text: string, multiline: boolean): string {
  let s = text.replace(LINE_BREAKS, '\n')
  s = s.replace(/\t/g, multiline ? '    ' : ' ')
  s = s.replace(UNSAFE_CHARS, nameInvisible)
  s = s.replace(COMBINING_PILE, '$1')
  if (!multiline) s = s.replace(/\n+/g, ' ')
  return s
}

export interface Clamped {
  text: string
  /** How many UTF-16 code units were cut (0 when none). */
  cut: number
}

/** At most `max` code units, never splitting a surrogate pair. */
export function clampText(text: string, max: number): Clamped {
  if (text.length <= max) return { text, cut: 0 }
  let end = Math.max(0, Math.floor(max))
  if (end > 0) {
    const c = text.charCodeAt(end - 1)
    if (c >= 0xd800 && c <= 0xdbff) end -= 1
  }
  return { text: text.slice(0, end), cut: text.length - end }
}

/** Length of the longest run of `ch` in `text`. */
export function longestRun(text: string, ch: string): number {
  let best = 0
  let cur = 0
  // by code point; `ch` is one code unit (a backtick), so a surrogate pair is one non-match either way
  for (const c of text) {
    if (c === ch) {
      cur += 1
      if (cur > best) best = cur
    } else {
      cur = 0
    }
  }
  return best
}

/** "1,234" */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '?'
  return Math.trunc(n).toLocaleString('en-US')
}

function cutNote(cut: number): string {
  return cut > 0 ? ` …(+${formatCount(cut)} characters)` : ''
}

export interface CodeSpanOptions {
  /** Clamp before anything else (default 200). */
  max?: number
  /** Inside a GFM table cell: `|` is escaped as `\|` (GFM strips the backslash, also in code). */
  table?: boolean
}

/**
 * An inline code span holding `text` literally (after sanitising). Empty text
 * becomes an italic "(empty)". A clamped text is followed by a trusted note of
 * how much was cut.
 */
export function codeSpan(text: string, opts: CodeSpanOptions = {}): string {
  const { text: clamped, cut } = clampText(text, opts.max ?? 200)
  let s = sanitizeText(clamped, false)
  if (s.length === 0) return cut > 0 ? `*(blank)*${cutNote(cut)}` : '*(empty)*'
  if (opts.table) s = s.replace(/\|/g, '\\|')
  const fence = '`'.repeat(longestRun(s, '`') + 1)
  // CommonMark strips one space at each end when both ends are spaces (unless all
  // are): pad then, and when the text touches the fence with a backtick.
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ') && s.trim() !== '') ? ' ' : ''
  return `${fence}${pad}${s}${pad}${fence}${cutNote(cut)}`
}

export interface CodeBlockOptions {
  /** Clamp of the whole text, before anything else. */
  maxChars: number
  /** Clamp of each line (huge single-line replies). */
  maxLineChars: number
  /** Clamp of the number of lines. */
  maxLines?: number
}

/**
 * A fenced code block holding `text` literally (after sanitising), with a
 * backtick fence longer than any backtick run inside (at least three), so no
 * line of the text can close it. Must be placed at the top level of the
 * document (not in a list or blockquote). Ends with its closing fence; a
 * trusted note follows when something was cut.
 */
export function codeBlock(text: string, opts: CodeBlockOptions): string {
  const { text: clamped, cut } = clampText(text, opts.maxChars)
  const lines = sanitizeText(clamped, true).split('\n')
  const maxLines = opts.maxLines ?? Number.POSITIVE_INFINITY
  let linesCut = 0
  if (lines.length > maxLines) {
    linesCut = lines.length - maxLines
    lines.length = maxLines
  }
  let charsCutInLines = 0
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (line.length > opts.maxLineChars) {
      const c = clampText(line, opts.maxLineChars)
      charsCutInLines += c.cut
      lines[i] = `${c.text} …`
    }
  }
  const body = lines.join('\n')
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1))
  const notes: string[] = []
  const count = (n: number, one: string): string => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`
  if (cut > 0) notes.push(count(cut, 'more character'))
  if (linesCut > 0) notes.push(count(linesCut, 'more line'))
  if (charsCutInLines > 0) notes.push(`${count(charsCutInLines, 'character')} of long lines`)
  const tail = notes.length > 0 ? `\n\n*Cut: ${notes.join(', ')}.*` : ''
  return `${fence}text\n${body}\n${fence}${tail}`
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML element content or attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c])
}

/**
 * Untrusted text inside raw HTML (a `<summary>` line): one line, HTML-escaped,
 * wrapped in `<code>` so GitHub's mention and reference filters skip it.
 */
export function htmlCode(text: string, max = 120): string {
  const { text: clamped, cut } = clampText(text, max)
  const s = sanitizeText(clamped, false)
  if (s.length === 0) return '<i>(empty)</i>'
  // Markdown punctuation as numeric entities too: nothing in it can form a link,
  // image, emphasis or escape, however the line is read.
  const inert = escapeHtml(s).replace(/[[\]()\\*_~`!:]/g, (c) => `&#${c.charCodeAt(0)};`)
  return `<code>${inert}</code>${cut > 0 ? ' …' : ''}`
}

const PROSE_SPECIAL = /[\\`*_{}[\]()#+\-=!|~<>&$^@%]|(?<=[0-9])\./g

/**
 * Free text that may quote untrusted parts, for a paragraph or list item: one
 * line; HTML-escaped; ASCII markdown punctuation backslash-escaped; `@` as the
 * full-width `＠`, `#<digits>` as a code span (`` `#12` ``) and `GH-` before a digit as `GH‑`
 * (GitHub links mentions and issue references in the rendered text, where an
 * entity or a backslash is already gone); `scheme://` and `www.` defanged to `scheme[:]//` and `www[.]`; `$`
 * escaped (GitHub math); `%` escaped and `&` before a digit `\&` (GitLab's milestone and epic references,
 * which GitLab skips when backslash-escaped). Block markers (`#`, `-`, `+`, `=`, `1.`) are escaped
 * too, so the text may start a list item.
 */
export function proseText(text: string, max = 1000): string {
  const { text: clamped, cut } = clampText(text, max)
  let s = sanitizeText(clamped, false)
  s = s.replace(/([A-Za-z][A-Za-z0-9+.-]*):\/\//g, '$1[:]//').replace(/www\./gi, (m) => `${m.slice(0, 3)}[.]`)
  s = s.replace(/\b(GH)-(?=[0-9])/gi, '$1\u2011')
  s = s.replace(PROSE_SPECIAL, (c, at: number, whole: string) => {
    switch (c) {
      case '&':
        // GitLab links `&7` (an epic) in the text an entity leaves; it reads a backslash-escaped `&` as a literal.
        return /[0-9]/.test(whole.charAt(at + 1)) ? '\\&' : '&amp;'
      case '<':
        return '&lt;'
      case '>':
        return '&gt;'
      case '@':
        return '\uFF20'
      default:
        return `\\${c}`
    }
  })
  // After the escapes: a reference in a code span, which GitHub's linking skips (no escape survives rendering).
  s = s.replace(/\\#([0-9]+)/g, '`#$1`')
  return s + (cut > 0 ? ' …' : '')
}

/**
 * A value that should be one of `allowed` (an enum of the contract): shown
 * plainly when it is, as a code span otherwise (the type says enum, the wire
 * may still have said anything).
 */
export function enumText(value: string | null | undefined, allowed: readonly string[]): string {
  if (value === null || value === undefined) return '–'
  return allowed.includes(value) ? value : codeSpan(value, { max: 40 })
}

/** Same as `enumText`, for a table cell. */
export function enumCell(value: string | null | undefined, allowed: readonly string[]): string {
  if (value === null || value === undefined) return '–'
  return allowed.includes(value) ? value : codeSpan(value, { max: 40, table: true })
}

/** A link the gate builds itself (e.g. the workflow run): only plain http(s) URLs, else nothing. */
export function trustedLink(label: string, url: string | null | undefined): string | null {
  if (!url || url.length > 2000 || !/^https?:\/\/[^\s<>()[\]`"'\\]+$/.test(url)) return null
  return `[${label.replace(/[[\]\\]/g, '')}](${url})`
}

/**
 * Hard-wraps one line at `width` code units, at the last space in the last
 * quarter of the width when there is one, never splitting a surrogate pair.
 */
export function wrapLine(line: string, width: number): string[] {
  if (width <= 0 || line.length <= width) return [line]
  const out: string[] = []
  let rest = line
  while (rest.length > width) {
    let cut = rest.lastIndexOf(' ', width)
    if (cut < width * 0.75) cut = width
    const c = rest.charCodeAt(cut - 1)
    if (cut === width && c >= 0xd800 && c <= 0xdbff) cut -= 1
    out.push(rest.slice(0, cut).trimEnd())
    rest = rest.slice(cut).replace(/^ /, '')
  }
  if (rest.length > 0) out.push(rest)
  return out
}

export interface ProofSection {
  /** Trusted label, e.g. "→ prompt". */
  label: string
  /** Untrusted text (sanitised, clamped, wrapped here). */
  text: string
}

export interface ProofOptions {
  /** Wrap width of every line, label and indent included. */
  width: number
  /** Characters of each text kept at most (before wrapping). */
  maxChars: number
  /** Wrapped lines of each text kept at most. */
  maxLines: number
}

/**
 * One fenced code block holding labelled sections (prompt, reply, check...),
 * each text sanitised, hard-wrapped so no line is wider than `width` (nothing
 * scrolls sideways) and clamped, with what was cut said inside the block. The
 * fence is longer than any backtick run inside. Must be placed at the top
 * level of the document (or inside a <details> after a blank line).
 */
export function proofBlock(sections: readonly ProofSection[], opts: ProofOptions): string {
  const indent = '  '
  const lines: string[] = []
  sections.forEach((sec, i) => {
    if (i > 0) lines.push('')
    lines.push(...wrapLine(sanitizeText(sec.label, false), opts.width))
    const { text, cut } = clampText(sec.text, opts.maxChars)
    const wrapped = sanitizeText(text, true)
      .split('\n')
      .flatMap((l) => wrapLine(l.trimEnd(), opts.width - indent.length))
    let shown = wrapped
    let linesCut = 0
    if (wrapped.length > opts.maxLines) {
      shown = wrapped.slice(0, opts.maxLines)
      linesCut = wrapped.length - opts.maxLines
    }
    for (const l of shown) lines.push(l === '' ? '' : indent + l)
    const notes: string[] = []
    if (linesCut > 0) notes.push(`${formatCount(linesCut)} more line${linesCut === 1 ? '' : 's'}`)
    if (cut > 0) notes.push(`${formatCount(cut)} more character${cut === 1 ? '' : 's'}`)
    if (notes.length > 0) lines.push(`${indent}… (${notes.join(', ')} in the full data)`)
  })
  const body = lines.join('\n')
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1))
  return `${fence}text\n${body}\n${fence}`
}
