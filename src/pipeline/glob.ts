/**
 * Glob patterns of repository paths, matched in time linear in the path: a
 * pattern is compiled to a nondeterministic automaton whose states are
 * stepped together, one character of the path at a time (never a
 * backtracking regular expression, which a pattern like `**\/a/**\/a/**\/b`
 * drives into exponential work). Pure.
 *
 * The syntax (POSIX paths, case-sensitive, dotfiles matched like any file):
 * - `*` any characters but `/` (none included); `?` one character but `/`;
 * - `**` as a whole path segment: any number of segments, none included
 *   (`a/**\/b` matches `a/b` and `a/x/y/b`); a trailing `/**` matches the
 *   folder and everything under it; `**` inside a segment is `*`;
 * - `[abc]`, `[a-z]`, `[!a]` / `[^a]`: one character (never `/`) of a class;
 * - `{a,b}` one of the alternatives (nested braces too); a brace without a
 *   comma is literal;
 * - `\x` the character x.
 * Refused (GlobError, the reason said): extglobs (`@(...)`, `!(...)`,
 * `+(...)`, `*(...)`, `?(...)`), POSIX classes (`[[:alpha:]]`) and brace
 * ranges (`{1..3}`).
 */

export class GlobError extends Error {}

/** One character of the path passes a test; `/` only a literal `/`. */
type CharTest = (code: number) => boolean

interface Edge {
  test: CharTest | null
  to: number
}

/** The automaton: edges per state (test null: an epsilon move), the start and the one accepting state. */
interface Nfa {
  edges: Edge[][]
  start: number
  accept: number
}

type Node = { kind: 'char'; test: CharTest } | { kind: 'star' } | { kind: 'globstar' } | { kind: 'alt'; options: Node[][] }

const SLASH = 0x2f
const notSlash: CharTest = (c) => c !== SLASH
const anyChar: CharTest = () => true

class Parser {
  private i = 0
  /** Where a `{` was found to be literal: it is not parsed again, so nested braces parse in linear time, not exponential. */
  private readonly literalBraces = new Set<number>()
  constructor(private readonly src: string) {}

  /** A sequence up to the end, or (inside braces) up to `,` or `}`. */
  seq(inBraces: boolean): Node[] {
    const out: Node[] = []
    while (this.i < this.src.length) {
      const ch = this.src[this.i]
      if (inBraces && (ch === ',' || ch === '}')) break
      out.push(this.item(out, inBraces))
    }
    return out
  }

  private item(before: Node[], inBraces: boolean): Node {
    const s = this.src
    const ch = s[this.i]
    if ('@!+*?'.includes(ch) && s[this.i + 1] === '(')
      throw new GlobError(`extglobs like ${ch}(...) are not supported: use {a,b} or one pattern per line`)
    if (ch === '\\' && this.i + 1 < s.length) {
      this.i += 2
      return literal(s.charCodeAt(this.i - 1))
    }
    if (ch === '*') return this.stars(before, inBraces)
    if (ch === '?') {
      this.i++
      return { kind: 'char', test: notSlash }
    }
    if (ch === '[') {
      const cls = this.charClass()
      if (cls) return cls
    }
    if (ch === '{') {
      const alt = this.braces()
      if (alt) return alt
    }
    this.i++
    return literal(s.charCodeAt(this.i - 1))
  }

  private stars(before: Node[], inBraces: boolean): Node {
    let n = 0
    while (this.src[this.i] === '*') {
      this.i++
      n++
    }
    const next = this.src.charAt(this.i)
    if (next === '(') throw new GlobError('extglobs like *(...) are not supported: use {a,b} or one pattern per line')
    const last = before.at(-1)
    const segmentStart = last === undefined || (last.kind === 'char' && last.test === slashTest)
    const segmentEnd = next === '' || next === '/' || (inBraces && (next === ',' || next === '}'))
    return n >= 2 && segmentStart && segmentEnd ? { kind: 'globstar' } : { kind: 'star' }
  }

  /** `[...]`; null when there is no closing `]` (the `[` is then literal). */
  private charClass(): Node | null {
    const s = this.src
    let j = this.i + 1
    const negated = s[j] === '!' || s[j] === '^'
    if (negated) j++
    if (s.startsWith('[:', j)) throw new GlobError('POSIX classes like [[:alpha:]] are not supported: list the characters, e.g. [a-zA-Z]')
    const ranges: [number, number][] = []
    let first = true
    while (j < s.length && (s[j] !== ']' || first)) {
      first = false
      let lo = s.charCodeAt(j)
      if (s[j] === '\\' && j + 1 < s.length) lo = s.charCodeAt(++j)
      j++
      let hi = lo
      if (s[j] === '-' && j + 1 < s.length && s[j + 1] !== ']') {
        hi = s[j + 1] === '\\' && j + 2 < s.length ? s.charCodeAt(j + 2) : s.charCodeAt(j + 1)
        j += s[j + 1] === '\\' ? 3 : 2
      }
      ranges.push([Math.min(lo, hi), Math.max(lo, hi)])
    }
    if (j >= s.length) return null
    this.i = j + 1
    const inClass = (c: number): boolean => ranges.some(([lo, hi]) => c >= lo && c <= hi)
    return { kind: 'char', test: (c) => c !== SLASH && inClass(c) !== negated }
  }

