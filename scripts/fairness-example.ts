/**
 * npm run fairness-example: rewrites the worked example of docs/fairness.md (between its
 * `<!-- example:start -->` and `<!-- example:end -->` markers) from the code, so that every
 * hex digit there is what the code computes; test/audit/fairness-example.test.ts checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fairnessExample, withExample } from '../src/audit/fairness-example';

const doc = new URL('../docs/fairness.md', import.meta.url);
writeFileSync(doc, withExample(readFileSync(doc, 'utf8'), fairnessExample()));
console.log('docs/fairness.md: example rewritten');
