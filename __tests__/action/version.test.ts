import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { ACTION_VERSION } from '../../src/action/version.js'

describe('ACTION_VERSION', () => {
  it('is the version of package.json (SARIF names it as the tool version)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(ACTION_VERSION).toBe(pkg.version)
  })
})
