/**
 * A file of the checkout named by an input is read only when its real path is
 * inside the workspace and it is a regular file, and never past a bound.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readWorkspaceFile } from '../../src/util/read-workspace-file.js'
import { ConfigError } from '../../src/util/errors.js'
import { checkoutWith } from '../__fixtures__/workspace.js'

const posix = process.platform !== 'win32'

function read(workspace: string, path: string, maxBytes = 1024) {
  return readWorkspaceFile({ workspace, path, input: 'profile_file', maxBytes, example: 'p.yml' })
}

async function refusal(workspace: string, path: string, maxBytes?: number): Promise<string> {
  const err = await read(workspace, path, maxBytes).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(ConfigError)
  expect((err as ConfigError).input).toBe('profile_file')
  return (err as ConfigError).message
}

describe('readWorkspaceFile', () => {
  it('reads a file of the workspace, also through a symlink that stays inside', async () => {
    const ws = checkoutWith({ 'cfg/p.yml': 'purpose: x\n' })
    expect(await read(ws, 'cfg/p.yml')).toBe('purpose: x\n')
    if (posix) {
      symlinkSync('cfg/p.yml', join(ws, 'link.yml'))
      expect(await read(ws, 'link.yml')).toBe('purpose: x\n')
    }
  })

  it('answers null for a missing file and for a dangling symlink', async () => {
    const ws = checkoutWith({})
    expect(await read(ws, 'missing.yml')).toBeNull()
    if (posix) {
      symlinkSync(join(tmpdir(), 'asas-no-such-file-anywhere'), join(ws, 'dangling.yml'))
      expect(await read(ws, 'dangling.yml')).toBeNull()
    }
  })

  it.each(['../outside.yml', '/etc/hostname', '.', ''])('refuses the path %j, outside the workspace', async (path) => {
    expect(await refusal(checkoutWith({}), path)).toMatch(
      /is outside the repository \(GITHUB_WORKSPACE\): give a path inside it, e\.g\. p\.yml/
    )
  })

  const onPosix = posix ? it : it.skip
  onPosix('refuses a symlink that leads out of the workspace, file or directory, without reading it', async () => {
    const secretDir = mkdtempSync(join(tmpdir(), 'asas-secret-'))
    writeFileSync(join(secretDir, 'credentials'), 'purpose: the runner secret\n')
    const ws = checkoutWith({})
    symlinkSync(join(secretDir, 'credentials'), join(ws, 'p.yml'))
    symlinkSync(secretDir, join(ws, 'dir'))
    expect(await refusal(ws, 'p.yml')).toMatch(/^'p\.yml' leads \(through a symbolic link\) outside the repository/)
    expect(await refusal(ws, 'dir/credentials')).toMatch(/leads \(through a symbolic link\) outside the repository/)
  })

  onPosix('refuses a symlink to a device before reading a byte of it', async () => {
    const ws = checkoutWith({})
    symlinkSync('/dev/zero', join(ws, 'zero.yml'))
    expect(await refusal(ws, 'zero.yml')).toMatch(/outside the repository/)
  })

  onPosix('refuses a FIFO of the workspace without waiting for a writer', async () => {
    const ws = checkoutWith({})
    execFileSync('mkfifo', [join(ws, 'fifo.yml')])
    expect(await refusal(ws, 'fifo.yml')).toBe("'fifo.yml' is not a regular file: not read")
  })

  it('refuses a directory', async () => {
    const ws = checkoutWith({})
    mkdirSync(join(ws, 'd.yml'))
    expect(await refusal(ws, 'd.yml')).toBe("'d.yml' is not a regular file: not read")
  })

  it('refuses a file larger than the bound, and reads one exactly at it', async () => {
    const ws = checkoutWith({ 'big.yml': 'x'.repeat(1025), 'fit.yml': 'x'.repeat(1024) })
    expect(await refusal(ws, 'big.yml')).toBe("'big.yml' is larger than 1024 bytes: not read")
    expect(await read(ws, 'fit.yml')).toHaveLength(1024)
  })
})
