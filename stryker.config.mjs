// Mutation testing of the code that decides pass or fail and what a run may
// write (npm run mutate; CONTRIBUTING.md "Mutation testing"). Not part of
// .ci/run: a full run takes tens of minutes on 2 cores.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/decision/**/*.ts',
    'src/pipeline/**/*.ts',
    'src/github/write-rule.ts',
    'src/evidence/**/*.ts',
    'src/accepted/**/*.ts',
    'src/gitlab/fork-rule.ts',
    'src/gitlab/ci-context.ts',
    'src/action/post-step.ts',
    'src/action/saved-state.ts',
    'src/action/job-env.ts',
    'src/util/private-files.ts',
    'src/util/text.ts'
  ],
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'jest.mutation.config.js', enableFindRelatedTests: true },
  testRunnerNodeArgs: ['--experimental-vm-modules'],
  // Each mutant runs only the tests that executed its code in the dry run.
  coverageAnalysis: 'perTest',
  // No type checker: @stryker-mutator/typescript-checker runs in this ESM setup, but it type-checks
  // the whole program (src, scripts, __tests__) for each group of mutants, which on 2 shared cores
  // did not finish one file in 15 minutes. ts-jest transpiles without type-checking
  // (isolatedModules), so a mutant that would not compile simply runs: the score counts it like any other.
  // A second run re-tests only the mutants whose code or covering tests changed.
  // The file is a local cache (gitignored), not a record: docs/reliability.md holds the measured scores.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  concurrency: 1,
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: '.stryker-tmp',
  // Not copied into the sandbox: other runs' sandboxes and reports, scratch files.
  ignorePatterns: ['/.stryker-tmp*', '/reports', '/.tmp', '/build', '/coverage'],
  cleanTempDir: 'always'
}
