/**
 * The inputs of PR pipelines (docs/pr-pipelines.md): the agent's paths, what
 * a merge queue does, when a commit status is set, the agent's path on a
 * deployed URL, and whether secrets may go to code from outside the
 * repository. Entries of the inputs table (spec.ts); each is a field of
 * ActionInputs. All act on GitHub's events, so none is a command-line
 * option. Pure.
 */
import { parseAgentPaths } from '../../pipeline/changed-paths.js'
import { MERGE_GROUP_MODES } from '../../pipeline/merge-queue.js'
import { ConfigError } from '../../util/errors.js'
import { clip } from './common.js'
import { boolean, choice, defineInput, parsedBy, type FieldsOf } from './spec.js'

/** auto: on deployment_status and repository_dispatch runs; always: on every run; off: never. */
export const COMMIT_STATUS_MODES = ['auto', 'always', 'off'] as const
/** wait: attached (the step polls the run to its end) or detached (it triggers, and a collector finishes it). */
export const WAIT_MODES = ['attached', 'detached'] as const
export type WaitMode = (typeof WAIT_MODES)[number]
export type CommitStatusMode = (typeof COMMIT_STATUS_MODES)[number]

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

export const PIPELINE_INPUTS = [
  defineInput({
    name: 'agent_paths',
    field: 'agentPaths',
    default: '',
    description:
      "Globs (one per line) of the agent's code, prompts, tools and profile: a PR push changing none carries the last result over.",
    summary: "the agent's globs: a PR push changing none carries the result over",
    parser: parsedBy(parseAgentPaths),
    cli: { none: "GitHub Actions only: it acts on a pull request's push events, which the command line does not see" }
  }),
  defineInput({
    name: 'merge_group',
    field: 'mergeGroup',
    default: 'carry_over',
    description: 'On merge_group: carry_over (every queued PR passed at its head) or assess; see docs/pr-pipelines.md.',
    summary: "merge queue: `carry_over` the PR's pass, or `assess` the queue",
    parser: choice(MERGE_GROUP_MODES),
    cli: { none: "GitHub Actions only: it acts on GitHub's merge_group event" }
  }),
  defineInput({
    name: 'commit_status',
    field: 'commitStatus',
    default: 'auto',
    description:
      'Commit status agent-security/<model or target>: auto (deployment events, the default branch), always or off; needs statuses: write.',
    summary: 'status `agent-security/<name>`: `auto` (deployments, the default branch), `always`, `off`',
    parser: choice(COMMIT_STATUS_MODES),
    cli: { none: 'GitHub only: a commit status of the repository (the command line sets none)' }
  }),
  defineInput({
    name: 'endpoint_path',
    field: 'endpointPath',
    default: '',
    description: "On a deployment event with endpoint_url empty: the agent's path and query on the deployed URL; query values are masked.",
    summary: "deployments: the agent's path and query on the URL (values masked)",
    parser: parsedBy(parseEndpointPath),
    cli: { none: "GitHub Actions only: it applies to a deployment event's URL (on the command line, give --endpoint-url whole)" }
  }),
  defineInput({
    name: 'allow_outside_code_secrets',
    field: 'allowOutsideCodeSecrets',
    default: 'false',
    description:
      'Send target_credential and URL query values to a target built from a fork or a commit on no branch here (its author gets them).',
    summary: '`true`: secrets to forks',
    parser: boolean,
    cli: { none: "GitHub Actions only: where the code comes from (a fork, a commit on no branch) is read from GitHub's event" }
  }),
  defineInput({
    name: 'wait',
    field: 'wait',
    default: 'attached',
    description: 'attached (poll the run to its end) or detached (trigger, set the status pending, end; mode collect finishes it).',
    summary: '`detached`: trigger and end; a `collect` schedule finishes the run',
    parser: choice(WAIT_MODES),
    cli: { none: 'GitHub Actions only: a collector workflow on the default branch finishes the run (the command line waits)' }
  })
] as const

export type PipelineInputs = FieldsOf<typeof PIPELINE_INPUTS>

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
