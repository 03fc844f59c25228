/**
 * Reading a file of the checkout (GITHUB_WORKSPACE) named by an input, when
 * its content may be sent to the service or decide what is accepted. The
 * checkout may be a pull request's, so the file is hostile until read:
 * - its real path (symlinks resolved) must be inside the workspace, so a
 *   symlink cannot send a file of the runner (a secret, /proc/self/environ);
 * - it must be a regular file, so a device (/dev/zero), a FIFO (blocks on
 *   open) or a directory is refused, not read;
 * - at most `maxBytes` are read, whatever size it claims, before any parse.
 * Every refusal is a ConfigError naming the input.
 */
import { constants } from 'node:fs'
import { open, realpath, stat } from 'node:fs/promises'
import { isAbsolute, relative, resolve } from 'node:path'
import { ConfigError } from './errors.js'

export interface WorkspaceFileRequest {
  /** GITHUB_WORKSPACE (or the working directory). */
  workspace: string
  /** The path as the input gives it, relative to the workspace. */
  path: string
  /** The input named in a refusal (profile_file, accepted_risks_file). */
  input: string
  /** The largest file read. */
  maxBytes: number
  /** A path to suggest when the one given is outside the workspace. */
  example: string
}

function inside(root: string, full: string): boolean {
  const rel = relative(root, full)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

function errno(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? 'error'
}

/**
 * The file's text, or null when there is no such file (nor a symlink that
 * leads to one). Refused (ConfigError): a path or real path outside the
 * workspace, anything but a regular file, more than maxBytes, a read error.
 */
export async function readWorkspaceFile(req: WorkspaceFileRequest): Promise<string | null> {
  const { path, input, maxBytes } = req
  const refuse = (what: string): ConfigError => new ConfigError(input, `'${path}' ${what}`)
  const given = resolve(req.workspace)
  if (!inside(given, resolve(given, path)))
    throw refuse(`is outside the repository (GITHUB_WORKSPACE): give a path inside it, e.g. ${req.example}`)
  let root: string
  let real: string
  try {
    root = await realpath(given)
    real = await realpath(resolve(given, path))
  } catch (err) {
    // A dangling symlink is no file either: nothing is read.
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return null
    throw refuse(`cannot be read (${errno(err)})`)
  }
  if (!inside(root, real)) throw refuse('leads (through a symbolic link) outside the repository (GITHUB_WORKSPACE): not read')
  try {
    // Checked before opening: opening a FIFO would wait for a writer.
    if (!(await stat(real)).isFile()) throw refuse('is not a regular file: not read')
  } catch (err) {
    if (err instanceof ConfigError) throw err
    throw refuse(`cannot be read (${errno(err)})`)
  }
  // O_NOFOLLOW and O_NONBLOCK (where the platform has them): a symlink or FIFO swapped in since is not followed or waited on.
  const { O_NOFOLLOW = 0, O_NONBLOCK = 0 } = constants as { O_NOFOLLOW?: number; O_NONBLOCK?: number }
  const flags = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(real, flags)
  } catch (err) {
    throw refuse(`cannot be read (${errno(err)})`)
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw refuse('is not a regular file: not read')
    if (info.size > maxBytes) throw refuse(`is larger than ${maxBytes} bytes: not read`)
    // Read one byte past the bound: a file that grew (or says size 0 and is not empty) is still caught.
    const buf = Buffer.alloc(maxBytes + 1)
    let got = 0
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got)
      if (bytesRead === 0) break
      got += bytesRead
      if (got > maxBytes) throw refuse(`is larger than ${maxBytes} bytes: not read`)
    }
    return buf.subarray(0, got).toString('utf8')
  } catch (err) {
    if (err instanceof ConfigError) throw err
    throw refuse(`cannot be read (${errno(err)})`)
  } finally {
    await handle.close()
  }
}
