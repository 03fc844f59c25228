/**
 * Which CI a step runs in, the one answer every wording asks: GitHub Actions
 * (GITHUB_ACTIONS=true), a GitLab CI job (inGitLabJob: GITLAB_CI=true outside
 * GitHub Actions), or anything else (a terminal, another CI). Pure: the
 * environment in. And the words a line uses there for what differs: where a
 * secret is kept.
 */
import { inGitHubActions } from '../github/event-target.js'
import { inGitLabJob } from '../gitlab/ci-context.js'

export type CiHost = 'github' | 'gitlab' | 'other'

export function ciHost(env: NodeJS.ProcessEnv): CiHost {
  if (inGitHubActions(env)) return 'github'
  return inGitLabJob(env) ? 'gitlab' : 'other'
}

/** How to pass the service key from where each CI keeps secrets, and why it can be missing on a fork's change. */
export const SERVICE_KEY_HINT: Record<CiHost, { pass: string; forks: string }> = {
  github: {
    pass: 'Pass the service key from a secret (api_key: ${{ secrets.ASAS_API_KEY }})',
    forks: 'Secrets are not given to workflows triggered from forks'
  },
  gitlab: {
    pass: 'Set the service key in a masked CI/CD variable ASAS_API_KEY (Settings > CI/CD > Variables)',
    forks: "A fork's merge-request pipeline runs in the fork, without this project's CI/CD variables"
  },
  other: {
    pass: "Set ASAS_API_KEY from your CI's secret store (or pass --api-key)",
    forks: 'A CI commonly keeps secrets from the pipelines of a fork'
  }
}
