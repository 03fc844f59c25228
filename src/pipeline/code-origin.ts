/**
 * Whether the code a target is built from comes from outside this repository:
 * the one answer every feature asks (outsideCode). Code is inside only when a
 * branch of this repository holds it: a push's or a merge queue's commit, a
 * pull request whose head branch is here, a deployed commit (or the commit a
 * status, check_run or check_suite event names) that the event's branch (or
 * the head branch of its pull request here) holds.
 * A fork's head, a commit on no branch here, and anything that cannot be told
 * are outside. Pure: the evidence is gathered at the edge
 * (src/action/stages/outside-code.ts).
 */
import { shortSha } from '../util/text.js'

export type CodeEvidence =
  /** The event's own ref is a branch (or tag) of this repository: a push, a merge queue, a schedule, a dispatch. */
  | { kind: 'this_repository' }
  /** A head branch named by the event: a pull request's, a triggering workflow run's. headRepo null: GitHub names none (a deleted fork). */
  | { kind: 'head'; of: string; headRepo: string | null; repository: string }
  /**
   * A commit the event names (a deployed one, a status's or check's): the
   * branches asked, the one holding it (null: none), a pull request from
   * another repository whose head it is.
   */
  | {
      kind: 'commit'
      /** How the event names it; default 'the deployed commit <sha>'. */
      of?: string
      sha: string
      asked: string[]
      heldBy: string | null
      forkPull: { number: number; headRepo: string | null } | null
    }
  /** The evidence could not be gathered. */
  | { kind: 'unknown'; why: string }

const sameRepo = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/** Why the code is from outside this repository; null when a branch of this repository holds it. */
export function outsideCode(e: CodeEvidence): string | null {
  switch (e.kind) {
    case 'this_repository':
      return null
    case 'head':
      if (e.headRepo !== null && sameRepo(e.headRepo, e.repository)) return null
      return `the head of ${e.of} is in ${e.headRepo === null ? 'a fork that no longer exists' : `the fork ${e.headRepo}`}, not in ${e.repository}`
    case 'commit': {
      if (e.heldBy !== null) return null
      const what = e.of ?? `the deployed commit ${shortSha(e.sha)}`
      const asked = e.asked.length === 0 ? 'the event names no branch' : `not on ${e.asked.map((b) => `'${b.slice(0, 60)}'`).join(' or ')}`
      if (e.forkPull !== null) {
        const fork = e.forkPull.headRepo === null ? 'a fork that no longer exists' : `the fork ${e.forkPull.headRepo}`
        return `${what} is the head of pull request #${e.forkPull.number} from ${fork}, and on no branch of this repository (${asked})`
      }
      return `${what} is on no branch of this repository (${asked})`
    }
    case 'unknown':
      return `it cannot be told whether the code is this repository's (${e.why})`
  }
}
