/**
 * Stage load policy: what the gate holds a run against, read before the run.
 * The accepted risks first (a malformed file is a configuration error before
 * any request to the service), then the baseline (the Actions cache, or
 * baseline_run_id).
 */
import { isoDay } from '../../accepted/accepted-file.js'
import { readAcceptedRisks, type AcceptedRisks, type ReadAcceptedDeps } from '../../accepted/read-accepted.js'
import { loadBaseline, type LoadedBaseline } from '../../evidence/load-evidence.js'
import { baselineScope, type BaselineScope } from '../../evidence/scope.js'
import type { OwnStatus, SignWrite } from '../../evidence/adoption.js'
import { statusContext } from '../../github/commit-status.js'
import { inGitHubActions, splitRepository } from '../../github/event-target.js'
import { ciHost } from '../ci-host.js'
import { createGitHubClient } from '../../github/github-client.js'
import { readEventPayload } from '../../github/publish.js'
import { Deadline } from '../../util/clock.js'
import { actionInputName, ConfigError } from '../../util/errors.js'
import { nonEmpty, plural } from '../../util/text.js'
import type { AgentIdentity } from '../../pipeline/identity.js'
import { githubReads } from './github-reads.js'
import { writeRefusal } from '../../github/write-rule.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { StepContext } from './stage-context.js'

/** Budget of the service and GitHub calls around the run (baseline, accepted risks, dismissals). */
export const SIDE_CALL_BUDGET_MS = 60_000

export interface GatePolicy {
  /** Which branch this is, as far as baselines and acceptances go. */
  scope: BaselineScope
  /** YYYY-MM-DD (UTC) when the step started: acceptances expire against it. */
  today: string
  /** null: accepted_risks_file is off. */
  accepted: AcceptedRisks | null
  baseline: LoadedBaseline
  /** The identity of "the same agent" the window is keyed on (see src/pipeline/identity.ts). */
  agentKey: string
  /** This run's commit status, the sign that the default branch ran the gate (src/evidence/adoption.ts); absent: strict. */
  ownStatus?: OwnStatus
}

/**
 * The policy of this run; where the accepted risks are read is baselineScope's
 * one rule; the evidence is keyed on `agent`. `evidence: 'later'`: an
 * endpoint's model is not found or registered yet (the plan comes first, so a
 * carried-over push registers nothing): the baseline is read by withEvidence
 * once it is, and until then counts as none (a carry-over then only matches a
 * record decided without one, the stricter gate).
 */
export async function loadPolicy(
  ctx: StepContext,
  inputs: ActionInputs,
  agent: AgentIdentity,
  evidence: 'now' | 'later' = 'now',
  statusSet?: SignWrite
): Promise<GatePolicy & { evidence: 'now' | 'later' }> {
  const { io } = ctx
  const scope = baselineScope(io.env.GITHUB_EVENT_NAME ?? '', await readEventPayload(io.env.GITHUB_EVENT_PATH), io.env)
  const today = isoDay(ctx.clock.now())
  const accepted = inputs.acceptedRisksFile === '' ? null : await readAccepted(ctx, inputs, scope, today)
  const agentKey = agent.key
  const ownStatus =
    statusSet === undefined ? {} : { ownStatus: { context: statusContext(agent.statusName), owner: agent.statusOwner, write: statusSet } }
  const policy = { scope, today, accepted, agentKey, ...ownStatus }
  if (evidence === 'later') return { ...policy, evidence, baseline: { ...noEvidence(), why: 'not read yet' } }
  return { ...(await withEvidence(ctx, inputs, { ...policy, baseline: noEvidence() })), evidence }
}

/** `policy` with the baseline and evidence windows of `inputs.modelId` read (the policy as loadPolicy's 'now' gives it). */
export async function withEvidence(ctx: StepContext, inputs: ActionInputs, policy: GatePolicy): Promise<GatePolicy> {
  const { io } = ctx
  const { scope, agentKey } = policy
  // A preview this event has no deployment of has no model: nothing to read a baseline of.
  const baseline =
    inputs.modelId === ''
      ? { ...noEvidence(), why: 'this event has no target to read a baseline of' }
      : await loadEvidence(ctx, inputs, scope, agentKey, policy.ownStatus ?? null)
  io.log.info(
    baseline.baseline
      ? `Baseline: ${baseline.source}: ${plural(baseline.baseline.findings.length, 'open finding')}; the window cost ${plural(baseline.cost.serviceRequests, 'service request')} and ${plural(baseline.cost.githubRequests, 'GitHub request')} in ${baseline.cost.ms} ms.`
      : `No baseline: ${baseline.why}; gating as with fail_on any.`
  )
  for (const note of baseline.notes) io.log.info(note)
  for (const gap of baseline.gaps) io.log.warning(`Evidence not read: ${gap}.`)
  return { ...policy, baseline }
}

