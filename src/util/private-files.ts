/**
 * The one way the gate writes files of its own (the report files): into a
 * folder only this user may enter, each file created new, never through a
 * link and never over another file.
 *
 * - A folder it creates has mode 0700; by default each step gets a fresh one
 *   with an unpredictable name (mkdtemp), so another user of a shared machine
 *   (a GitLab shell executor, a Jenkins agent) can neither plant a link at a
 *   name the step will write nor read what it wrote.
 * - A file is opened O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600: a link or a
 *   file already at the name is never followed nor overwritten; the next free
 *   name (`<name>-2.<ext>`, ...) is taken instead, so a folder kept from run to
 *   run (--out reports/) keeps the earlier reports.
 */
import { constants } from 'node:fs'
import { access, mkdir, mkdtemp, open, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** Folders the gate creates: only this user may list or enter them. */
export const PRIVATE_DIR_MODE = 0o700
/** Files the gate writes: only this user may read them. */
export const PRIVATE_FILE_MODE = 0o600

/** How many names are tried before giving up (`<name>.<ext>`, then `<name>-2.<ext>` ...). */
const NAMES_TRIED = 100

/** A fresh folder under `parent` (created if missing), mode 0700, named `<prefix>` and six random characters. */
export async function freshPrivateDir(parent: string, prefix: string): Promise<string> {
  await mkdir(parent, { recursive: true, mode: PRIVATE_DIR_MODE })
  return mkdtemp(join(parent, prefix))
}

/**
 * Why `dir` cannot hold the report files; null when it can (it is then a
 * folder this user may write to, created with mode 0700 when it was missing).
 */
export async function unusableDir(dir: string): Promise<string | null> {
  try {
    const found = await stat(dir).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    })
    if (found !== null && !found.isDirectory()) return `'${dir}' is a file, not a folder: name a folder (created if missing)`
    if (found === null) await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  } catch (err) {
    return `the folder '${dir}' cannot be created (${errorCode(err)})`
  }
  try {
    await access(dir, constants.W_OK | constants.X_OK)
    return null
  } catch (err) {
    return `the folder '${dir}' cannot be written to (${errorCode(err)})`
  }
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err)
}

/** Creates `path` and writes `text`: O_EXCL | O_NOFOLLOW, mode 0600. Throws EEXIST (or ELOOP) when anything is at the name. */
async function createNew(path: string, text: string): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, PRIVATE_FILE_MODE)
  try {
    await handle.writeFile(text, 'utf8')
  } finally {
    await handle.close()
  }
}

/**
 * Writes `text` to a new file `<name>.<ext>` in `dir` (created with mode 0700
 * when missing), or to the next free name when that one is taken; returns its path.
 */
export async function writeNewFile(dir: string, name: string, ext: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  for (let n = 1; n <= NAMES_TRIED; n++) {
    const path = join(dir, `${name}${n === 1 ? '' : `-${n}`}.${ext}`)
    try {
      await createNew(path, text)
      return path
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'EEXIST' && code !== 'ELOOP') throw err
    }
  }
  throw new Error(`No free name for ${name}.${ext} in ${dir}: ${NAMES_TRIED} are taken`)
}
