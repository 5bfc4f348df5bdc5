import type { BuildOptions } from 'esbuild';

/** The esbuild settings the server is bundled with (scripts/bundle-options.mjs). */
export function bundleOptions(root: string): BuildOptions;
