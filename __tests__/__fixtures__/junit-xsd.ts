/**
 * The JUnit schema of the Jenkins xunit plugin, as a table: the plugin
 * validates every JUnit file against its junit-10.xsd before reading it and
 * drops a file that fails. Per element, the attributes it allows (and
 * requires) and the child elements it allows, derived from
 * https://github.com/jenkinsci/xunit-plugin/blob/8c515de2804b3fd591a3b0f1ff8908a1b1a41887/src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd
 * (MIT, Copyright (c) 2014 Gregory Boissinot). The content models are choices
 * repeated in any order (testsuites: testsuite elements only), so the order of
 * children is not checked. `junitXsdProblems` checks a document parsed by
 * xml2js with its default options.
 */

interface ElementRule {
  attributes: readonly string[]
  required?: readonly string[]
  children: readonly string[]
  /** Text content allowed (mixed or xs:string). */
  text: boolean
}

/** xs:simpleType SUREFIRE_TIME: digits with optional thousands commas and at most three decimals. */
const SUREFIRE_TIME = /^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]{0,3})?$/

const MESSAGE: ElementRule = { attributes: ['type', 'message'], children: [], text: true }
const STRING: ElementRule = { attributes: [], children: [], text: true }
const RERUN: ElementRule = {
  attributes: ['message', 'type'],
  required: ['type'],
  children: ['stackTrace', 'system-out', 'system-err'],
  text: true
}

export const JUNIT_10: Readonly<Partial<Record<string, ElementRule>>> = {
  testsuites: { attributes: ['name', 'time', 'tests', 'failures', 'errors'], children: ['testsuite'], text: false },
  testsuite: {
    attributes: [
      'name',
      'tests',
      'failures',
      'errors',
      'group',
      'time',
      'skipped',
      'timestamp',
      'hostname',
      'id',
      'package',
      'file',
      'log',
      'url',
      'version'
    ],
    required: ['name', 'tests', 'failures', 'errors'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
    text: false
  },
  testcase: {
    attributes: ['name', 'time', 'classname', 'group'],
    required: ['name'],
    children: ['skipped', 'error', 'failure', 'rerunFailure', 'rerunError', 'flakyFailure', 'flakyError', 'system-out', 'system-err'],
    text: false
  },
  properties: { attributes: [], children: ['property'], text: false },
  property: { attributes: ['name', 'value'], required: ['name', 'value'], children: [], text: false },
  failure: MESSAGE,
  error: MESSAGE,
  skipped: MESSAGE,
  'system-out': STRING,
  'system-err': STRING,
  stackTrace: STRING,
  rerunFailure: RERUN,
  rerunError: RERUN,
  flakyFailure: RERUN,
  flakyError: RERUN
}

/** Attributes typed SUREFIRE_TIME (the other `time` attributes are xs:string). */
const TIMED = new Set(['testsuites', 'testsuite'])

type Parsed = string | { $?: Record<string, string>; _?: string; [child: string]: unknown }

function check(name: string, node: Parsed, path: string, out: string[]): void {
  const rule = JUNIT_10[name]
  if (rule === undefined) {
    out.push(`${path}: element <${name}> is not in the schema`)
    return
  }
  if (typeof node === 'string') {
    if (!rule.text && node.trim() !== '') out.push(`${path}: text is not allowed`)
    for (const a of rule.required ?? []) out.push(`${path}: attribute ${a} is required`)
    return
  }
  const attrs: Partial<Record<string, string>> = node.$ ?? {}
  for (const a of Object.keys(attrs)) if (!rule.attributes.includes(a)) out.push(`${path}: attribute ${a} is not allowed on <${name}>`)
  for (const a of rule.required ?? []) if (!(a in attrs)) out.push(`${path}: attribute ${a} is required on <${name}>`)
  const time = attrs.time
  if (TIMED.has(name) && time !== undefined && !SUREFIRE_TIME.test(time))
    out.push(`${path}: time ${JSON.stringify(time)} is not a SUREFIRE_TIME`)
  if (!rule.text && typeof node._ === 'string' && node._.trim() !== '') out.push(`${path}: text is not allowed in <${name}>`)
  for (const [child, value] of Object.entries(node)) {
    if (child === '$' || child === '_') continue
    if (!rule.children.includes(child)) {
      out.push(`${path}: <${child}> is not allowed in <${name}>`)
      continue
    }
    ;(value as Parsed[]).forEach((c, i) => {
      check(child, c, `${path}/${child}[${i}]`, out)
    })
  }
}

/** What breaks junit-10.xsd in a document parsed by xml2js (root testsuites); [] when it conforms. */
export function junitXsdProblems(doc: Record<string, Parsed>): string[] {
  const out: string[] = []
  const roots = Object.keys(doc)
  if (roots.length !== 1 || roots[0] !== 'testsuites') out.push(`root is ${roots.join(', ')}, not testsuites`)
  for (const [name, node] of Object.entries(doc)) check(name, node, `/${name}`, out)
  return out
}
