/**
 * "The same agent", the one definition every feature asks (agentIdentity):
 * registration names and finds the target by it, the assessment record and
 * carry-over match it, the merge queue checks the queued pull requests
 * against it, the sticky comment and the commit status are keyed on it, and
 * every report names the agent by its display name.
 *
 * An agent is a model id, or a target: its configured name (target_name, or
 * the event's default `<repo>-pr-<n>`) with the digest of its configuration
 * (path, query keys, reply field, transport, auth, timeout, and the deployed
 * project when the event names one) and the host it runs at. What a record
 * must also match to stand for this run: the profile and the verdict inputs
 * (AssessmentIdentity). Pure.
 */
import { createHash } from 'node:crypto'
import { decodeRecordKey, recordSubjectKey, type AssessmentRecord } from '../report/comment.js'
import type { EndpointTarget } from '../target/target-spec.js'
import { configDigest, defaultTargetName, hostOf, targetNameWithDigest, type NamingContext } from '../target/naming.js'

/** What the workflow says the agent is: a model, an endpoint, or a preview this event has no deployment of. */
export type AgentTarget =
  { kind: 'model'; modelId: string } | { kind: 'endpoint'; endpoint: EndpointTarget } | { kind: 'preview'; name: string | null }

/** The event's part of an agent: the names it gives a default, and the deployed project. */
export interface AgentContext extends NamingContext {
  /**
   * What names the deployed project across pull requests, when the event says:
   * a deployment's environment (Vercel: `Preview – <project>`), Vercel's
   * project. null on other events.
   */
  site: string | null
}

export interface AgentIdentity {
  kind: 'model' | 'target'
  /** How every report, log line and title names the agent: the model id, or the configured target name. */
  display: string
  /** The record's key of the model or the configured name (recordSubjectKey). */
  subject: string
  /** The configuration digest (8 hex); null for a model, or a preview this event has no deployment of. */
  config: string | null
  /** The host the target runs at (lower case); null for a model, or a preview this event has no deployment of. */
  host: string | null
  /** The name the target is registered and found under (`<display> cfg-<config>`); null as config. */
  targetName: string | null
  /** The key of the sticky comment: the same wherever the agent's host moves, another for another agent. */
  commentKey: string
  /** The name in the commit status context (`agent-security/<statusName>`): the same on every pull request. */
  statusName: string
  /**
   * What every commit status the action sets names as its agent (8 hex): the
   * model, or the status's name with the configuration digest. The host and
   * the pull request are left out, as they are of the context: the same agent
   * redeployed at another host, or its commit in another pull request, is
   * the same owner. Two owners in one context are refused
   * (src/action/stages/set-commit-status.ts).
   */
  statusOwner: string
  /**
   * The agent as one string, for keying what belongs to one agent (a window of
   * its runs, a cache entry): equal keys are the same agent (model id, or
   * configured name, configuration and host). Not for display.
   */
  key: string
}

/** The one answer to "which agent is this": see the file's comment. */
export function agentIdentity(target: AgentTarget, ctx: AgentContext): AgentIdentity {
  if (target.kind === 'model') {
    const id = target.modelId
    const subject = recordSubjectKey(`model:${id}`)
    return {
      kind: 'model',
      ...{ display: id, subject, config: null, host: null, targetName: null },
      ...{ commentKey: id, statusName: id, statusOwner: statusOwnerOf(`model:${id}`, null), key: subject }
    }
  }
  const given = target.kind === 'endpoint' ? target.endpoint.name : target.name
  const display = given ?? defaultTargetName(ctx)
  const subject = recordSubjectKey(`target:${display}`)
  if (target.kind === 'preview') {
    return {
      kind: 'target',
      display,
      subject,
      config: null,
      host: null,
      targetName: null,
      commentKey: `target:${display}`,
      statusName: given ?? 'preview',
      statusOwner: statusOwnerOf(`target:${given ?? 'preview'}`, null),
      key: `${subject};config=-;host=-`
    }
  }
  const config = configDigest({ ...target.endpoint, site: ctx.site })
  const host = hostOf(target.endpoint.endpointUrl)
  const targetName = targetNameWithDigest(display, config)
  return {
    kind: 'target',
    display,
    subject,
    config,
    host,
    targetName,
    commentKey: `target:${targetName}`,
    // The per-PR default name holds the PR number: the context names the configuration instead.
    statusName: given ?? `preview cfg-${config}`,
    statusOwner: statusOwnerOf(`target:${given ?? 'preview'}`, config),
    key: `${subject};config=${config};host=${recordSubjectKey(host)}`
  }
}

