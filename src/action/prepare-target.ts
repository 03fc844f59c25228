/**
 * Before the gate: the model to assess (model_id, or endpoint_url found or
 * registered) and its profile synced from the repository's profile_file,
 * where the write rule (src/github/write-rule.ts) lets this run write it. The
 * profile file is read and validated before any request; a sync failure fails
 * the step before any run is triggered, unless fail_on_profile_error is false.
 */
import { Deadline, type Clock } from '../util/clock.js'
import { ConfigError, describeFailure, failureKind } from '../util/errors.js'
import { nonEmpty } from '../util/text.js'
import { readEventPayload } from '../github/publish.js'
import { parseProfileFile, PROFILE_FILE_MAX_BYTES, type ProfileFile } from '../profile/profile-file.js'
import { readWorkspaceFile } from '../util/read-workspace-file.js'
import { loadYaml } from '../util/yaml.js'
import { profileWriteRefusal, writeStanding, type WriteStanding } from '../github/write-rule.js'
import { syncProfile } from '../profile/sync-profile.js'
import type { ReportProfileSync, ReportTarget } from '../report/report-model.js'
import type { ServiceApi } from '../service/service-api.js'
import { resolveTarget } from '../target/resolve-target.js'
import type { ResolvedTarget } from '../target/target-spec.js'
import type { AgentIdentity } from '../pipeline/identity.js'
import type { ActionInputs, ProfileInputs } from './inputs/read-inputs.js'
import type { ActionIO } from './io.js'

export interface PrepareDeps {
  io: ActionIO
  clock: Clock
  signal: AbortSignal
  random?: () => number
  /** A client for the setup calls: its per-request timeout covers the service's live probe of the target. */
  makeApi(deadline: Deadline, requestTimeoutMs: number): ServiceApi
}

/**
 * What the event alone does not say, on a deployment event (which runs on
 * the default branch): the pull request whose commit was deployed, and the
 * deployment's ref. They name the preview (`<repo>-pr-<N>`, else
 * `<repo>-<ref>`), and a deployment of a pull request's commit writes only
 * that pull request's own preview profile, as the pull request itself may.
 */
export interface DeploymentContext {
  prNumber: number | null
  ref: string | null
}

export interface Prepared {
  target: ResolvedTarget
  report: { target: ReportTarget | null; profileSync: ReportProfileSync | null }
}

/** Per-request timeout of the setup calls: the probe may take request_timeout (default 30 s) and then some. */
export function setupRequestTimeoutMs(inputs: ActionInputs): number {
  const probeS = inputs.target.kind === 'endpoint' ? (inputs.target.endpoint.requestTimeout ?? 30) : 0
  return Math.max(30_000, Math.ceil(probeS * 1000) + 30_000)
}

/** The profile file's text, read inside the workspace and bounded; null when it does not exist. */
export function readProfileText(env: NodeJS.ProcessEnv, path: string): Promise<string | null> {
  return readWorkspaceFile({
    workspace: nonEmpty(env.GITHUB_WORKSPACE) ?? process.cwd(),
    path,
    input: 'profile_file',
    maxBytes: PROFILE_FILE_MAX_BYTES,
    example: '.github/agent-profile.yml'
  })
}

/** Read and validate the profile file, inside the workspace, before any request. */
export async function loadProfileFile(env: NodeJS.ProcessEnv, path: string): Promise<ProfileFile> {
  const raw = await readProfileText(env, path)
  if (raw === null)
    throw new ConfigError('profile_file', `${path}: no such file in the repository (is actions/checkout run before this step?)`)
  return parseProfileFile(await loadYaml(), path, raw)
}

/** `agent`: the agent's identity (src/pipeline/identity.ts), whose targetName is registered and found. */
export async function prepareTarget(
  deps: PrepareDeps,
  inputs: ActionInputs,
  agent: AgentIdentity,
  deployment: DeploymentContext | null = null
): Promise<Prepared> {
  const { io, clock } = deps
  if (inputs.target.kind === 'preview') {
    throw new ConfigError('endpoint_url', `is empty and ${inputs.target.reason}: give model_id or endpoint_url for this event`)
  }
  const given = inputs.target
  const profileFile = inputs.profile && inputs.mode === 'gate' ? await loadProfileFile(io.env, inputs.profile.path) : null
  if (inputs.profile && inputs.mode !== 'gate')
    io.log.info(`profile_file is synced in gate mode only: ${inputs.profile.path} is not used in ${inputs.mode} mode.`)
  if (given.kind === 'model' && profileFile === null) {
    return {
      target: { modelId: inputs.modelId, name: null, outcome: 'given', endpointHost: null, movedFrom: null },
      report: { target: null, profileSync: null }
    }
  }

  const eventName = io.env.GITHUB_EVENT_NAME ?? ''
  const payload = await readEventPayload(io.env.GITHUB_EVENT_PATH)
  const deadline = Deadline.after(clock, inputs.timeoutMs)
  const callDeps = {
    api: deps.makeApi(deadline, setupRequestTimeoutMs(inputs)),
    clock,
    deadline,
    signal: deps.signal,
    log: io.log,
    random: deps.random
  }
  const target = await resolveTarget(callDeps, given, agent.targetName ?? agent.display)
  const reportTarget: ReportTarget | null =
    target.outcome === 'given' ? null : { outcome: target.outcome, name: target.name ?? '', movedFrom: target.movedFrom }
  if (profileFile === null || inputs.profile === null) return { target, report: { target: reportTarget, profileSync: null } }

  const refusal = profileWriteRefusal(
    profileStanding(writeStanding(eventName, payload, io.env), deployment),
    target,
    inputs.profile.allowShared
  )
  if (refusal) throw refusal
  return {
    target,
    report: { target: reportTarget, profileSync: await syncProfileFile({ ...callDeps, io }, inputs.profile, profileFile, target) }
  }
}

/** A deployment of a pull request's commit writes as that pull request would: its own preview only. */
function profileStanding(standing: WriteStanding, deployment: DeploymentContext | null): WriteStanding {
  return standing.kind === 'other' && deployment?.prNumber != null ? { kind: 'pull_request', number: deployment.prNumber } : standing
}

/** The profile file synced to the target; a failure is reported, or thrown when fail_on_profile_error (or a bug, a cancel). */
async function syncProfileFile(
  deps: Parameters<typeof syncProfile>[0] & { io: ActionIO },
  profile: ProfileInputs,
  file: ProfileFile,
  target: ResolvedTarget
): Promise<ReportProfileSync> {
  const path = profile.path
  try {
    const synced = await syncProfile(deps, target.modelId, path, file)
    const confirmed = synced.confirmed
      ? [...synced.confirmed.answers, ...Object.entries(synced.confirmed.items).flatMap(([f, names]) => names.map((n) => `${f}: ${n}`))]
      : []
    return {
      file: path,
      status: 'synced',
      created: synced.created,
      changed: synced.changed,
      confirmed,
      version: synced.version,
      error: null
    }
  } catch (err) {
    const kind = failureKind(err)
    if (profile.failOnError || kind === 'bug' || kind === 'aborted') throw err
    const line = describeFailure(err)
    deps.io.log.warning(`The profile sync failed; assessing the profile as the service holds it (fail_on_profile_error is false): ${line}`)
    return { file: path, status: 'failed', created: false, changed: [], confirmed: [], version: null, error: line }
  }
}
