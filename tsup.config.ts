import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    core: 'src/core.ts',
    gateway: 'src/gateway.ts',
    node: 'src/node.ts',
    'node/cli': 'src/node/cli.ts',
    testing: 'src/node/testing/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: {
    entry: {
      index: 'src/index.ts',
      core: 'src/core.ts',
      gateway: 'src/gateway.ts',
      node: 'src/node.ts',
      testing: 'src/node/testing/index.ts',
    },
  },
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  // `interlingua check` reads answers with the official SDKs when the user has them installed, never bundled.
  external: ['openai', '@anthropic-ai/sdk', '@google/genai'],
})
