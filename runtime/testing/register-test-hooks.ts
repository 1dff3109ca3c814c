// The `--import` of every `spout test` process (built to dist/testing-register.js): registers the
// module hooks of test-loader-hooks.ts (built beside it as dist/testing-hooks.js).
import { register } from 'node:module';
import { type TestHooksData, TYPESCRIPT_FILE } from './test-loader-hooks';

const data: TestHooksData = { testingUrl: new URL('./testing.js', import.meta.url).href };
register(new URL('./testing-hooks.js', import.meta.url), { data });
// Stacks of a TypeScript test point at its own lines (source maps cost time to read: only then).
if (TYPESCRIPT_FILE.test(process.argv[1] ?? '')) process.setSourceMapsEnabled(true);
