/**
 * The inputs of PR pipelines (docs/pr-pipelines.md): the agent's paths, what
 * a merge queue does, when a commit status is set, and the agent's path on a
 * deployed URL. Pure.
 */
import { parseAgentPaths } from '../../pipeline/changed-paths.js'
import { MERGE_GROUP_MODES, type MergeGroupMode } from '../../pipeline/merge-queue.js'
import { ConfigError } from '../../util/errors.js'
import { clip, oneOf, parseBoolean, type InputReader } from './common.js'
import { INPUT_DEFAULTS } from './defaults.js'

export const COMMIT_STATUS_MODES = ['auto', 'always', 'off'] as const
/** wait: attached (the step polls the run to its end) or detached (it triggers, and a collector finishes it). */
export const WAIT_MODES = ['attached', 'detached'] as const
export type WaitMode = (typeof WAIT_MODES)[number]
export type CommitStatusMode = (typeof COMMIT_STATUS_MODES)[number]

export interface PipelineInputs {
  /** agent_paths, parsed; empty: every run assesses. */
  agentPaths: string[]
  mergeGroup: MergeGroupMode
  /** auto: on deployment_status and repository_dispatch runs; always: on every run; off: never. */
  commitStatus: CommitStatusMode
  /** The agent's path (and query) on a deployment's URL; '' : the URL as the event gives it. */
  endpointPath: string
  /** allow_outside_code_secrets: the target's secrets may go to code from outside this repository (outsideCode). */
  allowOutsideCodeSecrets: boolean
  /** wait (docs/pr-pipelines.md#detached-waiting). */
  wait: WaitMode
}

/**
 * endpoint_path: an absolute path with an optional query, no fragment, no
 * spaces or control characters. Its query values may be secrets (a
 * protection bypass): the message never shows the query.
 */
export function parseEndpointPath(raw: string): string {
  if (raw === '') return ''
  const path = raw.split('?', 1)[0]
  if (!raw.startsWith('/') || raw.startsWith('//')) {
    throw new ConfigError('endpoint_path', `'${clip(path)}' must start with a single / (the path on the deployed host, e.g. /api/chat)`)
  }
  if (/[\s#\u0000-\u001f\u007f]/.test(raw)) {
    throw new ConfigError('endpoint_path', `'${clip(path)}...' holds a space, a # or a control character: give the path and query only`)
  }
  try {
    new URL(raw, 'https://deployment.invalid')
  } catch {
    throw new ConfigError('endpoint_path', `'${clip(path)}' is not a URL path`)
  }
  return raw
}

export function readPipelineInputs(get: InputReader): PipelineInputs {
  return {
    agentPaths: parseAgentPaths(get('agent_paths')),
    mergeGroup: oneOf<MergeGroupMode>('merge_group', get('merge_group'), MERGE_GROUP_MODES, INPUT_DEFAULTS.merge_group),
    commitStatus: oneOf<CommitStatusMode>('commit_status', get('commit_status'), COMMIT_STATUS_MODES, INPUT_DEFAULTS.commit_status),
    endpointPath: parseEndpointPath(get('endpoint_path')),
    allowOutsideCodeSecrets: parseBoolean('allow_outside_code_secrets', get('allow_outside_code_secrets'), false),
    wait: oneOf<WaitMode>('wait', get('wait'), WAIT_MODES, INPUT_DEFAULTS.wait)
  }
}

/**
 * The values of a URL's query (endpoint_url's or endpoint_path's): a
 * protection bypass travels there, so each is one of the step's secrets.
 * Values as given and decoded; none when the text has no query or is not a URL.
 */
export function queryValues(raw: string): string[] {
  const q = raw.indexOf('?')
  if (q < 0) return []
  const query = raw.slice(q + 1).split('#', 1)[0]
  const out = new Set<string>()
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=')
    if (eq < 0) continue
    const value = pair.slice(eq + 1)
    out.add(value)
    try {
      out.add(decodeURIComponent(value.replace(/\+/g, ' ')))
    } catch {
      // A malformed escape: the value as given is masked.
    }
  }
  return [...out].filter((v) => v !== '')
}