function statusOwnerOf(name: string, config: string | null): string {
  return textDigest(`${name};config=${config ?? '-'}`).slice(0, 8)
}

/** What a recorded assessment must match to stand for this run: the agent, its profile, the verdict inputs. */
export interface AssessmentIdentity {
  /** AgentIdentity.subject. */
  subject: string
  /** AgentIdentity.config. */
  config: string | null
  /**
   * AgentIdentity.host, encoded as a record holds it (recordSubjectKey). Not
   * matched (identityMismatch): a record of another host stands, and says
   * which host was assessed (movedFrom).
   */
  host: string | null
  /**
   * A preview this event has no deployment of (a merge queue): the configured
   * name is known, not the configuration or host. Every configuration
   * recorded under that name must then stand (src/pipeline/merge-queue.ts);
   * carry-over never works from a partial identity.
   */
  partial: boolean
  /** sha256 of the profile file's text; null when no profile_file is used. */
  profileDigest: string | null
  /** sha256 of the verdict inputs (see policyDigest). */
  policyDigest: string | null
}

/** The identity a record is matched against: the agent's, with the profile and verdict digests. */
export function assessmentIdentityOf(
  agent: AgentIdentity,
  digests: { profileDigest: string | null; policyDigest: string | null }
): AssessmentIdentity {
  const partial = agent.kind === 'target' && agent.config === null
  return {
    subject: agent.subject,
    config: agent.config,
    host: agent.host === null ? null : recordSubjectKey(agent.host),
    partial,
    ...digests
  }
}

/** sha256 (hex) of a text, e.g. the profile file as committed: any change, even of spacing, is a change. */
export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * sha256 (hex) of the inputs that decide the verdict, given by name (e.g.
 * min_severity, categories, fail_on, fail_on_incomplete, the accepted-risks
 * file's text, the baseline run id). Independent of the order they are given
 * in; a name with another value, or a name added or removed, gives another
 * digest.
 */
export function policyDigest(parts: Readonly<Record<string, string>>): string {
  const canonical = JSON.stringify(Object.entries(parts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return textDigest(canonical)
}

/** Why `record` is not of the same assessment as `identity`; null when it is. */
export function identityMismatch(record: AssessmentRecord, identity: AssessmentIdentity): string | null {
  if (record.subject !== identity.subject) return 'it assessed another model or target'
  if (!identity.partial && record.config !== identity.config) {
    return 'it assessed another configuration of the target (endpoint path or query, reply field, transport, auth or project)'
  }
  // The host is not part of the agent: a preview redeployed at another host (Vercel's per-deployment URLs) is the
  // same project, path and configuration, and a stable host serves each new deployment too. What decides is the
  // identity and that nothing under agent_paths changed (carry-over.ts); the record keeps the host it assessed.
  if (record.profileDigest !== identity.profileDigest) {
    if (record.profileDigest === null) return 'it was assessed without a profile_file, and this run has one'
    if (identity.profileDigest === null) return 'it was assessed with a profile_file, and this run has none'
    return 'the profile file changed since'
  }
  if (record.policyDigest !== identity.policyDigest) {
    return 'the inputs that decide the verdict (min_severity, categories, fail_on, accepted risks, ...) differ'
  }
  return null
}

/**
 * The host `record` assessed, when the agent has moved since (another host
 * now); null when it did not move, or either host is unknown (a model, a
 * preview this event has no deployment of). Decoded for display.
 */
export function movedFrom(record: AssessmentRecord, identity: AssessmentIdentity): string | null {
  if (record.host === null || identity.host === null || record.host === identity.host) return null
  return decodeRecordKey(record.host)
}

/**
 * The records that speak for `identity`'s agent, newest first by assessment
 * time (a later one in the list wins a tie): of its subject and, unless the
 * identity is partial, of its configuration, at any host (the host is not
 * part of the agent: movedFrom says where it was assessed). Partial: the newest of each configuration
 * recorded under the name, every one of which must stand.
 */
export function recordsOfAgent<T extends { record: AssessmentRecord }>(found: readonly T[], identity: AssessmentIdentity): T[] {
  const newest = new Map<string, T>()
  for (const f of found) {
    if (f.record.subject !== identity.subject) continue
    if (!identity.partial && f.record.config !== identity.config) continue
    const key = f.record.config ?? '-'
    const best = newest.get(key)
    // ISO minutes compare as text; a record without a time loses to one with.
    if (best === undefined || (f.record.at ?? '') >= (best.record.at ?? '')) newest.set(key, f)
  }
  return [...newest.values()].sort((a, b) => ((b.record.at ?? '') < (a.record.at ?? '') ? -1 : 1))
}
