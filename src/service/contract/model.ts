/** Section 2.1 and 2.2: the inventory (GET /model) and target registration (POST /model). */
import { z } from 'zod'
import { AuthType, Environment, Transport } from './enums.js'
import { LIMITS } from './limits.js'
/** 2.1 Model (inventory list item). */
export const ModelListItem = z.looseObject({
  model_id: z.string(),
  name: z.string(),
  model_type: z.string(),
  environment: z.string(),
  has_agent_config: z.boolean(),
  /** ASSUMPTION: null for a model that has never run. */
  latest_run_status: z.string().nullable(),
  endpoint_host: z.string()
})
export type ModelListItem = z.infer<typeof ModelListItem>

/** 2.2 Agent config. Further fields are not shown, so the object is loose. */
export const AgentConfig = z.looseObject({
  endpoint_url: z.string().min(1),
  response_field: z.string().min(1),
  transport: Transport.default('http'),
  /** ASSUMPTION: seconds. */
  request_timeout: z.number().positive().max(LIMITS.requestTimeoutMax).optional()
})
export type AgentConfig = z.infer<typeof AgentConfig>

export const OAuthConfig = z.strictObject({
  token_url: z.string().min(1),
  client_id: z.string().min(1),
  scope: z.string().optional(),
  audience: z.string().optional()
})
export type OAuthConfig = z.infer<typeof OAuthConfig>

/** 2.2 Target registration input (body of POST /api/v1/model). */
export const RegisterModelBody = z
  .strictObject({
    name: z.string().min(LIMITS.targetNameMin).max(LIMITS.targetNameMax),
    config: AgentConfig,
    environment: Environment.default('staging'),
    auth_type: AuthType.default('none'),
    credential: z.string().min(LIMITS.credentialMin).nullable().optional(),
    oauth: OAuthConfig.nullable().optional()
  })
  .superRefine((body, ctx) => {
    const needsCredential = body.auth_type !== 'none'
    if (needsCredential && (body.credential === undefined || body.credential === null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['credential'],
        message: `credential is required when auth_type is ${body.auth_type}`
      })
    }
    if (!needsCredential && body.credential !== undefined && body.credential !== null) {
      ctx.addIssue({ code: 'custom', path: ['credential'], message: 'credential must be omitted when auth_type is none' })
    }
    if (body.auth_type === 'oauth_client_credentials' && !body.oauth) {
      ctx.addIssue({ code: 'custom', path: ['oauth'], message: 'oauth is required when auth_type is oauth_client_credentials' })
    }
    if (body.auth_type !== 'oauth_client_credentials' && body.oauth) {
      ctx.addIssue({ code: 'custom', path: ['oauth'], message: 'oauth is only accepted when auth_type is oauth_client_credentials' })
    }
  })
export type RegisterModelBody = z.input<typeof RegisterModelBody>

export const RegisterModelResponse = z.looseObject({
  model_id: z.string(),
  connected: z.literal(true)
})
export type RegisterModelResponse = z.infer<typeof RegisterModelResponse>

export const ModelList = z.looseObject({ models: z.array(ModelListItem) })
export type ModelList = z.infer<typeof ModelList>
