/**
 * No runtime import cycles in the gateway's sources (src/, resolvers/, entities/): a cycle makes what a module
 * sees at load time depend on which file was required first (an `undefined` class or a half-built list).
 * Imports of types only are fine (they are gone from the emitted JavaScript), so the graph is read from each
 * file as TypeScript compiles it.
 */
import * as path from 'node:path';
import { importCycles, importGraph, tsconfigOptions } from '../helpers/import-graph';

const ROOT = path.resolve(__dirname, '..', '..');

describe('runtime imports', () => {
  const graph = importGraph(ROOT, ['src', 'resolvers', 'entities'], tsconfigOptions(ROOT));

  it('reads the sources (the graph is not empty, and sees the module list and the server)', () => {
    expect(graph.edges.get('src/server.ts')).toEqual(expect.arrayContaining(['src/modules/index.ts', 'src/context.ts']));
    expect(graph.edges.size).toBeGreaterThan(200);
  });

  it('has no cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the checker itself)', () => {
    const edges = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles({ edges })).toEqual(expect.arrayContaining([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]));
    expect(importCycles({ edges })).toHaveLength(2);
  });
});
