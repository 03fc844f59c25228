/** Section 2.7: a target's profile, its change and confirm bodies (4.12 to 4.14). */
import { z } from 'zod'
import { Timestamp } from './enums.js'
import { UNTRUSTED_FENCE_PREFIX } from './limits.js'
/** 2.7 Profile. */
export const PROFILE_ANSWER_FIELDS = [
  'purpose',
  'industry',
  'system_prompt',
  'user_access',
  'test_account',
  'public_data',
  'has_guardrails',
  'multi_agent',
  'has_persistent_memory'
] as const
export const PROFILE_LIST_FIELDS = [
  'tools',
  'user_types',
  'forbidden_actions',
  'sensitive_data_types',
  'forbidden_data',
  'example_identifiers',
  'compliance_requirements',
  'forbidden_topics'
] as const

export const Dismissal = z.looseObject({
  finding_id: z.string(),
  category: z.string(),
  reason_code: z.string(),
  reason_text: z.string(),
  created_at: Timestamp
})
export type Dismissal = z.infer<typeof Dismissal>

export const ProfileResponse = z.looseObject({
  model_id: z.string(),
  profile_id: z.string(),
  name: z.string(),
  version: z.number().int(),
  safety_notice: z.string(),
  /** ASSUMPTION: item structure not shown; values kept as-is. */
  answers: z.record(z.string(), z.unknown()),
  lists: z.record(z.string(), z.unknown()),
  dismissals: z.array(Dismissal)
})
export type ProfileResponse = z.infer<typeof ProfileResponse>

/** A text value written to a profile must not still hold an untrusted-content fence. */
const unfencedText = z
  .string()
  .refine((s) => !s.includes(UNTRUSTED_FENCE_PREFIX), { message: 'value still holds an untrusted-content fence' })

export const ProfileTool = z.strictObject({
  name: unfencedText,
  description: unfencedText,
  parameters: z.record(z.string(), z.unknown())
})
export const ProfileUserType = z.strictObject({
  name: unfencedText,
  auth_level: unfencedText,
  description: unfencedText
})

/** Writable content fields of a profile change (section 2.7). */
export const ProfileChanges = z.strictObject({
  system_prompt: unfencedText.nullable().optional(),
  purpose: unfencedText.optional(),
  user_access: unfencedText.nullable().optional(),
  test_account: unfencedText.nullable().optional(),
  public_data: unfencedText.nullable().optional(),
  tools: z.array(ProfileTool).optional(),
  user_types: z.array(ProfileUserType).optional(),
  forbidden_actions: z.array(unfencedText).optional(),
  sensitive_data_types: z.array(unfencedText).optional(),
  forbidden_data: z.array(unfencedText).optional(),
  example_identifiers: z.array(unfencedText).optional(),
  compliance_requirements: z.array(unfencedText).optional(),
  forbidden_topics: z.array(unfencedText).optional(),
  has_guardrails: z.boolean().optional(),
  multi_agent: z.boolean().nullable().optional(),
  has_persistent_memory: z.boolean().nullable().optional()
})
export type ProfileChanges = z.infer<typeof ProfileChanges>

/** Body of PATCH /api/v1/model/{id}/profile. version and profile_id go together. */
export const ChangeProfileBody = z
  .strictObject({
    changes: ProfileChanges,
    version: z.number().int().nonnegative().optional(),
    profile_id: z.string().min(1).optional()
  })
  .superRefine((body, ctx) => {
    if ((body.version === undefined) !== (body.profile_id === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['version'], message: 'version and profile_id are given together or not at all' })
    }
  })
export type ChangeProfileBody = z.infer<typeof ChangeProfileBody>

/** Body of POST /api/v1/model/{id}/profile/confirm. */
export const ConfirmProfileBody = z.strictObject({
  version: z.number().int().nonnegative(),
  profile_id: z.string().min(1),
  answers: z.array(z.string()).default([]),
  items: z.record(z.string(), z.array(z.string())).default({})
})
export type ConfirmProfileBody = z.input<typeof ConfirmProfileBody>

export const ProfileWriteResponse = z.looseObject({
  model_id: z.string(),
  profile_id: z.string(),
  version: z.number().int()
})
export type ProfileWriteResponse = z.infer<typeof ProfileWriteResponse>
