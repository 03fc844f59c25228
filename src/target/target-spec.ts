/**
 * What the workflow says about the agent to assess: either a `model_id`
 * already in the inventory, or an endpoint to find or register (section 2.2).
 * Read and validated by src/action/inputs/read-inputs.ts; used by resolve-target.ts.
 */
import type { AuthType, OAuthConfig } from '../service/contract/index.js'

export type TargetEnvironment = 'prod' | 'staging' | 'dev'
export type TargetTransport = 'http' | 'websocket'

export interface EndpointTarget {
  /** The agent's endpoint URL, as given (the service probes it live). */
  endpointUrl: string
  /** target_name; null: the default name of the event (defaultTargetName). */
  name: string | null
  /** null: left to the service (staging). */
  environment: TargetEnvironment | null
  authType: AuthType
  /** The target's credential (masked at once; never logged). null for auth_type none. */
  credential: string | null
  oauth: OAuthConfig | null
  responseField: string
  transport: TargetTransport
  /** Seconds; null: the service's default. */
  requestTimeout: number | null
}

export type TargetInput = { kind: 'model'; modelId: string } | { kind: 'endpoint'; endpoint: EndpointTarget }

/** How the model to assess was obtained. */
export type TargetOutcome = 'given' | 'registered' | 'reused'

export interface ResolvedTarget {
  modelId: string
  /** The inventory name (null when a model_id was given and not looked up). */
  name: string | null
  outcome: TargetOutcome
  /** Host of the endpoint (as the service reports it, or of the URL given). */
  endpointHost: string | null
  /** Set when the name's model points at another host, so a new one was registered or reused under `name`. */
  movedFrom: { name: string; modelId: string; endpointHost: string } | null
}
