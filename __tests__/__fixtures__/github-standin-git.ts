/**
 * The Git side of the GitHub stand-in (github-standin.ts): commits with
 * parents and changed files, pull requests, commit statuses and the token's
 * GraphQL viewer, served like GitHub serves them:
 * - GET  /repos/{o}/{r}/commits/{sha}/pulls   paginated; 422 for an unknown commit
 * - GET  /repos/{o}/{r}/pulls                 the open pull requests, newest first, paginated
 * - GET  /repos/{o}/{r}/pulls/{n}             404 when there is none
 * - POST /repos/{o}/{r}/statuses/{sha}        state, description (<= 140), context, target_url
 * - GET  /repos/{o}/{r}/commits/{sha}/statuses every status of the commit, newest first (paginated)
 * - GET  /repos/{o}/{r}/commits?sha={branch}   the commits it reaches, nearest first (paginated; no dates: since ignored)
 * - GET  /repos/{o}/{r}/compare/{base}...{head}  status ahead/identical/behind/diverged; commits
 *        paginated; files (at most 300) on the first page only, as GitHub documents; base and head
 *        are commits or branch names (a branch set with setBranch, or the head branch of an open pull
 *        request of this repository); an unknown one answers 404
 * Pull requests carry head.repo: this repository, another (a fork's), or null (a deleted fork), as
 * GitHub's pull request objects do.
 * - POST /graphql                              `{ viewer { login } }`
 */

export interface StandinCommit {
  sha: string
  parents: string[]
  /** Paths changed by this commit (renames: the new path; see renamedFrom). */
  files: string[]
  /** Old path of a renamed file, by its new path. */
  renamedFrom?: Record<string, string>
}

export interface StandinPull {
  number: number
  state: 'open' | 'closed'
  merged: boolean
  headSha: string
  headRef: string
  baseRef: string
  /** Commits of the pull request (its head included). */
  commits: string[]
  /** The head branch's repository: undefined this one, a name a fork's, null a deleted fork. */
  headRepo?: string | null
}

export interface StandinStatus {
  id: number
  sha: string
  state: string
  context: string
  description: string | null
  target_url: string | null
  /** Who set it: the stand-in's actor, or whoever a test names (a person's token). */
  creator: { login: string; type: string }
}

export interface GitState {
  commits: Map<string, StandinCommit>
  pulls: StandinPull[]
  statuses: StandinStatus[]
  /** Branches of this repository by name: their head commit. */
  branches: Map<string, string>
}

/** What a Git route needs from the stand-in. */
export interface GitRouteContext {
  method: string
  /** The path after /repos/{o}/{r}. */
  rest: string
  body: unknown
  /** The stand-in's base URL and the repository, for html_url values. */
  url: string
  owner: string
  repo: string
  paginate: <T>(items: T[]) => T[]
  fail: (status: number, message: string, extra?: Record<string, unknown>) => never
  /** The page asked for (from 1). */
  page: number
  /** A query parameter, undefined when it was not sent. */
  param: (name: string) => string | undefined
  /** The token's user: the creator of what it writes. */
  actor: { login: string; type: string }
}

const COMPARE_FILES_CAP = 300
const STATES = ['pending', 'success', 'failure', 'error']

export function createGitState(): GitState {
  return { commits: new Map(), pulls: [], statuses: [], branches: new Map() }
}

/** Adds a commit (its parent first, if any, must exist). */
export function addCommit(
  state: GitState,
  sha: string,
  parent: string | null,
  files: string[],
  renamedFrom?: Record<string, string>
): StandinCommit {
  if (parent !== null && !state.commits.has(parent)) throw new Error(`stand-in: parent ${parent} of ${sha} is unknown`)
  const commit: StandinCommit = { sha, parents: parent === null ? [] : [parent], files, renamedFrom }
  state.commits.set(sha, commit)
  return commit
}

/** The commits from `sha` back to the root, nearest first (first parents). */
function lineage(state: GitState, sha: string): string[] {
  const out: string[] = []
  for (let cur: string | undefined = sha; cur !== undefined && !out.includes(cur); cur = state.commits.get(cur)?.parents[0]) out.push(cur)
  return out
}

function pullJson(ctx: GitRouteContext, p: StandinPull): Record<string, unknown> {
  const html = `https://github.com/${ctx.owner}/${ctx.repo}/pull/${p.number}`
  return {
    id: 7_000_000 + p.number,
    number: p.number,
    state: p.state,
    html_url: html,
    merged_at: p.merged ? '2026-11-21T14:03:00Z' : null,
    head: {
      sha: p.headSha,
      ref: p.headRef,
      repo: p.headRepo === null ? null : { full_name: p.headRepo ?? `${ctx.owner}/${ctx.repo}`, fork: p.headRepo !== undefined }
    },
    base: { ref: p.baseRef, repo: { full_name: `${ctx.owner}/${ctx.repo}` } }
  }
}

/** A commit, or a branch of this repository (set, or an open pull request's head branch here) as its head commit. */
function resolveRef(state: GitState, name: string): string | undefined {
  if (state.commits.has(name)) return name
  const branch = state.branches.get(name)
  if (branch !== undefined) return branch
  return state.pulls.find((p) => p.state === 'open' && p.headRepo === undefined && p.headRef === name)?.headSha
}

