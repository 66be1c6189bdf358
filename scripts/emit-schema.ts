/**
 * Writes the SDL of the one graph to schema/schema.graphql (npm run schema:emit).
 * `--check` exits 1 when the committed file is stale.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printSdl } from '../src/graphql/schema';

async function main(): Promise<void> {
  const target = path.resolve(__dirname, '..', '..', 'schema', 'schema.graphql');
  const sdl = await printSdl();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== sdl) {
      console.error('schema/schema.graphql is stale: run `npm run schema:emit` and commit the result.');
      process.exit(1);
    }
    console.log('schema/schema.graphql is up to date');
    return;
  }
  fs.writeFileSync(target, sdl);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
