/**
 * The main step's one way out: the runner's I/O (outputs, summary,
 * annotations, log, failure), the report files and GitHub's comment or issue,
 * every string scrubbed of the step's secrets on its way out. The stages
 * write only through it, so no stage scrubs by itself and a new output cannot
 * forget to.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Baseline } from '../evidence/baseline.js'
import type { BaselineStore } from '../evidence/record-store.js'
import { postCommitStatus, type CommitStatus, type ListedStatus } from '../github/commit-status.js'
import { createGitHubClient } from '../github/github-client.js'
import { publishToGitHub, type PublishArgs, type PublishDeps, type Published } from '../github/publish.js'
import type { RepoRef } from '../github/transport.js'
import { ciHost } from './ci-host.js'
import { publishNoteInsteadOfComment } from '../gitlab/publish.js'
import { Deadline } from '../util/clock.js'
import { AbortedError, describeFailure } from '../util/errors.js'
import { baseUrlSecrets } from '../service/base-url.js'
import type { Log } from '../util/log.js'
import { makeScrubber, scrubSecretsDeep, secretWireForms } from '../util/redact.js'
import { writeNewFile } from '../util/private-files.js'
import { nonEmpty, oneLine } from '../util/text.js'
import { ANNOTATIONS_SHOWN_PER_LEVEL } from '../report/annotations.js'
import { envInputReader, isMaskableSecret, queryValues } from './inputs/read-inputs.js'
import type { ActionIO } from './io.js'

/** What the stages write through: an ActionIO whose every sink is scrubbed, plus the report files and GitHub. */
export interface ScrubbedIO extends ActionIO {
  /**
   * Writes `text` to a new file <reportDir>/<name>.<ext> (default
   * RUNNER_TEMP/asas-gate) and returns the path: never through a link nor
   * over a file (the next free name instead), mode 0600 (writeNewFile).
   */
  writeReportFile(name: string, ext: string, text: string): Promise<string>
  /** The sticky comment or the tracking issue (see publishToGitHub): its marker, body and title scrubbed. */
  publish(args: PublishArgs): Promise<Published>
  /**
   * A commit status (see postCommitStatus), its context, description and
   * target scrubbed. Never throws: false when it was not set (a warning says
   * why), or when the job is being cancelled.
   */
  setCommitStatus(args: { githubToken: string; repo: RepoRef; status: CommitStatus }): Promise<boolean>
  /**
   * The commit's newest statuses (listCommitStatuses: one call, under the
   * budget of one status). Throws what kept them from being read.
   */
  listCommitStatuses(args: { githubToken: string; repo: RepoRef; sha: string }): Promise<ListedStatus[]>
  /** The step's result line as a warning: always shown (its place is kept out of the warnings' budget). */
  resultWarning(line: string): void
}

/** GitHub calls of one status get their own short budget, as the comment's do. */
const STATUS_BUDGET_MS = 30_000

/** The longest output value: far above any real one (categories_planned of the whole taxonomy). */
const OUTPUT_MAX_CHARS = 65_536

/**
 * The step's secrets, masked on the runner before anything else can print
 * them: the service key, the target's credential, a password in base_url
 * (refused as an input, but it must not echo meanwhile), and the query values
 * of endpoint_url and endpoint_path (a deployment protection bypass travels
 * there, e.g. ?x-vercel-protection-bypass=<secret>).
 */
export function stepSecrets(io: ActionIO): string[] {
  const secrets: string[] = []
  // Every form a credential is sent in (base64 of basic auth, URL-encoded, JSON-escaped...). A value
  // that cannot be a credential (too short) is never registered as a mask: readInputs refuses it
  // without printing it.
  for (const name of ['api_key', 'target_credential']) {
    const raw = envInputReader(io.env)(name)
    if (!isMaskableSecret(raw)) continue
    const forms = secretWireForms(raw, name === 'target_credential' ? { clientId: envInputReader(io.env)('oauth_client_id') } : {})
    for (const form of forms) io.setSecret(form)
    secrets.push(...forms)
  }
  for (const name of ['endpoint_url', 'endpoint_path']) {
    for (const value of queryValues(envInputReader(io.env)(name))) {
      if (!isMaskableSecret(value)) continue
      const forms = secretWireForms(value)
      for (const form of forms) io.setSecret(form)
      secrets.push(...forms)
    }
  }
  // The GitLab token of a merge-request note (see publishNoteInsteadOfComment).
  const gitlabToken = ciHost(io.env) === 'gitlab' ? (io.env.GITLAB_TOKEN ?? '') : ''
  if (isMaskableSecret(gitlabToken)) {
    io.setSecret(gitlabToken)
    secrets.push(gitlabToken)
  }
  const urlSecrets = baseUrlSecrets(envInputReader(io.env)('base_url'))
  for (const s of urlSecrets) io.setSecret(s)
  secrets.push(...urlSecrets)
  return secrets
}

function safeFileName(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80)
}

/**
 * How many error and warning annotations the step may still make: GitHub
 * shows ANNOTATIONS_SHOWN_PER_LEVEL of each per step and drops the rest, so
 * one of each is kept for the step's result line (setFailed, resultWarning)
 * and the others past the budget go to the log as plain lines.
 */
interface AnnotationBudget {
  /** Takes a place for an annotation of `level`; false when none is left. */
  take(level: 'error' | 'warning' | 'notice'): boolean
}

