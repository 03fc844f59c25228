/**
 * The inputs table (src/action/inputs/table.ts) is the one declaration of an
 * input: action.yml's inputs and README's table are written from it and up
 * to date, INPUT_DEFAULTS and the command line's options come from it, each
 * entry is a command-line option or says why not, its default is in its
 * range, and the range its texts show is the one its parser holds. A new
 * entry, and nothing else, reaches every one of those places.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { INPUT_DEFAULTS, readInputs } from '../../src/action/inputs/read-inputs.js'
import {
  boolean,
  choice,
  defineInput,
  fillRange,
  plainSummary,
  readFields,
  wholeNumber,
  type AnyInputSpec
} from '../../src/action/inputs/spec.js'
import { INPUT_TABLE } from '../../src/action/inputs/table.js'
import { commandOptions, flagOf } from '../../src/cli/options.js'
import { runCli } from '../../src/cli/program.js'
import { metaLine } from '../../src/report/markdown-headline.js'
import type { ReportInput } from '../../src/report/report-model.js'
import { ConfigError } from '../../src/util/errors.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { actionYmlInputs, readmeInputsTable, withActionInputs, withReadmeInputs } from '../../scripts/input-docs.js'

const TABLE = INPUT_TABLE as readonly AnyInputSpec[]
const read = (file: string): string => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')

function configError(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (e) {
    if (e instanceof ConfigError) return e
    throw e
  }
  throw new Error('expected a ConfigError')
}

describe('the inputs table', () => {
  it('names each input once, each field once', () => {
    const names = TABLE.map((s) => s.name)
    expect(new Set(names).size).toBe(names.length)
    const fields = TABLE.flatMap((s) => (s.field === null ? [] : [s.field]))
    expect(new Set(fields).size).toBe(fields.length)
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
  })

  it.each(TABLE.map((s) => [s.name, s] as const))('%s is a command-line option or says why it is not one', (_name, spec) => {
    if ('none' in spec.cli) {
      expect(spec.cli.none.length).toBeGreaterThan(20)
      expect(
        commandOptions('assess')
          .concat(commandOptions('validate'))
          .map((o) => o.input)
      ).not.toContain(spec.name)
    } else {
      expect(spec.cli.commands.length).toBeGreaterThan(0)
      expect(spec.cli.value).toMatch(/^[a-z]+$/)
      for (const command of spec.cli.commands) expect(commandOptions(command).map((o) => o.input)).toContain(spec.name)
    }
  })

  it.each(TABLE.map((s) => [s.name, s] as const))('%s: its default is in its range, and what is required has none', (name, spec) => {
    if (spec.required === true || spec.runnerDefault !== undefined) expect(spec.default).toBe('')
    if (spec.required === true) {
      expect(configError(() => spec.parser.parse('', name)).input).toBe(name)
      return
    }
    expect(() => spec.parser.parse(spec.default, name)).not.toThrow()
    const range = spec.parser.range
    if (Array.isArray(range) && spec.default !== '') expect(range).toContain(spec.default)
  })

  it.each(TABLE.filter((s) => Array.isArray(s.parser.range)).map((s) => [s.name, s] as const))(
    '%s takes exactly the values its texts list, and a mistake names it',
    (name, spec) => {
      const values = spec.parser.range as readonly string[]
      for (const v of values) expect(() => spec.parser.parse(v, name)).not.toThrow()
      for (const v of values) expect(() => spec.parser.parse(v.toUpperCase(), name)).not.toThrow()
      const err = configError(() => spec.parser.parse('no-such-value', name))
      expect(err.input).toBe(name)
    }
  )

  it.each(TABLE.filter((s) => typeof s.parser.range === 'string' && /^\d+ to \d+$/.test(s.parser.range)).map((s) => [s.name, s] as const))(
    '%s takes the whole numbers its texts say, no others',
    (name, spec) => {
      const [min, max] = (spec.parser.range as string).split(' to ').map(Number)
      expect(spec.parser.parse(String(min), name)).toBe(min)
      expect(spec.parser.parse(String(max), name)).toBe(max)
      for (const bad of [min - 1, max + 1, `${min}.5`])
        expect(configError(() => spec.parser.parse(String(bad), name)).message).toContain(`from ${min} to ${max}`)
    }
  )

  it('every text that shows {range} has a parser with one', () => {
    for (const spec of TABLE)
      for (const text of [spec.description, spec.summary]) {
        const filled = fillRange(spec, text, true)
        expect([spec.name, filled.includes('{range}')]).toEqual([spec.name, false])
      }
    expect(
      fillRange(
        TABLE.find((s) => s.name === 'max_runs')!,
        '{range}',
        false
      )
    ).toBe('1 to 100')
  })

  it.each([
    [{ model_id: 'm', api_key: 'asas_dev_0123', min_severity: 'urgent' }, 'min_severity'],
    [{ model_id: 'm', api_key: 'asas_dev_0123', fail_on_incomplete: 'maybe' }, 'fail_on_incomplete'],
    [{ model_id: 'm', min_severity: 'urgent' }, 'api_key'],
    [{ model_id: 'm', api_key: 'asas_dev_0123', profile_file: 'a\u0001', min_severity: 'urgent' }, 'profile_file'],
    [{ model_id: 'a/b', merge_group: 'later' }, 'merge_group'],
    [{ model_id: 'a/b', api_key: '' }, 'model_id'],
    [{ model_id: 'm', api_key: 'asas_dev_0123', timeout_minutes: 'soon' }, 'base_url']
  ])('names the first mistake in the order a user fixes them (%j: %s)', (values: Record<string, string>, first) => {
    expect(configError(() => readInputs((name) => values[name] ?? '')).input).toBe(first)
  })

  it('gives INPUT_DEFAULTS: the default of every input that is not required and not evaluated by the runner', () => {
    const expected = Object.fromEntries(
      TABLE.filter((s) => s.required !== true && s.runnerDefault === undefined).map((s) => [s.name, s.default])
    )
    expect(INPUT_DEFAULTS).toEqual(expected)
    expect(INPUT_DEFAULTS).toMatchObject({ min_severity: 'high', timeout_minutes: '60', max_runs: '20', evidence_runs: '5' })
  })
})

describe('what is written from the table', () => {
  const action = parse(read('action.yml')) as { inputs: Record<string, { description: string; required: boolean; default?: string }> }

  it('action.yml is up to date (node build/scripts/input-docs.js writes it)', () => {
    expect(withActionInputs(read('action.yml'))).toBe(read('action.yml'))
    expect(Object.keys(action.inputs)).toEqual(TABLE.map((s) => s.name))
    for (const spec of TABLE)
      expect(action.inputs[spec.name]).toEqual({
        description: fillRange(spec, spec.description, false),
        required: spec.required === true,
        ...(spec.required === true ? {} : { default: spec.runnerDefault ?? spec.default })
      })
    expect(action.inputs.github_token.default).toBe('${{ github.token }}')
  })

  it("README's inputs table is up to date", () => {
    expect(withReadmeInputs(read('README.md'))).toBe(read('README.md'))
    expect(read('README.md')).toContain(readmeInputsTable())
    expect(readmeInputsTable()).toContain('| `max_runs` | `20` | validate mode: recent runs searched for fixed findings (1 to 100) |')
  })

  it('docs/command-line.md names every input that is no option', () => {
    const text = read('docs/command-line.md')
    expect(TABLE.filter((s) => 'none' in s.cli && !text.includes(`\`${s.name}\``)).map((s) => s.name)).toEqual([])
  })

  it('--help of each command lists the flags of the inputs the table gives it, with their defaults', async () => {
    for (const command of ['assess', 'validate'] as const) {
      const out = { text: '', write: (t: string) => ((out.text += t), true) }
      const err = { text: '', write: (t: string) => ((err.text += t), true) }
      expect(await runCli([command, '--help'], { env: {}, stdout: out, stderr: err })).toBe(0)
      const flags = [...out.text.matchAll(/^ {2}(--[a-z-]+) </gm)].map((m) => m[1])
      const expected = TABLE.filter((s) => 'commands' in s.cli && s.cli.commands.includes(command)).map((s) => flagOf(s.name))
      expect(flags.filter((f) => f !== '--format' && f !== '--out')).toEqual(expected)
    }
  })
})

describe('a new input is one entry', () => {
  const confidence = defineInput({
    name: 'demo_confidence',
    field: 'demoConfidence',
    default: '0.95',
    description: 'How sure the gate must be, {range}.',
    summary: 'how sure the gate must be ({range})',
    parser: { parse: (raw: string) => Number(raw), range: '0.5 to 0.999' },
    cli: { commands: ['assess'], value: 'p' }
  })
  const rounds = defineInput({
    name: 'demo_confirm_runs',
    field: 'demoConfirmRuns',
    default: '3',
    description: 'Confirmation runs, {range}.',
    summary: 'confirmation runs ({range})',
    parser: wholeNumber(1, 10),
    cli: { none: 'GitHub Actions only, for this test' }
  })
  const wait = defineInput({
    name: 'demo_wait',
    field: 'demoWait',
    default: 'attached',
    description: 'attached or detached: {range}.',
    summary: '{range}',
    parser: choice(['attached', 'detached']),
    cli: { commands: ['assess', 'validate'], value: 'how' }
  })
  const table = [
    ...TABLE,
    confidence,
    rounds,
    wait,
    defineInput({ ...rounds, name: 'demo_flag', field: 'demoFlag', default: 'false', parser: boolean })
  ]

  it('reaches action.yml, README, the command line and the values read, typed by its parser', () => {
    expect(new Set(table.map((s) => s.name)).size).toBe(table.length)
    const yml = parse(actionYmlInputs(table)) as { inputs: Record<string, { description: string; default: string }> }
    expect(yml.inputs.demo_confidence).toEqual({
      description: 'How sure the gate must be, 0.5 to 0.999.',
      required: false,
      default: '0.95'
    })
    expect(yml.inputs.demo_wait.description).toBe('attached or detached: attached or detached.')
    expect(readmeInputsTable(table)).toContain('| `demo_confidence` | `0.95` | how sure the gate must be (0.5 to 0.999) |')
    expect(readmeInputsTable(table)).toContain('| `demo_wait` | `attached` | `attached` or `detached` |')
    expect(commandOptions('assess', table).at(-1)).toEqual({ input: 'demo_wait', help: 'attached or detached', value: 'how' })
    expect(commandOptions('assess', table).map((o) => o.input)).toContain('demo_confidence')
    expect(commandOptions('validate', table).map((o) => o.input)).not.toContain('demo_confirm_runs')
    const values = readFields((name) => ({ demo_wait: 'DETACHED' })[name] ?? '', [confidence, rounds, wait] as const)
    expect(values).toEqual({ demoConfidence: 0.95, demoConfirmRuns: 3, demoWait: 'detached' })
    const typed: { demoConfidence: number; demoConfirmRuns: number; demoWait: 'attached' | 'detached' } = values
    expect(typed.demoWait).toBe('detached')
    expect(configError(() => readFields((name) => (name === 'demo_confirm_runs' ? '11' : ''), [rounds] as const)).input).toBe(
      'demo_confirm_runs'
    )
    expect(plainSummary(confidence)).toBe('how sure the gate must be (0.5 to 0.999)')
  })
})

/**
 * Checked by the compiler (npx tsc): each `@ts-expect-error` below is an
 * error only while the setting is required, so leaving a setting out is named
 * where it happens instead of rendering without it.
 */
describe('settings a renderer needs are required parameters', () => {
  it("the metadata line's threshold (min_severity): given, or null on purpose", () => {
    // @ts-expect-error threshold is required: null where the report has none (validate mode, a carried result)
    expect(metaLine({ commitSha: null, assessedAt: null, runUrl: null })).toBe('')
    expect(metaLine({ commitSha: null, assessedAt: null, threshold: 'medium', runUrl: null })).toBe('threshold medium')
    expect(metaLine({ commitSha: null, assessedAt: null, threshold: null, runUrl: null })).toBe('')
  })

  it("the report's policy (fail_on, the baseline) and secrets (the secret inputs to scrub)", () => {
    const { policy, secrets, ...rest } = makeInput({ secrets: ['sekrit-0123'] })
    // @ts-expect-error policy and secrets are required: the report says fail_on and scrubs the secret inputs
    const missing: ReportInput = rest
    expect(missing).not.toHaveProperty('secrets')
    expect([policy, secrets]).toEqual([null, ['sekrit-0123']])
  })
})
