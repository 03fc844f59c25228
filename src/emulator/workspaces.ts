/**
 * The documented dev keys (fixed, so scripts can rely on them) and the
 * workspaces they resolve to.
 */
import { SCOPE_TEST_RUN } from '../service/contract/index.js'

export const WORKSPACE_NAMES = ['full', 'other', 'trial', 'redacted', 'readonly'] as const
export type WorkspaceName = (typeof WORKSPACE_NAMES)[number]

export const DEV_KEYS = {
  full: 'asas_dev_full',
  other: 'asas_dev_other',
  trial: 'asas_dev_trial',
  redacted: 'asas_dev_redacted',
  readonly: 'asas_dev_readonly'
} as const

export interface WorkspacePlan {
  name: WorkspaceName
  key: string
  scopes: ReadonlySet<string>
  /** Evaluation workspace: full assessments only, no taxonomy, an evaluation ceiling. */
  trial: boolean
  /** The plan withholds the proof of findings. */
  proofWithheld: boolean
}

const ALL_SCOPES = [SCOPE_TEST_RUN, 'test:read', 'model:read', 'model:write', 'finding:write', 'profile:read', 'profile:write']

export const WORKSPACE_PLANS: Record<WorkspaceName, WorkspacePlan> = {
  full: { name: 'full', key: DEV_KEYS.full, scopes: new Set(ALL_SCOPES), trial: false, proofWithheld: false },
  other: { name: 'other', key: DEV_KEYS.other, scopes: new Set(ALL_SCOPES), trial: false, proofWithheld: false },
  trial: { name: 'trial', key: DEV_KEYS.trial, scopes: new Set(ALL_SCOPES), trial: true, proofWithheld: false },
  redacted: { name: 'redacted', key: DEV_KEYS.redacted, scopes: new Set(ALL_SCOPES), trial: false, proofWithheld: true },
  readonly: {
    name: 'readonly',
    key: DEV_KEYS.readonly,
    scopes: new Set(ALL_SCOPES.filter((s) => s !== SCOPE_TEST_RUN)),
    trial: false,
    proofWithheld: false
  }
}

/** The workspace of `Authorization: Bearer <key>`, or null (401). */
export function workspaceForAuthorization(header: string | undefined): WorkspacePlan | null {
  if (!header) return null
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!m) return null
  return Object.values(WORKSPACE_PLANS).find((w) => w.key === m[1]) ?? null
}

export function isWorkspaceName(s: string): s is WorkspaceName {
  return (WORKSPACE_NAMES as readonly string[]).includes(s)
}
