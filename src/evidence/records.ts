/**
 * Records of an agent's runs: Actions cache entries whose key names the run
 * (and the commit it assessed). The key is the whole record; what an entry
 * holds is never read, since a pull request can save an entry of any key
 * under its own ref, and GitHub restores a pull request's own entries before
 * its base branch's.
 *
 * Keyed on AgentIdentity.key (src/pipeline/identity.ts): another agent,
 * configuration or host starts its own evidence.
 *
 * The one rule for a record that can make a verdict laxer (the default
 * branch's window: its findings become "known"): it is trusted only when
 * GitHub's caches API lists it with the default branch's ref, a fact a pull
 * request cannot write. Pure.
 */
import { createHash } from 'node:crypto'
import type { ListedCache } from '../github/actions-caches.js'
import type { NotReproduced } from './judge-evidence.js'

export const EVIDENCE_KEY_PREFIX = 'asas-gate-evidence-v2'

export interface EvidenceRecord {
  runId: string
  /** The commit the recorded run assessed; null when unknown. */
  commit: string | null
  /** ISO time the entry was created. */
  createdAt: string
  key: string
  /** The ref GitHub lists the entry under. */
  ref: string
  /**
   * Earlier runs that held findings still open which the recorded run did not
   * reproduce: read with the window, so a seen weakness outlives the last K
   * runs until the service closes it (at most MAX_HOLDERS).
   */
  holders: string[]
  /**
   * Of them, those the record's run judged runs of its own agent (the key
   * marks them with SAME_AGENT_MARK): a holder is of the agent judged now only
   * when it is of the naming record's agent and that record is of the agent
   * judged now.
   */
  sameAgentHolders: string[]
  /**
   * Of them, those only a run of the service's list saw (the key marks them
   * with PRESUMED_MARK): read as presumed present (they block), never as the
   * recording branch's own observation, so never known on main. Absent: none.
   */
  presumedHolders?: string[]
}

/** GitHub refuses a cache key longer than this (and any comma in one). */
export const MAX_CACHE_KEY_LENGTH = 512
/** The most holders a record names (each costs two requests to read, never an assessment). */
export const MAX_HOLDERS = 5
/** Between the run and each holder in a key: a character no run id a key carries holds. */
const HOLDER_SEPARATOR = '~'
/** After a holder in a key: the holder is a run of the recording run's own agent (a character no run id holds). */
export const SAME_AGENT_MARK = '!'
/** Before a holder in a key: only a run of the service's list saw it (whoever ran it): presumed, never known on main. */
export const PRESUMED_MARK = '?'

/** Run ids and commits that a key can carry unambiguously. */
const RUN_ID = /^[A-Za-z0-9_.-]{1,200}$/
/** A holder in a key: its run id, marked before when only the service's list saw it, after when it is of the recording run's agent. */
const HOLDER_TOKEN = /^(\??)([A-Za-z0-9_.-]{1,200})(!?)$/
const COMMIT = /^[A-Za-z0-9]{7,64}$/

/** The prefix of every key of an agent (a digest of its identity: fixed length, so one agent's prefix never starts another's). */
export function evidenceKeyPrefix(agentKey: string): string {
  return `${EVIDENCE_KEY_PREFIX}-${createHash('sha256').update(agentKey, 'utf8').digest('hex').slice(0, 16)}-`
}

/**
 * The key that records `runId` of the agent at `commit`, and the runs holding
 * what it did not reproduce (in the order given, at most MAX_HOLDERS, those
 * that do not fit GitHub's key length left out); null when the run id cannot
 * be carried by a key.
 */
export function evidenceKey(agentKey: string, runId: string, commit: string | null, holders: readonly string[] = []): string | null {
  if (!RUN_ID.test(runId)) return null
  let key = `${evidenceKeyPrefix(agentKey)}${commit !== null && COMMIT.test(commit) ? commit : 'none'}-${runId}`
  let named = 0
  for (const h of new Set(holders)) {
    if (named >= MAX_HOLDERS) break
    const token = HOLDER_TOKEN.exec(h)
    if (token === null || token[2] === runId || key.length + 1 + h.length > MAX_CACHE_KEY_LENGTH) continue
    key += `${HOLDER_SEPARATOR}${h}`
    named++
  }
  return key
}