function compare(state: GitState, ctx: GitRouteContext, baseName: string, headName: string): { status: number; body: unknown } {
  const [base, head] = [resolveRef(state, baseName), resolveRef(state, headName)]
  if (base === undefined || head === undefined || !state.commits.has(base) || !state.commits.has(head)) ctx.fail(404, 'Not Found')
  const fromHead = lineage(state, head)
  const fromBase = lineage(state, base)
  const mergeBase = fromHead.find((c) => fromBase.includes(c))
  if (mergeBase === undefined) ctx.fail(404, `No common ancestor between ${base} and ${head}.`)
  const ahead = fromHead.slice(0, fromHead.indexOf(mergeBase)).reverse()
  const behind = fromBase.indexOf(mergeBase)
  const status = ahead.length === 0 && behind === 0 ? 'identical' : behind === 0 ? 'ahead' : ahead.length === 0 ? 'behind' : 'diverged'
  const files = new Map<string, Record<string, unknown>>()
  for (const sha of ahead) {
    const c = state.commits.get(sha)
    for (const f of c?.files ?? []) {
      const from = c?.renamedFrom?.[f]
      files.set(f, from === undefined ? { filename: f, status: 'modified' } : { filename: f, status: 'renamed', previous_filename: from })
    }
  }
  const commits = ctx.paginate(ahead).map((sha) => ({ sha, parents: state.commits.get(sha)?.parents.map((p) => ({ sha: p })) }))
  return {
    status: 200,
    body: {
      status,
      ahead_by: ahead.length,
      behind_by: behind,
      total_commits: ahead.length,
      merge_base_commit: { sha: mergeBase },
      commits,
      ...(ctx.page === 1 ? { files: [...files.values()].slice(0, COMPARE_FILES_CAP) } : {})
    }
  }
}

function createStatus(state: GitState, ctx: GitRouteContext, sha: string): { status: number; body: unknown } {
  const b = (typeof ctx.body === 'object' && ctx.body !== null ? ctx.body : {}) as Record<string, unknown>
  if (!state.commits.has(sha)) ctx.fail(422, `No commit found for SHA: ${sha}`)
  if (typeof b.state !== 'string' || !STATES.includes(b.state)) {
    ctx.fail(422, 'Validation Failed', {
      errors: [{ resource: 'Status', code: 'custom', field: 'state', message: 'state is not included in the list' }]
    })
  }
  const description = typeof b.description === 'string' ? b.description : null
  if (description !== null && Array.from(description).length > 140) {
    ctx.fail(422, 'Validation Failed', {
      errors: [{ resource: 'Status', code: 'custom', field: 'description', message: 'description is too long (maximum is 140 characters)' }]
    })
  }
  const status: StandinStatus = {
    id: 9_000_000 + state.statuses.length,
    sha,
    state: b.state,
    context: typeof b.context === 'string' && b.context !== '' ? b.context : 'default',
    description,
    target_url: typeof b.target_url === 'string' ? b.target_url : null,
    creator: { login: ctx.actor.login, type: ctx.actor.type }
  }
  state.statuses.push(status)
  return { status: 201, body: { ...status, url: `${ctx.url}/repos/${ctx.owner}/${ctx.repo}/statuses/${sha}` } }
}

/** The answer of a Git route, or undefined when `ctx.rest` is not one. */
export function routeGit(state: GitState, ctx: GitRouteContext): { status: number; body: unknown } | undefined {
  const { method, rest } = ctx
  let hit = /^\/commits\/([0-9a-f]+)\/pulls$/.exec(rest)
  if (hit && method === 'GET') {
    const sha = hit[1]
    const known = state.commits.has(sha) || state.pulls.some((p) => p.headSha === sha)
    if (!known) ctx.fail(422, `No commit found for SHA: ${sha}`)
    const pulls = state.pulls.filter((p) => p.headSha === sha || p.commits.includes(sha))
    return { status: 200, body: ctx.paginate(pulls).map((p) => pullJson(ctx, p)) }
  }
  if (rest === '/pulls' && method === 'GET') {
    // GitHub's default state is open; newest first (sort=created, direction=desc).
    const open = state.pulls.filter((p) => p.state === 'open').sort((a, b) => b.number - a.number)
    return { status: 200, body: ctx.paginate(open).map((p) => pullJson(ctx, p)) }
  }
  hit = /^\/pulls\/(\d+)$/.exec(rest)
  if (hit && method === 'GET') {
    const pull = state.pulls.find((p) => p.number === Number(hit?.[1]))
    if (!pull) ctx.fail(404, 'Not Found')
    return { status: 200, body: pullJson(ctx, pull) }
  }
  if (rest === '/commits' && method === 'GET') {
    // The commits `sha` (a branch or commit) reaches, nearest first; the stand-in's commits carry no dates, so `since` is not applied.
    const from = resolveRef(state, ctx.param('sha') ?? 'main')
    if (from === undefined) ctx.fail(404, 'Not Found')
    return { status: 200, body: ctx.paginate(lineage(state, from)).map((sha) => ({ sha, commit: { message: sha } })) }
  }
  hit = /^\/statuses\/([0-9a-f]+)$/.exec(rest)
  if (hit && method === 'POST') return createStatus(state, ctx, hit[1])
  hit = /^\/commits\/([0-9a-f]+)\/statuses$/.exec(rest)
  if (hit && method === 'GET') {
    const sha = hit[1]
    if (!state.commits.has(sha)) ctx.fail(422, `No commit found for SHA: ${sha}`)
    // Every status of the ref, newest first, as GitHub lists them.
    const listed = state.statuses.filter((s) => s.sha === sha).reverse()
    return { status: 200, body: ctx.paginate(listed) }
  }
  hit = /^\/compare\/(.+)\.\.\.([^.]+)$/.exec(decodeURIComponent(rest))
  if (hit && method === 'GET') return compare(state, ctx, hit[1], hit[2])
  return undefined
}
