// jest 30 + ts-jest in ESM mode. Run with NODE_OPTIONS=--experimental-vm-modules (npm test does).
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  setupFiles: ['<rootDir>/__tests__/__fixtures__/fast-check-setup.ts'],
  testTimeout: 60000,
  // it.concurrent cases (end-to-end worlds, fault tables) mostly wait on real sockets and timers, not the CPU.
  maxConcurrency: 8,
  maxWorkers: 2
}
