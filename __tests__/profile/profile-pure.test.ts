import * as yaml from 'yaml'
import { describe, expect, it } from '@jest/globals'
import { diffProfile, pendingConfirm, readCurrent } from '../../src/profile/diff.js'
import { UNREADABLE_FENCE, unfenceText } from '../../src/profile/fence.js'
import { parseProfileFile } from '../../src/profile/profile-file.js'
import type { ProfileResponse } from '../../src/service/contract/index.js'
import { ConfigError } from '../../src/util/errors.js'

const f = (tag: string) => (text: string) => `[UNTRUSTED:${tag}]${text}[/UNTRUSTED:${tag}]`
const F = f('ab12')

function problemOf(path: string, text: string): string {
  try {
    parseProfileFile(yaml, path, text)
  } catch (e) {
    if (e instanceof ConfigError) return `${e.input}: ${e.message}`
    throw e
  }
  throw new Error('expected a ConfigError')
}

describe('parseProfileFile', () => {
  it('reads YAML and JSON, completing tools and user types with their defaults', () => {
    const yml = parseProfileFile(
      yaml,
      'p.yml',
      'purpose: Support\ntools:\n  - name: lookup\nuser_types:\n  - name: customer\nconfirm:\n  answers: [industry]\n'
    )
    expect(yml.content).toEqual({
      purpose: 'Support',
      tools: [{ name: 'lookup', description: '', parameters: {} }],
      user_types: [{ name: 'customer', auth_level: '', description: '' }]
    })
    expect(yml.confirm).toEqual({ answers: ['industry'], items: {} })
    expect(parseProfileFile(yaml, 'p.json', '{"system_prompt": null, "multi_agent": null}').content).toEqual({
      system_prompt: null,
      multi_agent: null
    })
  })

  it.each([
    ['p.yml', 'purpose: [a', /p\.yml: is not valid YAML/],
    ['p.json', '{purpose:', /p\.json: is not valid JSON/],
    ['p.yml', '- a\n- b\n', /must be a mapping/],
    ['p.yml', 'purpos: x\n', /unknown field 'purpos'/],
    ['p.yml', 'industry: retail\n', /unknown field 'industry'/],
    ['p.yml', 'tools:\n  - description: x\n', /field tools\[0\]\.name: /],
    ['p.yml', 'tools:\n  - name: "  "\n', /field tools\[0\]\.name: a name is required/],
    ['p.yml', 'tools:\n  - name: a\n    color: red\n', /field tools\[0\]: unknown field 'color'/],
    ['p.yml', 'has_guardrails: yes please\n', /field has_guardrails: /],
    ['p.yml', 'has_guardrails: null\n', /field has_guardrails: /],
    ['p.yml', 'purpose: null\n', /field purpose: /],
    ['p.yml', 'forbidden_topics: a\n', /field forbidden_topics: /],
    ['p.yml', `system_prompt: "${F('hi')}"\n`, /field system_prompt: still holds an \[UNTRUSTED:\.\.\.\] fence/],
    ['p.yml', 'tools:\n  - name: a\n    parameters: {x: "[/UNTRUSTED:zz]"}\n', /field tools\[0\]\.parameters\.x: still holds/],
    ['p.yml', 'tools:\n  - name: a\n  - name: a\n', /field tools: two items are named 'a'/],
    ['p.yml', 'confirm:\n  answers: [purpose]\n', /sets no profile field/],
    ['p.yml', 'system_prompt: null\nconfirm:\n  answers: [system_prompt]\n', /field confirm\.answers: 'system_prompt' is set to null/],
    ['p.yml', 'purpose: x\nconfirm:\n  answers: [colour]\n', /field confirm\.answers\[0\]: /],
    [
      'p.yml',
      'tools: [{name: a}]\nconfirm:\n  items: {tools: [b]}\n',
      /field confirm\.items\.tools: 'b' is not among the tools this file sets/
    ],
    ['p.yml', 'purpose: x\nconfirm:\n  items: {colours: [b]}\n', /field confirm\.items/]
  ])('%s %j: %s', (path, text, message) => {
    const line = problemOf(path, text)
    expect(line.startsWith(`profile_file: ${path}: `)).toBe(true)
    expect(line).toMatch(message)
  })
  describe('nesting', () => {
    const nest = (open: string, close: string, n: number, inner = '1') => `${open.repeat(n)}${inner}${close.repeat(n)}`
    it.each([
      ['p.json', `{"purpose": ${nest('[', ']', 400_000)}}`],
      ['p.json', `{"tools": [{"name": "a", "parameters": ${nest('{"x": ', '}', 120_000)}}]}`],
      ['p.yml', `purpose: ${nest('[', ']', 400_000)}\n`],
      ['p.yml', `tools:\n  - name: a\n    parameters: ${nest('{x: ', '}', 150_000)}\n`],
      ['p.yml', `purpose:\n${'- '.repeat(50_000)}a\n`],
      ['p.yml', `purpose:\n${Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i)}x:\n`).join('')}`],
      ['p.yml', `purpose: ${nest('[', ']', 64)}\n`],
      ['p.json', `{"purpose": ${nest('[', ']', 64)}}`]
    ])('%s nested too deep is a mistake in the file, not a crash (%#)', (path, text) => {
      expect(problemOf(path, text)).toBe(`profile_file: ${path}: nests lists or mappings deeper than 64 levels`)
    })
    it('reads parameters nested as deep as a real tool schema', () => {
      const file = parseProfileFile(yaml, 'p.json', `{"tools": [{"name": "a", "parameters": ${nest('{"x": ', '}', 20)}}]}`)
      expect(file.content.tools?.[0].name).toBe('a')
    })
  })
})

describe('unfenceText', () => {
  it.each([
    [F('hello'), 'hello'],
    [f('x')(''), ''],
    ['plain', 'plain'],
    ['[UNTRUSTED:a]mismatched[/UNTRUSTED:b]', UNREADABLE_FENCE],
    [`[UNTRUSTED:a]${F('nested')}[/UNTRUSTED:a]`, UNREADABLE_FENCE],
    ['text [UNTRUSTED:a] inside', UNREADABLE_FENCE]
  ])('%j', (raw, expected) => {
    expect(unfenceText(raw)).toBe(expected)
  })
})

function profile(answers: Record<string, unknown>, lists: Record<string, unknown>): ProfileResponse {
  return { model_id: 'm', profile_id: 'p', name: F('n'), version: 3, safety_notice: '', answers, lists, dismissals: [] }
}
const entry = (value: unknown, source = 'discovered') => ({ value, source })
const tool = (name: string, description = '', parameters: Record<string, unknown> = {}) => ({
  name: F(name),
  description: F(description),
  parameters
})

describe('diffProfile', () => {
  const file = (text: string) => parseProfileFile(yaml, 'p.yml', text)
  const current = readCurrent(
    profile(
      {
        purpose: entry(F('Support')),
        system_prompt: entry(F('Be kind')),
        has_guardrails: entry(false),
        multi_agent: entry(null),
        user_access: entry(F(''))
      },
      { tools: [entry(tool('lookup', 'Looks up'))], forbidden_topics: [entry(F('a')), entry(F('b'))], user_types: [] }
    )
  )

  it.each([
    [
      'the same values through the fence: no change',
      'purpose: Support\nsystem_prompt: Be kind\ntools: [{name: lookup, description: Looks up}]\n',
      {},
      []
    ],
    ['a null where the profile is empty or unknown: no change', 'user_access: null\nmulti_agent: null\n', {}, []],
    ['a text changed', 'system_prompt: Be very kind\n', { system_prompt: 'Be very kind' }, ['system_prompt changed']],
    ['a text emptied', 'system_prompt: null\n', { system_prompt: null }, ['system_prompt emptied']],
    [
      'a flag set',
      'has_guardrails: true\nmulti_agent: false\n',
      { has_guardrails: true, multi_agent: false },
      ['has_guardrails true', 'multi_agent false']
    ],
    [
      'a tool added: the list sent whole',
      'tools: [{name: lookup, description: Looks up}, {name: refund_order}]\n',
      {
        tools: [
          { name: 'lookup', description: 'Looks up', parameters: {} },
          { name: 'refund_order', description: '', parameters: {} }
        ]
      },
      ['tools +1 (refund_order)']
    ],
    [
      'a tool changed and one removed',
      'tools: [{name: lookup, description: Finds}]\nforbidden_topics: [b]\n',
      { tools: [{ name: 'lookup', description: 'Finds', parameters: {} }], forbidden_topics: ['b'] },
      ['tools ~1 (lookup)', 'forbidden_topics -1 (a)']
    ],
    ['a list reordered', 'forbidden_topics: [b, a]\n', { forbidden_topics: ['b', 'a'] }, ['forbidden_topics reordered']],
    [
      'a list the profile lacks',
      'user_types: [{name: admin}]\n',
      { user_types: [{ name: 'admin', auth_level: '', description: '' }] },
      ['user_types +1 (admin)']
    ]
  ])('%s', (_label, text, changes, summary) => {
    expect(diffProfile(file(text), current)).toEqual({ changes, summary })
  })

  it('sends every field of the file when the target has no profile', () => {
    expect(diffProfile(file('purpose: Support\nforbidden_topics: [a]\n'), null)).toEqual({
      changes: { purpose: 'Support', forbidden_topics: ['a'] },
      summary: ['purpose set', 'forbidden_topics +1 (a)']
    })
  })

  it('never equals an unreadable fenced value, and writes the file value, not it', () => {
    const odd = readCurrent(profile({ purpose: entry('[UNTRUSTED:x]Support[/UNTRUSTED:y]') }, {}))
    const d = diffProfile(file('purpose: Support\n'), odd)
    expect(d.changes).toEqual({ purpose: 'Support' })
    expect(JSON.stringify(d.changes)).not.toContain('UNTRUSTED')
  })

  it('reads answers given as bare values too', () => {
    const bare = readCurrent(profile({ purpose: F('Support') }, { forbidden_topics: [F('a')] }))
    expect(diffProfile(file('purpose: Support\nforbidden_topics: [a]\n'), bare).changes).toEqual({})
  })
})

describe('pendingConfirm', () => {
  const current = readCurrent(
    profile(
      { purpose: entry(F('S'), 'customer'), industry: entry(F('retail')) },
      { tools: [entry(tool('a'), 'customer'), entry(tool('b'))] }
    )
  )
  it.each([
    [
      { answers: ['purpose', 'industry'], items: { tools: ['a', 'b'] } },
      { answers: ['industry'], items: { tools: ['b'] } }
    ],
    [
      { answers: ['purpose'], items: { tools: ['a'] } },
      { answers: [], items: {} }
    ]
  ])('%j -> %j', (asked, left) => {
    expect(pendingConfirm(asked as never, current)).toEqual(left)
  })
  it('confirms everything asked when nothing was read', () => {
    expect(pendingConfirm({ answers: ['purpose'], items: { tools: ['a'] } }, null)).toEqual({
      answers: ['purpose'],
      items: { tools: ['a'] }
    })
  })
})

describe('the example profile', () => {
  it('is a valid profile file', async () => {
    const { readFileSync } = await import('node:fs')
    const path = 'examples/profiles/agent-profile.yml'
    const file = parseProfileFile(yaml, path, readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'))
    expect(file.content.tools?.map((t) => t.name)).toEqual(['lookup_order', 'issue_refund', 'refund_order'])
  })
})
