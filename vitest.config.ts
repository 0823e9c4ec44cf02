import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/examples/**', 'test/runtimes/**', '**/node_modules/**'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    coverage: { provider: 'v8', include: ['src'] },
  },
})