function annotationBudget(): AnnotationBudget {
  const left = { error: ANNOTATIONS_SHOWN_PER_LEVEL - 1, warning: ANNOTATIONS_SHOWN_PER_LEVEL - 1, notice: ANNOTATIONS_SHOWN_PER_LEVEL }
  return {
    take: (level) => {
      if (left[level] <= 0) return false
      left[level] -= 1
      return true
    }
  }
}

const OVER_BUDGET = `(not annotated: GitHub shows ${ANNOTATIONS_SHOWN_PER_LEVEL} per step)`

function scrubbedLog(log: Log, scrub: (text: string) => string, budget: AnnotationBudget): Log {
  return {
    info: (line) => {
      log.info(scrub(line))
    },
    warning: (line) => {
      if (budget.take('warning')) log.warning(scrub(line))
      else log.info(`Warning ${OVER_BUDGET}: ${scrub(line)}`)
    },
    debug: (line) => {
      log.debug(scrub(line))
    }
  }
}

/**
 * `raw` with every string it writes scrubbed of `secrets`. Every output is
 * also one line, without control, bidi or zero-width characters (a workflow
 * may put it in a `run:` script; values carry text from the service). The
 * step state passes through as is: it holds the ids the post step needs, and
 * the runner never shows it.
 */
export function scrubbingIO(raw: ActionIO, secrets: readonly string[], github: Omit<PublishDeps, 'env' | 'log'>): ScrubbedIO {
  const scrub = makeScrubber(secrets)
  const budget = annotationBudget()
  const log = scrubbedLog(raw.log, scrub, budget)
  const statusClient = (token: string) =>
    createGitHubClient({
      token,
      apiUrl: nonEmpty(raw.env.GITHUB_API_URL) ?? 'https://api.github.com',
      clock: github.clock,
      deadline: Deadline.after(github.clock, STATUS_BUDGET_MS),
      signal: github.signal,
      log,
      random: github.random
    })
  return {
    env: raw.env,
    log,
    setSecret: (value) => {
      raw.setSecret(value)
    },
    saveState: (name, value) => {
      raw.saveState(name, value)
    },
    getState: (name) => raw.getState(name),
    setOutput: (name, value) => {
      raw.setOutput(name, oneLine(scrub(value), OUTPUT_MAX_CHARS))
    },
    annotate: (level, message, title) => {
      if (budget.take(level)) raw.annotate(level, scrub(message), scrub(title))
      else
        raw.log.info(
          `${level === 'error' ? 'Error' : level === 'warning' ? 'Warning' : 'Notice'} ${OVER_BUDGET}: ${scrub(title)}: ${scrub(message)}`
        )
    },
    resultWarning: (line) => {
      raw.log.warning(scrub(line))
    },
    appendSummary: (markdown) => raw.appendSummary(scrub(markdown)),
    setFailed: (message) => {
      raw.setFailed(scrub(message))
    },
    writeReportFile: (name, ext, text) =>
      writeNewFile(raw.reportDir ?? join(nonEmpty(raw.env.RUNNER_TEMP) ?? tmpdir(), 'asas-gate'), safeFileName(name), ext, scrub(text)),
    // In a GitLab CI job the merge-request note takes the comment's place.
    publish: (args) =>
      (ciHost(raw.env) === 'gitlab' ? publishNoteInsteadOfComment : publishToGitHub)(
        { ...github, env: raw.env, log },
        {
          ...args,
          // The marker too: it names the model, and it is written into the body when the body lacks it.
          marker: scrub(args.marker),
          commentBody: (existing) => scrub(args.commentBody(existing)),
          issueTitle: scrub(args.issueTitle)
        }
      ),
    setCommitStatus: async ({ githubToken, repo, status }) => {
      if (github.signal.aborted) return false
      try {
        const api = await statusClient(githubToken)
        const clean = { ...status, context: scrub(status.context), description: scrub(status.description) }
        return await postCommitStatus(api, repo, { ...clean, targetUrl: status.targetUrl === null ? null : scrub(status.targetUrl) }, log)
      } catch (err) {
        if (!(err instanceof AbortedError))
          log.warning(`Could not set the commit status (the gate's result is unchanged): ${describeFailure(err)}`)
        return false
      }
    },
    listCommitStatuses: async ({ githubToken, repo, sha }) => (await statusClient(githubToken)).listCommitStatuses(repo, sha)
  }
}

/**
 * The baseline store behind the edge: the Actions cache is read by every
 * workflow of the repository, a fork's pull request too, so the file riding
 * along is scrubbed, and a run whose id or commit holds a secret is not
 * recorded at all (its cache key, which names them, is listed to anyone who
 * can read the caches).
 */
export function scrubbedBaselineStore(store: BaselineStore, secrets: readonly string[], log: Log): BaselineStore {
  const scrub = makeScrubber(secrets)
  return {
    async save(baseline, agentKey, holders) {
      if (scrub(baseline.run_id) !== baseline.run_id || (baseline.commit !== null && scrub(baseline.commit) !== baseline.commit)) {
        log.warning('The run was not recorded: its id holds a secret of this step, which its Actions cache key would show.')
        return { saved: false, where: '' }
      }
      // A holder's run id goes into the key too: one that holds a secret is left out of it.
      const clean = holders.filter((h) => scrub(h) === h)
      return store.save(scrubSecretsDeep(baseline, secrets) as Baseline, agentKey, clean)
    }
  }
}
