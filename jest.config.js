// jest 30 + ts-jest in ESM mode. Run with NODE_OPTIONS=--experimental-vm-modules (npm test does).
//
// Two halves of one suite: `npm test` (the quick half, the feedback loop: every unit, rule, property and in-process
// test) and `npm run test:slow` (the end-to-end runs through the bundle on two Nodes, the soak, the 100k-finding
// ceiling and the renderers' megabyte budgets, the largest property run, the packed install, the external validators,
// the benches' own tests). .ci/run runs both; `npm run test:all` runs both at once.
// docs/performance.md names the slowest suites and what each half costs.
const SLOW = [
  '/__tests__/e2e/',
  '/__tests__/soak/',
  '/__tests__/report/json-ceiling\\.test\\.ts$',
  // Megabyte-sized service texts through every renderer's ceiling, and the largest property run (400 random windows,
  // each loaded with every subset of read failures): the quick half's two slowest suites.
  '/__tests__/report/budget\\.test\\.ts$',
  '/__tests__/properties/evidence-read-failures\\.property\\.test\\.ts$',
  '/__tests__/cli/pack-install\\.test\\.ts$',
  '/__tests__/cli/two-shells\\.test\\.ts$',
  '/__tests__/cli/report-files\\.test\\.ts$',
  '/__tests__/cli/quiet-terminal\\.test\\.ts$',
  '/__tests__/cli/terminal-safe-text\\.test\\.ts$',
  '/__tests__/scripts/bench-detached\\.test\\.ts$',
  '/__tests__/gate/poll-schedule-targets\\.test\\.ts$',
  '/__tests__/validate/validate-mode-emulator\\.test\\.ts$',
  '/__tests__/gitlab/gitlab-words\\.test\\.ts$',
  '/__tests__/action/inputs\\.property\\.test\\.ts$',
  '/__tests__/release\\.test\\.ts$',
  '/__tests__/overview/cli-emulator\\.test\\.ts$',
  // Rendered as github.com and GitLab do, validated against the SARIF and JUnit schemas, or run on the other Nodes.
  '/__tests__/report/preview-html\\.test\\.ts$',
  '/__tests__/report/sarif-junit\\.test\\.ts$',
  '/__tests__/report/sarif-multitool\\.test\\.ts$',
  '/__tests__/gitlab/glfm\\.test\\.ts$',
  '/__tests__/emulator/cli\\.test\\.ts$',
  '/__tests__/node-runtime\\.test\\.ts$'
]
const half = process.env.ASG_TEST_HALF ?? 'quick'
if (!['quick', 'slow', 'all'].includes(half)) throw new Error(`ASG_TEST_HALF is quick, slow or all, not ${half}`)

export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  ...(half === 'quick' ? { testPathIgnorePatterns: ['/node_modules/', ...SLOW] } : {}),
  ...(half === 'slow' ? { testRegex: SLOW.map((p) => (p.endsWith('/') ? `${p}.*\\.test\\.ts$` : p)), testMatch: undefined } : {}),
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  setupFiles: ['<rootDir>/__tests__/__fixtures__/fast-check-setup.ts'],
  testTimeout: 60000,
  // it.concurrent cases (end-to-end worlds, fault tables) mostly wait on real sockets and timers, not the CPU.
  maxConcurrency: 8,
  maxWorkers: 2
}
