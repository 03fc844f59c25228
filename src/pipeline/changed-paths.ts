/**
 * The agent's paths: the `agent_paths` input, a list of globs naming the
 * agent's code, prompts, tools and profile, and which changed files they
 * match. Pure.
 *
 * How the globs match (src/pipeline/glob.ts, in time linear in the path; POSIX
 * paths as GitHub lists them):
 * - one pattern per line; blank lines and lines starting with `#` are ignored;
 * - `*` matches any characters but `/`; `?` one character but `/`;
 *   `**` as a whole path segment matches any number of segments, none
 *   included (`src/**\/*.py` matches `src/a.py` and `src/x/y/a.py`);
 *   `{a,b}` braces and `[...]` classes work as in bash; extglobs, POSIX
 *   classes and brace ranges are refused, naming the pattern;
 * - dotfiles are matched like any other file (`prompts/**` matches
 *   `prompts/.env`): a hidden file can change the agent too;
 * - a pattern is anchored at the repository root (`*.py` matches `a.py`, not
 *   `src/a.py`), a leading `./` or `/` is dropped, and a trailing `/` means
 *   everything under that folder (`prompts/` is `prompts/**`);
 * - case-sensitive, as Git paths are;
 * - `!pattern` excludes what matches it, and the last pattern that matches a
 *   file decides, as in the `paths` filter of a workflow's `on:`; at least one
 *   pattern must not be negated.
 */
import { ConfigError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import { compileGlob, GlobError } from './glob.js'

/** The files changed between two commits, or "everything" when GitHub cannot list them all (or history was rewritten). */
export type ChangedFiles = { kind: 'files'; files: string[] } | { kind: 'everything'; reason: string }

export const AGENT_PATHS_INPUT = 'agent_paths'
/** More patterns than this is a mistake (a pasted file list), not a configuration. */
const MAX_PATTERNS = 200
const MAX_PATTERN_CHARS = 500

/** The patterns of the input, one per line, without blanks and comments. Throws ConfigError on a pattern it cannot use. */
export function parseAgentPaths(raw: string): string[] {
  const patterns = raw
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
  if (patterns.length > MAX_PATTERNS) {
    throw new ConfigError(
      AGENT_PATHS_INPUT,
      `has ${patterns.length} patterns; at most ${MAX_PATTERNS}: name folders with /** instead of files`
    )
  }
  if (patterns.length > 0 && patterns.every((p) => p.startsWith('!'))) {
    throw new ConfigError(AGENT_PATHS_INPUT, 'has only negated (!) patterns: name the agent paths first, then what to leave out')
  }
  for (const p of patterns) compilePattern(p)
  return patterns
}

interface CompiledPattern {
  negated: boolean
  test: (path: string) => boolean
}

function normalize(pattern: string): string {
  let p = pattern.replace(/^(?:\.\/)+/, '').replace(/^\/+/, '')
  if (p.endsWith('/')) p = `${p}**`
  return p
}

function compilePattern(pattern: string): CompiledPattern {
  const negated = pattern.startsWith('!')
  const body = normalize(negated ? pattern.slice(1) : pattern)
  const shown = oneLine(pattern, 80)
  if (pattern.length > MAX_PATTERN_CHARS || body === '' || /[\u0000-\u001f\u007f]/.test(pattern)) {
    throw new ConfigError(AGENT_PATHS_INPUT, `'${shown}' is not a usable path pattern`)
  }
  try {
    return { negated, test: compileGlob(body) }
  } catch (err) {
    if (!(err instanceof GlobError)) throw err
    throw new ConfigError(AGENT_PATHS_INPUT, `'${shown}' is refused: ${oneLine(err.message, 160)}`)
  }
}

/** A matcher of repository paths for the patterns: the last pattern that matches a path decides. */
export function agentPathMatcher(patterns: readonly string[]): (path: string) => boolean {
  const compiled = patterns.map(compilePattern)
  return (path) => {
    const p = path.replace(/^\/+/, '')
    let included = false
    for (const c of compiled) if (c.test(p)) included = !c.negated
    return included
  }
}

/** The files among `files` that the patterns name, in their order. */
export function agentFilesAmong(patterns: readonly string[], files: readonly string[]): string[] {
  const matches = agentPathMatcher(patterns)
  return files.filter((f) => matches(f))
}

/** `a, b, c and 4 more` (each clipped to one line): a list of paths for a reason text. */
export function listPaths(paths: readonly string[], max = 5): string {
  const shown = paths.slice(0, max).map((p) => oneLine(p, 120))
  const rest = paths.length - shown.length
  if (shown.length === 0) return 'none'
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ')
}