/** The run, commit and holders a key of the agent names (at most MAX_HOLDERS are read); null when it is not one. */
export function parseEvidenceKey(
  key: string,
  agentKey: string
): { runId: string; commit: string | null; holders: string[]; sameAgentHolders: string[]; presumedHolders: string[] } | null {
  const prefix = evidenceKeyPrefix(agentKey)
  if (!key.startsWith(prefix)) return null
  const [named, ...holders] = key.slice(prefix.length).split(HOLDER_SEPARATOR)
  const dash = named.indexOf('-')
  if (dash <= 0) return null
  const commit = named.slice(0, dash)
  const runId = named.slice(dash + 1)
  const tokens = holders.map((h) => HOLDER_TOKEN.exec(h))
  if (!RUN_ID.test(runId) || !(commit === 'none' || COMMIT.test(commit)) || tokens.some((t) => t === null)) return null
  const ids = [...new Set(tokens.map((t) => t?.[2] ?? ''))].slice(0, MAX_HOLDERS)
  const same = new Set(tokens.filter((t) => t?.[3] === SAME_AGENT_MARK).map((t) => t?.[2] ?? ''))
  const presumed = new Set(tokens.filter((t) => t?.[1] === PRESUMED_MARK).map((t) => t?.[2] ?? ''))
  return {
    runId,
    commit: commit === 'none' ? null : commit,
    holders: ids,
    sameAgentHolders: ids.filter((h) => same.has(h) && !presumed.has(h)),
    presumedHolders: ids.filter((h) => presumed.has(h))
  }
}

/**
 * The runs a record of this run names as holders: for each finding still
 * open that this run did not reproduce but an earlier run of this same agent
 * saw (most severe first), the newest run that saw it, marked when a run of
 * this run's own agent saw it (not merely presumed); at most MAX_HOLDERS.
 * `gone`: fingerprints a confirmation showed gone, named by no record.
 * `unobserved`: runs of the service's list (whoever ran them, and holders
 * read back with PRESUMED_MARK): a weakness only they saw is named with
 * PRESUMED_MARK (kept, so the next run still presumes it, but never passed
 * off as the recording branch's own observation).
 */
export function recordHolders(
  notReproduced: readonly Pick<NotReproduced, 'present' | 'presumed' | 'seenIn' | 'fingerprint'>[],
  gone: ReadonlySet<string> = new Set(),
  unobserved: ReadonlySet<string> = new Set()
): string[] {
  const holders: string[] = []
  const idOf = (h: string): string => h.replace(/^\?/, '').replace(/!$/, '')
  for (const n of notReproduced) {
    const own = n.seenIn.find((id) => !unobserved.has(id))
    const newest = own ?? n.seenIn.at(0)
    if (!n.present || gone.has(n.fingerprint) || newest === undefined || holders.some((h) => idOf(h) === newest)) continue
    holders.push(own === undefined ? `${PRESUMED_MARK}${newest}` : n.presumed ? newest : `${newest}${SAME_AGENT_MARK}`)
    if (holders.length >= MAX_HOLDERS) break
  }
  return holders
}

/** The full ref of a branch. */
export function branchRef(branch: string): string {
  return `refs/heads/${branch}`
}

/**
 * THE rule for records that can make a verdict laxer: an entry is the
 * default branch's only when the caches API lists it with the default
 * branch's ref. Everything else (a pull request's ref, another branch, no
 * default branch known) is not trusted.
 */
export function tiedToDefaultBranch(entry: Pick<ListedCache, 'ref'>, defaultBranch: string | null): boolean {
  return defaultBranch !== null && defaultBranch !== '' && entry.ref === branchRef(defaultBranch)
}

/** The agent's records among listed entries that the default branch saved, newest first, one per run; and how many were refused. */
export function defaultBranchRecords(
  listed: readonly ListedCache[],
  agentKey: string,
  defaultBranch: string | null
): { records: EvidenceRecord[]; refused: number } {
  const records = agentRecords(listed, agentKey)
  const trusted = records.filter((r) => tiedToDefaultBranch(r, defaultBranch))
  return { records: trusted, refused: records.length - trusted.length }
}

/**
 * The agent's records listed on `ref` (a pull request's own): trusted only to
 * add evidence to that pull request's own window, never to make a verdict laxer.
 */
export function recordsOnRef(listed: readonly ListedCache[], agentKey: string, ref: string): EvidenceRecord[] {
  return agentRecords(listed, agentKey).filter((r) => r.ref === ref)
}

/** The agent's records among listed entries, newest first, one per run and ref. */
function agentRecords(listed: readonly ListedCache[], agentKey: string): EvidenceRecord[] {
  const records: EvidenceRecord[] = []
  for (const e of [...listed].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))) {
    const named = parseEvidenceKey(e.key, agentKey)
    if (named === null || records.some((r) => r.runId === named.runId && r.ref === e.ref)) continue
    records.push({ ...named, createdAt: e.createdAt, key: e.key, ref: e.ref })
  }
  return records
}
