import * as fs from 'node:fs';
import * as path from 'node:path';
import { printSdl } from '../../src/graphql/schema';

describe('schema/schema.graphql', () => {
  it('is the SDL the resolvers build (run `npm run schema:emit` when this fails)', async () => {
    const committed = fs.readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8');
    expect(committed).toBe(await printSdl());
  });
});
