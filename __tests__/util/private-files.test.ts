/**
 * The one way the gate writes files of its own (src/util/private-files.ts):
 * private folders (0700, a fresh unpredictable one per step by default), files
 * created new (0600), never through a link nor over another file.
 */
import { describe, expect, it } from '@jest/globals'
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, freshPrivateDir, unusableDir, writeNewFile } from '../../src/util/private-files.js'

const posix = process.platform !== 'win32'
const modeOf = (path: string): number => statSync(path).mode & 0o777
const scratch = (): string => mkdtempSync(join(tmpdir(), 'private-files-'))

describe('the modes', () => {
  it('are 0700 for folders and 0600 for files', () => {
    expect([PRIVATE_DIR_MODE, PRIVATE_FILE_MODE]).toEqual([0o700, 0o600])
  })
})

describe('freshPrivateDir', () => {
  it('creates a missing parent (0700, nested) and a fresh folder of the prefix and six random characters in it', async () => {
    const parent = join(scratch(), 'a', 'b')
    const dir = await freshPrivateDir(parent, 'asas-gate-')
    expect(dirname(dir)).toBe(parent)
    expect(basename(dir)).toMatch(/^asas-gate-[A-Za-z0-9]{6}$/)
    expect(statSync(dir).isDirectory()).toBe(true)
    if (posix) {
      expect(modeOf(parent)).toBe(0o700)
      expect(modeOf(dir)).toBe(0o700)
    }
  })

  it('uses an existing parent and gives each call its own folder', async () => {
    const parent = scratch()
    const one = await freshPrivateDir(parent, 'p-')
    const two = await freshPrivateDir(parent, 'p-')
    expect(one).not.toBe(two)
    expect(readdirSync(parent).sort()).toEqual([basename(one), basename(two)].sort())
  })
})

describe('unusableDir', () => {
  it('accepts an existing folder and leaves it as it was', async () => {
    const dir = scratch()
    writeFileSync(join(dir, 'kept.json'), '{}')
    expect(await unusableDir(dir)).toBeNull()
    expect(readdirSync(dir)).toEqual(['kept.json'])
  })

  it('creates a missing folder, nested, with mode 0700', async () => {
    const dir = join(scratch(), 'reports', 'nightly')
    expect(await unusableDir(dir)).toBeNull()
    expect(statSync(dir).isDirectory()).toBe(true)
    if (posix) expect(modeOf(dir)).toBe(0o700)
  })

  it('refuses a file, naming it', async () => {
    const file = join(scratch(), 'report.json')
    writeFileSync(file, 'x')
    expect(await unusableDir(file)).toBe(`'${file}' is a file, not a folder: name a folder (created if missing)`)
    expect(readFileSync(file, 'utf8')).toBe('x')
  })

  it('refuses a folder that cannot be created, with the error code', async () => {
    const file = join(scratch(), 'f')
    writeFileSync(file, 'x')
    expect(await unusableDir(join(file, 'sub'))).toBe(`the folder '${join(file, 'sub')}' cannot be created (ENOTDIR)`)
  })

  it('refuses a link that loops (stat fails other than ENOENT), with the error code', async () => {
    if (!posix) return
    const loop = join(scratch(), 'loop')
    symlinkSync(loop, loop)
    expect(await unusableDir(loop)).toBe(`the folder '${loop}' cannot be created (ELOOP)`)
  })

  it('refuses a folder this user cannot write to, with the error code', async () => {
    if (!posix) return
    // Root writes any folder of a normal file system; Linux's /proc/1 refuses it even root (EPERM).
    let dir = '/proc/1'
    if (process.getuid?.() !== 0) {
      dir = scratch()
      mkdirSync(join(dir, 'ro'), { mode: 0o500 })
      dir = join(dir, 'ro')
    }
    const code = (() => {
      try {
        accessSync(dir, constants.W_OK | constants.X_OK)
        return 'writable'
      } catch (err) {
        return (err as NodeJS.ErrnoException).code
      }
    })()
    // A kernel that lets root write /proc/1 leaves this machine no such folder to try.
    if (code === 'writable' && process.getuid?.() === 0) return
    expect(code).toMatch(/^E[A-Z]+$/)
    expect(await unusableDir(dir)).toBe(`the folder '${dir}' cannot be written to (${String(code)})`)
  })
})

describe('writeNewFile', () => {
  it('creates the folder (0700, nested) and a new file of the name, mode 0600, holding the text', async () => {
    const dir = join(scratch(), 'out', 'run')
    const path = await writeNewFile(dir, 'validation-m', 'json', '{"é":"✓"}\n')
    expect(path).toBe(join(dir, 'validation-m.json'))
    expect(readFileSync(path, 'utf8')).toBe('{"é":"✓"}\n')
    if (posix) {
      expect(modeOf(dir)).toBe(0o700)
      expect(modeOf(path)).toBe(0o600)
    }
  })

  it('never overwrites a file at the name: takes the next free one, keeping the earlier reports', async () => {
    const dir = scratch()
    const paths = [
      await writeNewFile(dir, 'r', 'md', 'one'),
      await writeNewFile(dir, 'r', 'md', 'two'),
      await writeNewFile(dir, 'r', 'md', 'three')
    ]
    expect(paths).toEqual([join(dir, 'r.md'), join(dir, 'r-2.md'), join(dir, 'r-3.md')])
    expect(paths.map((p) => readFileSync(p, 'utf8'))).toEqual(['one', 'two', 'three'])
  })

  it('never writes through a link planted at the name, nor a dangling one', async () => {
    if (!posix) return
    const dir = scratch()
    const victim = join(scratch(), 'victim')
    writeFileSync(victim, 'precious')
    symlinkSync(victim, join(dir, 'r.json'))
    symlinkSync(join(dir, 'nowhere'), join(dir, 'r-2.json'))
    const path = await writeNewFile(dir, 'r', 'json', 'report')
    expect(path).toBe(join(dir, 'r-3.json'))
    expect(readFileSync(victim, 'utf8')).toBe('precious')
    expect(readdirSync(dir).sort()).toEqual(['r-2.json', 'r-3.json', 'r.json'])
    expect(readFileSync(path, 'utf8')).toBe('report')
  })

  it('tries 100 names: the 100th when 99 are taken, then a clear error', async () => {
    const dir = scratch()
    writeFileSync(join(dir, 'r.json'), '')
    for (let n = 2; n <= 99; n++) writeFileSync(join(dir, `r-${n}.json`), '')
    expect(await writeNewFile(dir, 'r', 'json', 'last')).toBe(join(dir, 'r-100.json'))
    await expect(writeNewFile(dir, 'r', 'json', 'x')).rejects.toThrow(`No free name for r.json in ${dir}: 100 are taken`)
    expect(readdirSync(dir)).toHaveLength(100)
  })

  it('passes on an error other than a taken name', async () => {
    const dir = scratch()
    await expect(writeNewFile(dir, join('missing', 'r'), 'json', 'x')).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('closes each file it writes', async () => {
    if (process.platform !== 'linux') return
    const dir = scratch()
    const open = (): number => readdirSync('/proc/self/fd').length
    await writeNewFile(dir, 'warm', 'json', 'x')
    const before = open()
    for (let i = 0; i < 20; i++) await writeNewFile(dir, 'r', 'json', String(i))
    expect(open()).toBe(before)
  })
})
