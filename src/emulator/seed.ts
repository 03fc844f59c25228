/**
 * What a fresh emulator holds: one demo model per workspace, each pointing at
 * the demo agent with its own credential (so a leak scan can tell them
 * apart), plus one model without agent config.
 */
import { randomBytes } from 'node:crypto'
import type { DemoAgent } from './demo-agent.js'
import { newId } from './ids.js'
import { demoProfile } from './profiles.js'
import type { ModelRecord, Store } from './store.js'
import { WORKSPACE_NAMES } from './workspaces.js'
import type { WorkspaceName } from './workspaces.js'

export interface SeededModels {
  /** The demo model of each workspace, by workspace. */
  demoModels: Record<WorkspaceName, string>
  noConfigModelId: string
}

function demoModel(workspace: WorkspaceName, chatUrl: string, credential: string): ModelRecord {
  return {
    model_id: newId('mdl'),
    workspace,
    name: 'Acme Support demo agent',
    model_type: 'agent',
    environment: 'staging',
    config: { endpoint_url: chatUrl, response_field: 'output.text', transport: 'http', request_timeout: 10 },
    auth_type: 'bearer',
    credential,
    oauth: null,
    created_at: new Date().toISOString(),
    trustedLoopback: true,
    ingestIncomplete: false,
    target: null
  }
}

function noConfigModel(): ModelRecord {
  return {
    model_id: newId('mdl'),
    workspace: 'full',
    name: 'Legacy FAQ bot (no agent config)',
    model_type: 'agent',
    environment: 'prod',
    config: null,
    auth_type: 'none',
    credential: null,
    oauth: null,
    created_at: new Date().toISOString(),
    trustedLoopback: false,
    ingestIncomplete: false,
    target: null
  }
}

export function seedModels(store: Store, demoAgent: DemoAgent): SeededModels {
  const demoModels = {} as Record<WorkspaceName, string>
  for (const ws of WORKSPACE_NAMES) {
    const credential = `demo-target-secret-${ws}-${randomBytes(8).toString('hex')}`
    demoAgent.acceptSecret(credential)
    store.credentials.add(credential)
    const model = demoModel(ws, demoAgent.chatUrl, credential)
    store.models.set(model.model_id, model)
    store.profiles.set(model.model_id, demoProfile(model.model_id, model.name))
    demoModels[ws] = model.model_id
  }
  const noConfig = noConfigModel()
  store.models.set(noConfig.model_id, noConfig)
  return { demoModels, noConfigModelId: noConfig.model_id }
}