function noEvidence(): LoadedBaseline {
  return {
    baseline: null,
    source: null,
    why: '',
    windows: { agent: null, base: null },
    cost: { serviceRequests: 0, githubRequests: 0, runsRead: 0, holdersRead: 0, ms: 0 },
    notes: [],
    gaps: []
  }
}

/** The default branch's window (or baseline_run_id), read through the service and GitHub's caches API. */
async function loadEvidence(
  ctx: StepContext,
  inputs: ActionInputs,
  scope: BaselineScope,
  agentKey: string,
  ownStatus: OwnStatus | null
): Promise<LoadedBaseline> {
  const github = inputs.baselineRunId === '' ? await githubReads(ctx, inputs.githubToken) : null
  if (github === null && inputs.baselineRunId === '' && !inGitHubActions(ctx.io.env)) {
    // A terminal or another CI: no workflow records runs there, and its user never gave a github_token.
    const named = (ctx.nameInput ?? actionInputName)('baseline_run_id')
    const where = ciHost(ctx.io.env) === 'gitlab' ? 'in a GitLab job' : 'outside GitHub Actions'
    return { ...noEvidence(), why: `${where} no earlier run of this agent is recorded (${named} names one to compare with)` }
  }
  return loadBaseline(
    {
      api: () => ctx.makeApi(inputs, Deadline.after(ctx.clock, SIDE_CALL_BUDGET_MS)),
      github,
      signs: github,
      log: ctx.io.log,
      now: () => ctx.clock.now()
    },
    {
      modelId: inputs.modelId,
      agentKey,
      baselineRunId: inputs.baselineRunId,
      repo: splitRepository(ctx.io.env.GITHUB_REPOSITORY) ?? null,
      defaultBranch: scope.defaultBranch ?? null,
      onDefaultBranch: scope.kind === 'default-branch',
      judgedCommit: scope.kind === 'pull_request' ? scope.baseSha : scope.kind === 'default-branch' ? scope.sha : null,
      agentCommit: scope.kind === 'pull_request' ? scope.headSha : scope.kind === 'default-branch' ? scope.sha : null,
      agentPaths: inputs.agentPaths,
      bounds: { runs: inputs.evidenceRuns, maxAgeDays: inputs.evidenceMaxAgeDays, now: ctx.clock.now() },
      own: ownWindow(scope, ctx.io.env.GITHUB_REF ?? ''),
      // Pushes to the default branch only: a pull request's gate never reads the sign (never laxer).
      ownStatus: scope.kind === 'default-branch' ? ownStatus : null
    }
  )
}

/** A pull_request run's own ref and head, where its own runs are recorded; null for any other run (pull_request_target runs on the base's ref). */
function ownWindow(scope: BaselineScope, ref: string): { ref: string; head: string | null } | null {
  if (scope.kind !== 'pull_request' || scope.number === null || writeRefusal(scope, { kind: 'own-record', ref }) !== null) return null
  return { ref, head: scope.headSha }
}

async function readAccepted(ctx: StepContext, inputs: ActionInputs, scope: BaselineScope, today: string): Promise<AcceptedRisks> {
  const { io } = ctx
  const accepted = await readAcceptedRisks(
    {
      workspace: nonEmpty(io.env.GITHUB_WORKSPACE) ?? process.cwd(),
      repo: splitRepository(io.env.GITHUB_REPOSITORY) ?? null,
      contents: () => contentsApi(ctx, inputs),
      today
    },
    inputs.acceptedRisksFile,
    scope
  )
  if (accepted.source !== null)
    io.log.info(
      `Accepted risks: ${accepted.entries.length} entr${accepted.entries.length === 1 ? 'y' : 'ies'} of ${accepted.path} read from ${accepted.source}.`
    )
  return accepted
}

/** The GitHub client the accepted-risks file is read with. */
function contentsApi(ctx: StepContext, inputs: ActionInputs): ReturnType<ReadAcceptedDeps['contents']> {
  if (inputs.githubToken === '')
    throw new ConfigError(
      'github_token',
      'is empty: the accepted-risks file is read through the GitHub API (at the base SHA on a pull request, else at GITHUB_SHA); leave github_token at its default'
    )
  return createGitHubClient({
    token: inputs.githubToken,
    apiUrl: nonEmpty(ctx.io.env.GITHUB_API_URL) ?? 'https://api.github.com',
    clock: ctx.clock,
    deadline: Deadline.after(ctx.clock, SIDE_CALL_BUDGET_MS),
    signal: ctx.signal,
    log: ctx.io.log,
    random: ctx.random
  })
}
