/**
 * Every response schema of the contract names exactly the fields the API
 * description documents. Responses parse with loose objects (unknown keys pass
 * through), so a schema entry deleted by mistake still parses, the field still
 * reaches the code untyped, and no other test notices: only this list does.
 * The fields below are data copied from the API description (the section in
 * each comment); where it says "not shown", the fields of the ASSUMPTION in
 * src/service/contract/assumptions.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { z } from 'zod'
import * as contract from '../../src/service/contract/index.js'

/** Schema name in src/service/contract/ -> its fields, as documented. */
const DOCUMENTED: Record<string, readonly string[]> = {
  // 2.1 Model (inventory list item).
  ModelListItem: ['model_id', 'name', 'model_type', 'environment', 'has_agent_config', 'latest_run_status', 'endpoint_host'],
  // 4.6: models.
  ModelList: ['models'],
  // 2.2 Agent config: the named fields ("further fields: not shown").
  AgentConfig: ['endpoint_url', 'response_field', 'transport', 'request_timeout'],
  // 4.7: the 201 of POST /model.
  RegisterModelResponse: ['model_id', 'connected'],
  // 2.3 Trigger response.
  TriggerRunResponse: ['run_id', 'model_id', 'status', 'started_at'],
  // 2.3 Run status response: status, categories_planned, categories_completed, verdict; ASSUMPTION: the other four.
  RunStatusResponse: [
    'run_id',
    'model_id',
    'status',
    'started_at',
    'completed_at',
    'categories_planned',
    'categories_completed',
    'verdict'
  ],
  // 2.3 Run list item.
  RunListItem: ['run_id', 'status', 'started_at', 'findings_count', 'ingest_incomplete', 'categories_planned', 'completed_at'],
  // 4.5: runs, total, returned.
  RunList: ['runs', 'total', 'returned'],
  // 2.3 Coverage: names not shown; ASSUMPTION "coverage body".
  CoverageRow: ['category', 'attacks_blocked', 'attacks_succeeded', 'owasp', 'atlas', 'worst_severity'],
  CoverageResponse: ['run_id', 'run_status', 'categories'],
  // 4.4: the 202 body is not shown; ASSUMPTION: the emulator's.
  CancelRunAccepted: ['run_id', 'status', 'cancel_requested'],
  // 2.4 Finding.
  Finding: ['finding_id', 'lens', 'category', 'severity', 'description', 'expected_behavior', 'status', 'created_at', 'attacks'],
  // 4.8: findings, count.
  FindingList: ['findings', 'count'],
  // 2.5 Attack, source and replay step.
  Attack: ['attack_id', 'score', 'source', 'replay_script', 'last_replay_status', 'created_at', 'last_replayed_at'],
  AttackSource: ['source_type', 'assessment_id', 'attack_index', 'date'],
  ReplayStep: [
    'step',
    'message',
    'response',
    'session_id',
    'method',
    'url',
    'headers',
    'body',
    'response_status',
    'response_body',
    'target',
    'assertion',
    'expected_behavior',
    'capture_as'
  ],
  // 4.10: the 200 of POST /findings/{id}/validate.
  ValidateFindingResponse: ['finding_id', 'replay_run_id', 'verdict', 'finding'],
  // 2.6 Category: the item and the list.
  Category: ['key', 'display_name', 'description'],
  CategoryList: ['categories', 'lens'],
  // 2.7 Profile: the read response and a dismissal.
  ProfileResponse: ['model_id', 'profile_id', 'name', 'version', 'safety_notice', 'answers', 'lists', 'dismissals'],
  Dismissal: ['finding_id', 'category', 'reason_code', 'reason_text', 'created_at'],
  // 4.13 and 4.14: model_id, profile_id, version.
  ProfileWriteResponse: ['model_id', 'profile_id', 'version'],
  // 2.8 Validation error body.
  ValidationIssue: ['loc', 'msg', 'type', 'input', 'ctx'],
  ValidationErrorBody: ['detail'],
  // 4.7: the probe failure's 422.
  ProbeFailureBody: ['detail'],
  'ProbeFailureBody.detail': ['error', 'error_category', 'message'],
  // 7: other error bodies not shown; ASSUMPTION "error bodies".
  CodedErrorBody: ['detail'],
  'CodedErrorBody.detail': ['code', 'message'],
  TextErrorBody: ['detail']
}

type Shaped = z.ZodObject<z.ZodRawShape>

/** A loose object (unknown keys kept): the schemas a deleted entry would not break. */
function isLoose(value: unknown): value is Shaped {
  return value instanceof z.ZodObject && value.def.catchall instanceof z.ZodUnknown
}

/** Every loose object the contract exports, and those written inline in one's fields (`ProbeFailureBody.detail`), by name. */
function looseSchemas(): Map<string, Shaped> {
  const exported = Object.entries(contract as Record<string, unknown>).filter((e): e is [string, Shaped] => isLoose(e[1]))
  const named = new Set<unknown>(exported.map(([, schema]) => schema))
  const found = new Map<string, Shaped>(exported)
  for (const [name, schema] of exported) {
    for (const [key, field] of Object.entries(schema.shape)) if (isLoose(field) && !named.has(field)) found.set(`${name}.${key}`, field)
  }
  return found
}

describe('the contract names the documented fields of each resource', () => {
  const schemas = looseSchemas()

  it.each(Object.keys(DOCUMENTED))('%s', (name) => {
    const schema = schemas.get(name)
    expect(schema).toBeDefined()
    expect(Object.keys(schema?.shape ?? {}).sort()).toEqual([...DOCUMENTED[name]].sort())
  })

  it('lists every loose schema of the contract (a new resource gets its documented fields here)', () => {
    expect([...schemas.keys()].sort()).toEqual(Object.keys(DOCUMENTED).sort())
  })
})
