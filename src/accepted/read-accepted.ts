/**
 * Reading the accepted-risks file, always from a commit through the GitHub
 * contents API, never from a checkout another event may have filled with a
 * pull request's code:
 * - on a pull request (pull_request, pull_request_target): at the base SHA, so
 *   a pull request cannot accept its own findings; the PR's own copy (in the
 *   workspace, read bounded) is compared with it to say what the PR changes
 *   ("applies after merge");
 * - on every other event (issue_comment and workflow_run included, which may
 *   check a pull request out): at GITHUB_SHA, the commit the event is for.
 * Any mistake in the file is a ConfigError before any request to the service.
 */
import { isAbsolute, normalize } from 'node:path'
import { ConfigError, describeFailure } from '../util/errors.js'
import type { ContentsApi } from '../github/contents-api.js'
import type { RepoRef } from '../github/transport.js'
import type { BaselineScope } from '../evidence/scope.js'
import { ACCEPTED_INPUT, entryKey, parseAcceptedFile, type AcceptedEntry } from './accepted-file.js'
import { loadYaml, parseYamlFile, type YamlModule } from '../util/yaml.js'
import { readWorkspaceFile } from '../util/read-workspace-file.js'
import { loadPatternEngine, type PatternEngine } from './description-pattern.js'

/** The largest accepted-risks file read (from the workspace or GitHub): a list of entries, never megabytes. */
export const ACCEPTED_FILE_MAX_BYTES = 1024 * 1024

export interface AcceptedRisks {
  path: string
  /** Where the entries in force were read ('the base branch main at <sha>', 'the commit <sha>'); null when there is no file. */
  source: string | null
  entries: AcceptedEntry[]
  /** On a pull request: entries the PR's copy adds or changes, and removes (they apply after merge). */
  prAdds: AcceptedEntry[]
  prRemoves: AcceptedEntry[]
  notes: string[]
  /** The text of the file in force (null or absent: none), for the digest of the verdict inputs. */
  text?: string | null
}

export interface ReadAcceptedDeps {
  workspace: string
  repo: RepoRef | null
  /** The GitHub contents API, made when the file is read. */
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

export async function readAcceptedRisks(deps: ReadAcceptedDeps, path: string, scope: BaselineScope): Promise<AcceptedRisks> {
  const rel = checkAcceptedPath(path)
  const out: AcceptedRisks = { path: rel, source: null, entries: [], prAdds: [], prRemoves: [], notes: [] }
  const parse = acceptedParser(deps.today)
  if (scope.kind === 'pull_request') return readForPullRequest(deps, scope, rel, out, parse)
  // Any other event: the file at the commit the event is for (see baselineScope). The workspace is
  // not read: on issue_comment, workflow_run and the like it may hold a pull request's checkout.
  const at = scope.sha
  // The runner always sets both; without them (a local run) there is no commit to read, and nothing is accepted.
  if (!deps.repo || !at) return out
  let text: string | null
  try {
    text = await (await deps.contents()).getFileText(deps.repo, rel, at)
  } catch (err) {
    if (err instanceof ConfigError) throw err
    out.notes.push(`${rel} could not be read from GitHub at ${shortRef(at)} (${describeFailure(err)}): no acceptances apply.`)
    return out
  }
  if (text !== null) {
    out.entries = await parse(text, rel)
    out.text = text
    out.source = at.startsWith('refs/heads/') ? `the branch ${at.slice('refs/heads/'.length)}` : `the commit ${shortRef(at)}`
  }
  return out
}

type ParseAccepted = (text: string, where: string) => Promise<AcceptedEntry[]>

/** A parser of accepted-risks text, bounded in size and nesting; YAML and the pattern engine loaded on first use. */
function acceptedParser(today: string): ParseAccepted {
  let yaml: YamlModule | null = null
  let patterns: PatternEngine | null = null
  return async (text, where) => {
    yaml ??= await loadYaml()
    if (Buffer.byteLength(text, 'utf8') > ACCEPTED_FILE_MAX_BYTES)
      throw new ConfigError(ACCEPTED_INPUT, `${where}: is larger than ${ACCEPTED_FILE_MAX_BYTES} bytes`)
    // Nesting first, bounded: whatever walks the document next never meets a deep one.
    const bounded = parseYamlFile(yaml, text)
    if (!bounded.ok && bounded.tooDeep) throw new ConfigError(ACCEPTED_INPUT, `${where}: ${bounded.why}`)
    return parseAcceptedFile(yaml, text, where, today, (patterns ??= await loadPatternEngine()))
  }
}

const shortRef = (ref: string): string => (ref.startsWith('refs/') ? ref : ref.slice(0, 12))

/**
 * On a pull request: the base branch's file, at the base SHA (a pull request
 * cannot accept its own findings); the PR's own copy is only compared with it.
 */
async function readForPullRequest(
  deps: ReadAcceptedDeps,
  scope: Extract<BaselineScope, { kind: 'pull_request' }>,
  rel: string,
  out: AcceptedRisks,
  parse: ParseAccepted
): Promise<AcceptedRisks> {
  const local = await readWorkspaceFile({
    workspace: deps.workspace,
    path: rel,
    input: ACCEPTED_INPUT,
    maxBytes: ACCEPTED_FILE_MAX_BYTES,
    example: '.github/agent-security-accepted.yml'
  })
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
  out.text = baseText
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
