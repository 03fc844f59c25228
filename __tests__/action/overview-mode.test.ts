import { describe, expect, it } from '@jest/globals'
import { isOverviewMode, readInputs, readOverviewInputs } from '../../src/action/inputs/read-inputs.js'
import { OVERVIEW_RESULT } from '../../src/action/stages/report-overview.js'
import { overviewStepResult } from '../../src/decision/step-result.js'
import { ConfigError } from '../../src/util/errors.js'

const KEY = 'k'.repeat(40)
const reader =
  (values: Record<string, string>) =>
  (name: string): string =>
    values[name] ?? ''

describe('mode: overview inputs', () => {
  it('reads the service, the policy and where to write, with no target', () => {
    const get = reader({ mode: 'overview', api_key: KEY, base_url: 'https://asas.example.com', evidence_max_age_days: '14' })
    expect(isOverviewMode(get)).toBe(true)
    expect(readOverviewInputs(get)).toMatchObject({ mode: 'overview', apiKey: KEY, evidenceMaxAgeDays: 14, minSeverity: 'high' })
  })

  it.each(['model_id', 'endpoint_url'])('refuses %s, naming it', (name) => {
    const get = reader({ mode: 'overview', api_key: KEY, base_url: 'https://asas.example.com', [name]: 'x' })
    expect(() => readOverviewInputs(get)).toThrow(ConfigError)
    try {
      readOverviewInputs(get)
    } catch (err) {
      expect((err as ConfigError).input).toBe(name)
    }
  })

  it('refuses an empty api_key as every mode does', () => {
    expect(() => readOverviewInputs(reader({ mode: 'overview', base_url: 'https://asas.example.com' }))).toThrow(/api_key|is empty/)
  })

  it('is not read as a gate: readInputs refuses it rather than ask for a target', () => {
    expect(() => readInputs(reader({ mode: 'overview', api_key: KEY, base_url: 'https://asas.example.com' }))).toThrow(/overview/)
  })
})

describe('the overview step passes only when the page is clear', () => {
  it.each([
    ['clear', 'pass', 'pass'],
    ['attention', 'fail', 'fail'],
    ['incomplete', 'fail', 'incomplete']
  ] as const)('%s: the step %s, result %s', (status, outcome, result) => {
    expect(overviewStepResult({ status, headline: 'h' }, { cancelled: false }).outcome).toBe(outcome)
    expect(OVERVIEW_RESULT[status]).toBe(result)
  })

  it('a cancelled step never passes', () => {
    expect(overviewStepResult({ status: 'clear', headline: 'h' }, { cancelled: true })).toMatchObject({
      outcome: 'fail',
      resultOutput: 'error'
    })
  })
})
