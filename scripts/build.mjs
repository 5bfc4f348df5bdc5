// `npm run build`: bundles the server (src/server/main.ts) into dist/main.js with esbuild, the
// npm packages left as imports (production installs them), and copies the Lua scripts and the
// built page (web/dist/) beside it, so that dist/ runs alone.
// Plain JavaScript so that `npm start` can call it without tsx.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/**
 * Modules find their Lua scripts next to themselves (`new URL('./lua/…', import.meta.url)`); in
 * one bundle every module would share dist/main.js's URL. Each module keeps its own instead, as
 * if it still stood at its source path under dist/, where the Lua files are copied.
 */
const ownUrlPerModule = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const asIfAt = relative(root, args.path).split('\\').join('/');
      const url = `new URL(${JSON.stringify(`./${asIfAt}`)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

function copyLua(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copyLua(path);
    else if (entry.name.endsWith('.lua')) {
      const target = join(dist, relative(root, path));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}

rmSync(dist, { recursive: true, force: true });
// The browser page (web/) has its own build when the project has one.
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (scripts['build:web']) {
  const web = spawnSync('npm', ['run', 'build:web'], { cwd: root, stdio: 'inherit' });
  if (web.status !== 0) process.exit(web.status ?? 1);
}
await build({
  ...bundleOptions(root),
  entryPoints: [join(root, 'src/server/main.ts')],
  outfile: join(dist, 'main.js'),
  plugins: [ownUrlPerModule],
});
copyLua(join(root, 'src'));
// The page goes with the server: dist/web/dist/ is where the bundled web-page module looks first.
if (existsSync(join(root, 'web', 'dist'))) cpSync(join(root, 'web', 'dist'), join(dist, 'web', 'dist'), { recursive: true });
// What `npm start` compares with the sources to know whether dist/ is stale.
writeFileSync(join(dist, 'BUILT'), `${new Date().toISOString()}\n`);
