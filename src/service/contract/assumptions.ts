/**
 * Decisions taken where the API description says "not shown" (mirrored in
 * docs/api-assumptions.md; a test keeps the two in step). Each schema that
 * follows one of these says ASSUMPTION beside it.
 */
import { ERROR_CODES } from './error-bodies.js'
export const API_ASSUMPTIONS: readonly { topic: string; decision: string }[] = [
  {
    topic: 'run status body (GET /run/{id})',
    decision:
      'status, categories_planned, categories_completed required; verdict ("pass"/"fail") present and non-null only when min_severity was given and the status is terminal, else null or absent; run_id, model_id, started_at, completed_at sent by the emulator but optional and nullable on parse'
  },
  {
    topic: 'model of a baseline run (GET /run/{id} without model_id)',
    decision:
      'model_id is not promised there: a baseline run (baseline_run_id, or a run a record of the window names) is a run of the model only when GET /run/{id} names that model or, naming none, when GET /model/{model_id}/run?status=completed&limit=100 lists it (read once per window); a run naming another model or not listed is refused (baseline_run_id: configuration error; a recorded run: left out of the window)'
  },
  {
    topic: 'findings of an earlier run (GET /run/{id}/findings)',
    decision:
      "an earlier run's findings stay readable, every status included, and a finding's status there is the service's current word on it (fixed after a validation, dismissed); within a window the newest run that saw a fingerprint decides whether it is closed, and within one run an open finding beats a closed one"
  },
  {
    topic: 'run statuses',
    decision:
      'running, completed, error, cancelled are named; any other non-empty string (e.g. queued) is accepted and is not terminal: the gate keeps waiting and, at timeout_minutes, cancels the run and fails with error'
  },
  {
    topic: 'verdict rule',
    decision:
      'fail iff a finding of that run at or above min_severity has status open; on a cancelled/errored run only what it reached counts'
  },
  {
    topic: 'coverage body',
    decision:
      '{run_id, run_status, categories: [{category, attacks_blocked, attacks_succeeded, owasp, atlas, worst_severity}]}; run_id optional; worst_severity null when nothing got through; integers are counts of attacks'
  },
  {
    topic: 'coverage against the run and the findings',
    decision:
      'a category in categories_completed has a coverage row, else incomplete; a known run_status other than the run status: incomplete; a planned row whose worst_severity is at or above min_severity with no finding of that category at or above it (any status): error; the same for a category not planned: a note'
  },
  {
    topic: 'coverage or findings answering 409 after the status turned terminal',
    decision: 'the read side may lag: retried after 1 s, 2 s and 4 s, then the result is error'
  },
  {
    topic: 'error body (all but the two 422 shapes)',
    decision:
      '{"detail": {"code": "<snake_case>", "message": "<text>", ...extra}}; the client also accepts {"detail": "<text>"} and a non-JSON body'
  },
  {
    topic: 'error codes',
    decision: Object.entries(ERROR_CODES)
      .map(([status, codes]) => `${status} ${codes.join(', ')}`)
      .join('; ')
  },
  {
    topic: 'Retry-After',
    decision:
      'integer seconds from the emulator; the client also accepts an HTTP-date; a 429 is never retried sooner than 1 s, 2 s, 4 s... (up to 15 s) after the previous attempt, whatever it says (0, a date in the past, or none)'
  },
  {
    topic: 'a 409 on POST /run',
    decision:
      'whatever its code (or none): an assessment of the model is already active; the gate waits for the running run it lists, or, when the list shows none running, waits 2 s, 4 s... up to 15 s between attempts'
  },
  {
    topic: 'a 403 on POST /run with a code not listed here (or none)',
    decision: 'a service refusal (allowance, ceiling or scope, as its message says), reported as a service failure, not as a wrong key'
  },
  {
    topic: 'a 404 on GET /run/{id} of a run this step just created',
    decision:
      'the read side may lag: tried again after 1 s, 2 s and 4 s before the first successful read; later, a 404 ends the wait (the run is cancelled, the result is error)'
  },
  {
    topic: 'cancel 202 body',
    decision:
      'the emulator sends {run_id, status: "running", cancel_requested: true}; the client accepts any body (empty, any JSON, not JSON): the 202 alone means the cancel was recorded'
  },
  {
    topic: 'finding statuses',
    decision:
      'open, fixed, dismissed, FIXED_VERIFIED are named; any other non-empty string is accepted. A finding at or above min_severity counts as open unless its status is fixed, dismissed or FIXED_VERIFIED, both for a verdict computed locally and for the check that overrides a service pass (fail closed: a pass beside an unknown status is not trusted). A validation that ends still_broken sets it back to open'
  },
  {
    topic: 'attack last_replay_status',
    decision: 'the emulator uses pending, reproduced, not_reproduced, inconclusive; any string is accepted'
  },
  {
    topic: 'replay step headers',
    decision:
      'an object whose values are strings, numbers, booleans, null or arrays of those; shown as text (arrays joined with ", "); credential-like names redacted whatever the value type'
  },
  { topic: 'request_timeout unit', decision: 'seconds' },
  { topic: 'stale or recreated profile version', decision: '409 stale_version; the action reads and diffs again, 3 attempts in all' },
  { topic: 'body of POST /run', decision: 'model_id required; categories optional (omitted: the full taxonomy)' },
  { topic: 'latest_run_status of a model that never ran', decision: 'null' },
  { topic: 'last_replayed_at of an attack never replayed', decision: 'null' },
  { topic: 'completed_at of a running run (list item)', decision: 'null' },
  {
    topic: 'replay step fields',
    decision: 'only step is always present; the others may be absent or null depending on the step kind'
  },
  {
    topic: 'profile answers and list items',
    decision:
      "an entry is the value itself or an object {value, source, ...}; source customer means already the customer's (not confirmed again)"
  },
  {
    topic: 'fenced text',
    decision: '[UNTRUSTED:<tag>]text[/UNTRUSTED:<tag>]; a string of another shape holding a fence tag compares unequal to every file value'
  },
  { topic: 'GET profile of a target without one', decision: '404' },
  { topic: "a moved target's name", decision: '<name> (moved to <host>), at most 200 characters' },
  { topic: 'endpoint_host', decision: "compared case-insensitively with the URL's host, with or without its port" },
  { topic: 'request bodies', decision: 'unknown fields are refused with 422 (detail list)' },
  {
    topic: 'categories_planned of a full-taxonomy run',
    decision:
      'the keys of GET /category?lens=security, in any order; in an evaluation workspace (that list withheld, categories refused) every run is a full assessment. Used only to tell whether a run that appeared after a lost trigger answer is the one this step asked for: when the list cannot be read, the run is not taken (error)'
  },
  {
    topic: 'nesting depth of a response body',
    decision:
      'at most 64 levels of arrays and objects: a deeper 2xx body is malformed (retried, then error); a deeper error body is read as its status alone'
  },
  {
    topic: 'finding fingerprint (baseline, SARIF)',
    decision:
      'sha-256 (32 hex, rule version 2) of category, lens, severity and the technique: the sorted attack sources assessment_id:attack_index whose assessment_id is not the run that produced the finding, and always the description normalized (NFKC, lower case; every token holding a digit or 8 hex digits, every count word and once/twice as #; punctuation and quotes as spaces; articles dropped, plurals as singular); never ids, counts or timestamps, so two unrelated weaknesses found by one library attack differ'
  }
]
