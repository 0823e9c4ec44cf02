import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/core.ts', 'src/gateway.ts', 'src/node.ts', 'src/node/cli.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: ['src/index.ts', 'src/core.ts', 'src/gateway.ts', 'src/node.ts'] },
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
})
