/**
 * Reading the accepted-risks file. On a pull request it is read from the base
 * branch, at the base SHA, through the GitHub contents API, so a pull request
 * cannot accept its own findings; the PR's own copy (in the workspace) is
 * compared with it to say what the PR changes ("applies after merge").
 * Elsewhere the workspace copy is read (or, without a checkout, the file at
 * GITHUB_SHA). Any mistake in the file is a ConfigError before any request to
 * the service.
 */
import { readFile } from 'node:fs/promises'
import { isAbsolute, join, normalize } from 'node:path'
import { ConfigError, describeFailure } from '../util/errors.js'
import type { ContentsApi } from '../github/contents-api.js'
import type { RepoRef } from '../github/transport.js'
import type { BaselineScope } from '../baseline/scope.js'
import { ACCEPTED_INPUT, entryKey, parseAcceptedFile, type AcceptedEntry } from './accepted-file.js'
import { loadYaml, type YamlModule } from '../util/yaml.js'
import { loadPatternEngine, type PatternEngine } from './description-pattern.js'

export interface AcceptedRisks {
  path: string
  /** Where the entries in force were read: 'base branch at <sha>', 'workspace', ... ; null when there is no file. */
  source: string | null
  entries: AcceptedEntry[]
  /** On a pull request: entries the PR's copy adds or changes, and removes (they apply after merge). */
  prAdds: AcceptedEntry[]
  prRemoves: AcceptedEntry[]
  notes: string[]
}

export interface ReadAcceptedDeps {
  workspace: string
  repo: RepoRef | null
  /** Made only when the file must be read from GitHub. */
  contents: () => Promise<ContentsApi>
  today: string
}

/** The path as the input gives it: relative to the repository root, inside it. */
export function checkAcceptedPath(path: string): string {
  const p = normalize(path).replace(/\\/g, '/')
  if (isAbsolute(path) || p.startsWith('../') || p === '..')
    throw new ConfigError(ACCEPTED_INPUT, `'${path}' must be a path inside the repository, e.g. .github/agent-security-accepted.yml`)
  return p
}

async function readLocal(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

export async function readAcceptedRisks(deps: ReadAcceptedDeps, path: string, scope: BaselineScope): Promise<AcceptedRisks> {
  const rel = checkAcceptedPath(path)
  const local = await readLocal(join(deps.workspace, rel))
  const out: AcceptedRisks = { path: rel, source: null, entries: [], prAdds: [], prRemoves: [], notes: [] }
  let yaml: YamlModule | null = null
  let patterns: PatternEngine | null = null
  const parse = async (text: string, where: string): Promise<AcceptedEntry[]> =>
    parseAcceptedFile((yaml ??= await loadYaml()), text, where, deps.today, (patterns ??= await loadPatternEngine()))

  if (scope.kind === 'pull_request') {
    const prEntries = local === null ? [] : await parse(local, `${rel} (this pull request's copy)`)
    if (!deps.repo || !scope.baseSha) {
      // Without the base SHA nothing can be read from the base branch. No copy in the PR
      // either: nothing to accept. A PR copy alone is never trusted: fail.
      if (local === null) {
        out.notes.push(`${rel} was not read: the event payload has no base SHA (or GITHUB_REPOSITORY is unset); no acceptances apply.`)
        return out
      }
      throw new ConfigError(
        ACCEPTED_INPUT,
        `cannot read ${rel} from the base branch: the event payload has no base SHA or GITHUB_REPOSITORY is unset (the PR's own copy is never trusted)`
      )
    }
    let baseText: string | null
    try {
      baseText = await (await deps.contents()).getFileText(deps.repo, rel, scope.baseSha)
    } catch (err) {
      throw new ConfigError(
        ACCEPTED_INPUT,
        `cannot read ${rel} from the base branch at ${scope.baseSha.slice(0, 12)} (${describeFailure(err)}); the job needs contents: read. The PR's own copy is never trusted`
      )
    }
    out.entries = baseText === null ? [] : await parse(baseText, `${rel} (base branch ${scope.baseRef || scope.baseSha.slice(0, 12)})`)
    out.source = baseText === null ? null : `the base branch ${scope.baseRef} at ${scope.baseSha.slice(0, 12)}`
    if (local === null) return out // no checkout of the PR: nothing to compare
    const baseKeys = new Set(out.entries.map(entryKey))
    const prKeys = new Set(prEntries.map(entryKey))
    out.prAdds = prEntries.filter((e) => !baseKeys.has(entryKey(e)))
    out.prRemoves = out.entries.filter((e) => !prKeys.has(entryKey(e)))
    if (out.prAdds.length > 0)
      out.notes.push(
        `This pull request adds or changes ${out.prAdds.length === 1 ? '1 acceptance' : `${out.prAdds.length} acceptances`} in ${rel}: ${out.prAdds.length === 1 ? 'it applies' : 'they apply'} after merge.`
      )
    if (out.prRemoves.length > 0)
      out.notes.push(
        `This pull request removes ${out.prRemoves.length === 1 ? '1 acceptance' : `${out.prRemoves.length} acceptances`} from ${rel}: the base branch's still apply until merge.`
      )
    return out
  }
  if (local !== null) {
    out.entries = await parse(local, rel)
    out.source = 'the workspace'
    return out
  }
  const sha = scope.sha
  if (deps.repo && sha) {
    try {
      const text = await (await deps.contents()).getFileText(deps.repo, rel, sha)
      if (text !== null) {
        out.entries = await parse(text, rel)
        out.source = `the commit ${sha.slice(0, 12)}`
      }
    } catch (err) {
      if (err instanceof ConfigError) throw err
      out.notes.push(`${rel} is not in the workspace and could not be read from GitHub (${describeFailure(err)}): no acceptances apply.`)
    }
  }
  return out
}
