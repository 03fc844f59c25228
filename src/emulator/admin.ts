/**
 * Admin endpoints of the emulator under /__emulator/ (no auth: it is a local
 * test double on 127.0.0.1, answering only a loopback Host, see host-guard.ts;
 * they let other processes, e.g. the demo script and end-to-end tests running
 * the action as a child process, drive the emulator):
 *   GET  /__emulator/info         url, keys, demo model ids, demo agent url
 *   GET  /__emulator/demo-agent   demo agent state
 *   POST /__emulator/demo-agent   {vulnerable?: {category: bool}, all_vulnerable?, comply_probability?: {category: 0..1},
 *                                  seed?, available?, reply_delay_ms?}
 *   POST /__emulator/control      {exhaust_allowance?: {workspace: bool}, ingest_incomplete?: {model_id: bool},
 *                                  limits?: {...}, faults?: FaultConfig | "seed=..,rate=.." | null,
 *                                  category_duration_ms?: number, delete_profile?: model_id,
 *                                  race_profile?: {model_id: reads}}
 *   GET  /__emulator/runs         {runs: [...]} every run ever created
 *   GET  /__emulator/requests     {requests: [...]} the request log (?since=<index>)
 *   GET  /__emulator/credentials  {credentials: [...]} every target credential stored (for leak scans)
 */
import { z } from 'zod'
import { AgentSeed, ComplyProbabilities } from './demo-compliance.js'
import { FAULT_KINDS, parseFaultSpec } from './faults.js'
import type { FaultConfig } from './faults.js'
import type { HandlerResult } from './http-util.js'
import { HttpError, codedError, issuesToDetail, jsonBody, validationError } from './http-util.js'
import type { Emulator } from './emulator.js'
import { ENDPOINTS } from '../service/contract/index.js'
import { WORKSPACE_NAMES } from './workspaces.js'

const LimitsBody = z
  .strictObject({
    triggersPerMinute: z.number().int().nonnegative(),
    dailyAssessmentBudget: z.number().int().nonnegative(),
    validationConcurrency: z.number().int().nonnegative(),
    dailyReplayCap: z.number().int().nonnegative(),
    evaluationCeiling: z.number().int().nonnegative()
  })
  .partial()

const FaultConfigBody = z.strictObject({
  seed: z.number().int(),
  rate: z.number().min(0).max(1),
  endpoints: z.partialRecord(z.enum(Object.keys(ENDPOINTS) as [string, ...string[]]), z.number().min(0).max(1)).optional(),
  kinds: z.array(z.enum(FAULT_KINDS)).optional(),
  hangMs: z.number().int().nonnegative().optional(),
  retryAfterSeconds: z.number().int().nonnegative().optional(),
  burstLength: z.number().int().positive().optional(),
  maxFaults: z.number().int().nonnegative().optional()
})

const DemoAgentBody = z.strictObject({
  vulnerable: z.record(z.string(), z.boolean()).optional(),
  all_vulnerable: z.boolean().optional(),
  comply_probability: ComplyProbabilities.optional(),
  seed: AgentSeed.optional(),
  available: z.boolean().optional(),
  reply_delay_ms: z.number().int().nonnegative().optional()
})

const ControlBody = z.strictObject({
  exhaust_allowance: z.partialRecord(z.enum(WORKSPACE_NAMES), z.boolean()).optional(),
  ingest_incomplete: z.record(z.string(), z.boolean()).optional(),
  limits: LimitsBody.optional(),
  faults: z.union([FaultConfigBody, z.string(), z.null()]).optional(),
  category_duration_ms: z.number().int().nonnegative().optional(),
  delete_profile: z.string().optional(),
  race_profile: z.record(z.string(), z.number().int().nonnegative()).optional()
})

function parse<S extends z.ZodType>(schema: S, raw: string, contentType: string | undefined): z.infer<S> {
  const input = jsonBody(raw, contentType) ?? {}
  const r = schema.safeParse(input)
  if (!r.success) throw validationError(issuesToDetail('body', input, r.error.issues))
  return r.data
}

export function handleAdmin(
  emu: Emulator,
  method: string,
  path: string,
  search: URLSearchParams,
  raw: string,
  contentType: string | undefined
): HandlerResult {
  try {
    const route = `${method} ${path.replace(/\/$/, '')}`
    switch (route) {
      case 'GET /__emulator/info':
        return {
          status: 200,
          body: {
            url: emu.url,
            keys: emu.keys,
            demo_model_id: emu.demoModelId,
            demo_models: emu.demoModels,
            no_config_model_id: emu.noConfigModelId,
            demo_agent_url: emu.demoAgent.url
          }
        }
      case 'GET /__emulator/demo-agent':
        return { status: 200, body: emu.demoAgentState() }
      case 'POST /__emulator/demo-agent': {
        const b = parse(DemoAgentBody, raw, contentType)
        if (b.all_vulnerable !== undefined) emu.demoAgent.setAllVulnerable(b.all_vulnerable)
        for (const [cat, on] of Object.entries(b.vulnerable ?? {})) emu.demoAgent.setVulnerable(cat, on)
        for (const [cat, p] of Object.entries(b.comply_probability ?? {})) if (p !== undefined) emu.demoAgent.setComplyProbability(cat, p)
        if (b.seed !== undefined) emu.demoAgent.setSeed(b.seed)
        if (b.available !== undefined) emu.demoAgent.setAvailable(b.available)
        if (b.reply_delay_ms !== undefined) emu.demoAgent.setReplyDelayMs(b.reply_delay_ms)
        return { status: 200, body: emu.demoAgentState() }
      }
      case 'POST /__emulator/control': {
        const b = parse(ControlBody, raw, contentType)
        let faults: FaultConfig | null | undefined
        if (typeof b.faults === 'string') {
          try {
            faults = parseFaultSpec(b.faults)
          } catch (e) {
            throw validationError([{ loc: ['body', 'faults'], msg: (e as Error).message, type: 'value_error', input: b.faults, ctx: {} }])
          }
        } else faults = b.faults
        for (const [ws, on] of Object.entries(b.exhaust_allowance ?? {}))
          emu.control.exhaustAllowance(ws as (typeof WORKSPACE_NAMES)[number], on)
        for (const [id, on] of Object.entries(b.ingest_incomplete ?? {})) emu.control.setIngestIncomplete(id, on)
        if (b.limits) emu.control.setLimits(b.limits)
        if (faults !== undefined) emu.control.setFaults(faults)
        if (b.category_duration_ms !== undefined) emu.control.setCategoryDurationMs(b.category_duration_ms)
        if (b.delete_profile !== undefined) emu.control.deleteProfile(b.delete_profile)
        for (const [id, reads] of Object.entries(b.race_profile ?? {})) emu.control.raceProfile(id, reads)
        return { status: 200, body: { ok: true } }
      }
      case 'GET /__emulator/runs':
        return { status: 200, body: { runs: emu.control.runs() } }
      case 'GET /__emulator/requests': {
        const since = Number(search.get('since') ?? '0')
        return { status: 200, body: { requests: emu.requestLog.slice(Number.isFinite(since) ? since : 0), total: emu.requestLog.length } }
      }
      case 'GET /__emulator/credentials':
        return { status: 200, body: { credentials: emu.control.registeredCredentials() } }
      default:
        throw codedError(404, 'not_found', `no admin endpoint ${route}`)
    }
  } catch (e) {
    if (e instanceof HttpError) return e.result
    throw e
  }
}
