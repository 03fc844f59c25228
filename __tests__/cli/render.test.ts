import { describe, expect, it } from '@jest/globals'
import type { EndOutcome, StepOutcome } from '../../src/action/outcome.js'
import { liveText } from '../../src/cli/live-view.js'
import { flagOf, inputEnv, ASSESS_OPTIONS } from '../../src/cli/options.js'
import { EXIT_CODES, exitCode, humanSummary, outcomeJson } from '../../src/cli/render.js'
import { flagNamer } from '../../src/cli/run-step.js'

const assessed: EndOutcome = {
  kind: 'assessed',
  result: 'fail',
  runId: 'run_1',
  status: 'completed',
  serviceVerdict: 'fail',
  findingsCount: 2,
  categoriesPlanned: ['a'],
  categoriesCompleted: ['a'],
  files: {
    report_path: '/r/x.json',
    sarif_path: '/r/x.sarif',
    junit_path: '/r/x.junit.xml',
    markdown_path: '/r/x.md',
    codequality_path: '/r/x.codequality.json'
  },
  baseline: null,
  acceptedCount: 0,
  assessmentsSpent: 1,
  commentUrl: null,
  bySeverity: { critical: 0, high: 1, medium: 1, low: 0 },
  agentName: 'Acme Support agent',
  blocking: [
    {
      findingId: 'f1',
      severity: 'high',
      category: 'prompt_injection',
      description: 'complied\nwith 3 probes',
      baselineState: null,
      reproduced: true,
      seen: 'this run only'
    }
  ]
}

function outcome(end: EndOutcome, result = end.result): StepOutcome {
  return {
    end,
    prepared: { modelId: 'mdl_1', target: null, profileVersion: null },
    result,
    conclusion: { outcome: 'fail', line: `Result: ${result}` }
  }
}

describe('exit codes', () => {
  it.each([
    ['pass', 0],
    ['skipped', 0],
    ['fail', 1],
    ['incomplete', 2],
    ['error', 3]
  ] as const)('%s exits %i', (result, code) => {
    expect(EXIT_CODES[result]).toBe(code)
  })

  it('a carried-over pass exits 0, a step cancelled after its result 3', () => {
    expect(exitCode(outcome({ kind: 'carried_over', result: 'pass', reportPath: '/r', assessmentsSpent: 0, commentUrl: null }))).toBe(0)
    expect(exitCode(outcome({ ...assessed, result: 'pass' }, 'error'))).toBe(3)
  })
})

describe('the end of a run, for a person and for a script', () => {
  it('says the verdict first, then the blocking findings (one line each), then where the reports are', () => {
    const lines = humanSummary(outcome(assessed))
    // The agent by its name with the id beside it, and what blocks: no "FAIL ...: Result: fail" echo.
    expect(lines[0]).toBe('FAIL Acme Support agent (mdl_1): 1 finding blocks')
    const blocking = lines.indexOf('Blocking findings (1):')
    expect(lines[blocking + 1]).toBe('  HIGH     prompt_injection: complied with 3 probes')
    expect(lines.indexOf('Reports:')).toBeGreaterThan(blocking)
    expect(lines.slice(-5)).toEqual(['  /r/x.json', '  /r/x.sarif', '  /r/x.junit.xml', '  /r/x.md', '  /r/x.codequality.json'])
  })

  it('gives a script the result, its exit code and every output under its name', () => {
    const json = JSON.parse(outcomeJson(outcome(assessed))) as Record<string, unknown>
    expect(json).toMatchObject({
      result: 'fail',
      exit_code: 1,
      kind: 'assessed',
      model_id: 'mdl_1',
      findings_count: 2,
      sarif_path: '/r/x.sarif'
    })
    expect(json).not.toHaveProperty('resolved_count')
  })
})

describe('the live view', () => {
  it('shows categories done of planned, the elapsed and the estimated time left', () => {
    const text = liveText(
      'Assessing',
      { runId: 'run_1', status: 'running', planned: 10, completed: 4, elapsedMs: 0, estimatedEndMs: 20_000 },
      12_000,
      0,
      0
    )
    expect(text).toContain('4/10 categories done')
    expect(text).toContain('12 s elapsed, about 8 s left')
    expect(text).toContain('[##########--------------]')
  })

  it('says it is preparing before the run exists', () => {
    expect(liveText('Assessing', null, 3_000, 0, 1)).toBe('/ Assessing: preparing (3 s)')
  })
})

describe('options', () => {
  it('are the inputs in kebab-case, and a configuration error names the flag and its variable', () => {
    expect(flagOf('min_severity')).toBe('--min-severity')
    expect(flagNamer(ASSESS_OPTIONS)('api_key')).toBe("option '--api-key' (or ASAS_API_KEY)")
    expect(flagNamer(ASSESS_OPTIONS)('fail_on')).toBe("option '--fail-on'")
  })

  it('become the step inputs, the key from the environment unless given, nothing of GitHub', () => {
    const env = inputEnv(ASSESS_OPTIONS, { modelId: 'm', minSeverity: 'low' }, { ASAS_API_KEY: 'k', GITHUB_TOKEN: 'ghs' }, { mode: 'gate' })
    expect(env).toMatchObject({
      INPUT_MODEL_ID: 'm',
      INPUT_MIN_SEVERITY: 'low',
      INPUT_API_KEY: 'k',
      INPUT_MODE: 'gate',
      INPUT_COMMENT: 'off'
    })
    expect(Object.keys(env).filter((k) => k.startsWith('GITHUB_') && k !== 'GITHUB_WORKSPACE')).toEqual([])
  })
})
