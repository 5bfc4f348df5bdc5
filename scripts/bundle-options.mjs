// How the server is bundled (scripts/build.mjs), shared with the load test, which bundles its
// echo baseline the same way (loadtest/echo-bundle.ts): Node ESM, the npm packages left as imports.
import { join } from 'node:path';

export function bundleOptions(root) {
  return {
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // The Colyseus schema decorators need the legacy decorators and assignment semantics of
    // tsconfig.json (experimentalDecorators, useDefineForClassFields: false).
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
  };
}