  /** `{a,b,...}`; null when the brace has no top-level comma or no closing `}` (it is then literal). */
  private braces(): Node | null {
    const start = this.i
    if (this.literalBraces.has(start)) return null
    this.i++
    const options: Node[][] = [this.seq(true)]
    while (this.src[this.i] === ',') {
      this.i++
      options.push(this.seq(true))
    }
    if (this.src[this.i] !== '}' || options.length < 2) {
      if (/^\{[^{},]*\.\.[^{},]*\}/.test(this.src.slice(start))) {
        throw new GlobError('brace ranges like {1..3} are not supported: list the values, e.g. {1,2,3}')
      }
      this.literalBraces.add(start)
      this.i = start
      return null
    }
    this.i++
    return { kind: 'alt', options }
  }
}

const slashTest: CharTest = (c) => c === SLASH
function literal(code: number): Node {
  return { kind: 'char', test: code === SLASH ? slashTest : (c) => c === code }
}

class Builder {
  readonly edges: Edge[][] = []
  state(): number {
    this.edges.push([])
    return this.edges.length - 1
  }
  edge(from: number, test: CharTest | null, to: number): void {
    this.edges[from].push({ test, to })
  }

  /** Builds `nodes` from state `from`; returns the state reached at their end. */
  seq(nodes: Node[], from: number): number {
    let at = from
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k]
      const next = nodes.at(k + 1)
      if (node.kind === 'globstar' && next?.kind === 'char' && next.test === slashTest) {
        at = this.globstarSlash(at)
        k++
      } else if (node.kind === 'char' && node.test === slashTest && next?.kind === 'globstar' && k + 2 === nodes.length) {
        at = this.trailingGlobstar(at)
        k++
      } else at = this.node(node, at)
    }
    return at
  }

  private node(node: Node, from: number): number {
    const to = this.state()
    switch (node.kind) {
      case 'char':
        this.edge(from, node.test, to)
        break
      case 'star':
        this.edge(from, notSlash, from)
        this.edge(from, null, to)
        break
      case 'globstar':
        this.edge(from, anyChar, from)
        this.edge(from, null, to)
        break
      case 'alt':
        for (const option of node.options) this.edge(this.seq(option, from), null, to)
        break
    }
    return to
  }

  /** `**\/`: nothing, or any text that ends with `/`. */
  private globstarSlash(from: number): number {
    const inside = this.state()
    const to = this.state()
    this.edge(from, null, to)
    this.edge(from, anyChar, inside)
    this.edge(inside, anyChar, inside)
    this.edge(inside, slashTest, to)
    return to
  }

  /** A trailing `/**`: nothing (the folder itself), or `/` and anything. */
  private trailingGlobstar(from: number): number {
    const inside = this.state()
    const to = this.state()
    this.edge(from, null, to)
    this.edge(from, slashTest, inside)
    this.edge(inside, anyChar, inside)
    this.edge(inside, null, to)
    return to
  }
}

/** The automaton of a glob (already stripped of `!`, `./` and a leading `/`); throws GlobError on what it refuses. */
function buildNfa(pattern: string): Nfa {
  const b = new Builder()
  const start = b.state()
  const accept = b.seq(new Parser(pattern).seq(false), start)
  return { edges: b.edges, start, accept }
}

/** A matcher of the glob; throws GlobError on what it refuses. */
export function compileGlob(pattern: string): (path: string) => boolean {
  const nfa = buildNfa(pattern)
  return (path) => runNfa(nfa, path).matched
}

/** Steps the automaton over `path`; `work` counts the edges followed: at most (path length + 1) x 2 x its edges. */
function runNfa(nfa: Nfa, path: string): { matched: boolean; work: number } {
  const seen = new Int32Array(nfa.edges.length).fill(-1)
  let work = 0
  const close = (states: number[], stamp: number): number[] => {
    const out: number[] = []
    const stack = [...states]
    for (let s = stack.pop(); s !== undefined; s = stack.pop()) {
      if (seen[s] === stamp) continue
      seen[s] = stamp
      out.push(s)
      for (const e of nfa.edges[s]) {
        work++
        if (e.test === null && seen[e.to] !== stamp) stack.push(e.to)
      }
    }
    return out
  }
  let current = close([nfa.start], 0)
  for (let i = 0; i < path.length && current.length > 0; i++) {
    const c = path.charCodeAt(i)
    const next: number[] = []
    for (const s of current)
      for (const e of nfa.edges[s]) {
        work++
        if (e.test?.(c)) next.push(e.to)
      }
    current = close(next, i + 1)
  }
  return { matched: current.includes(nfa.accept), work }
}

/** What matching `path` costs: the edges followed, and the automaton's edge count (the bound's factor). */
export function globCost(pattern: string, path: string): { work: number; edges: number } {
  const nfa = buildNfa(pattern)
  return { work: runNfa(nfa, path).work, edges: nfa.edges.reduce((n, e) => n + e.length, 0) }
}
