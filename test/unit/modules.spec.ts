/**
 * The module contract (src/modules): every entity and migration belongs to exactly one module, the list is
 * checked (order of `requires`, one owner per service and loader name), and the files that wire the gateway
 * together iterate the list without naming a domain.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import * as calendarEntities from '../../entities/calendar';
import * as identityEntities from '../../entities/identity';
import * as secretScanningEntities from '../../entities/secret-scanning';
import * as workflowEntities from '../../entities/workflow';
import { POSTGRES_MIGRATIONS } from '../../src/db/migrations/postgres';
import { SQLITE_MIGRATIONS } from '../../src/db/migrations/sqlite';
import { createLoaders } from '../../src/loaders';
import { MODULES } from '../../src/modules';
import { clearLoaders } from '../../src/loaders/loader';
import { AnyModule, checkModules, defineModule } from '../../src/modules/module';
import { createServices } from '../../src/services';

const ROOT = path.resolve(__dirname, '..', '..');

/** Entity classes a domain folder exports (classes TypeORM knows as entities end in `Entity`). */
function entityClasses(exports: Record<string, unknown>): unknown[] {
  return Object.entries(exports)
    .filter(([name, v]) => typeof v === 'function' && /Entity$/.test(name))
    .map(([, v]) => v);
}

const tiny = (name: string, extra: Partial<AnyModule> = {}): AnyModule =>
  defineModule({ name, entities: [], migrations: { sqlite: [], postgres: [] }, services: () => ({}), resolvers: () => [], routes: {}, ...extra });

describe('module list', () => {
  it('lists every entity class of every domain folder, each in one module', () => {
    const listed = MODULES.flatMap((m) => m.entities);
    expect(new Set(listed).size).toBe(listed.length);
    const exported = [identityEntities, secretScanningEntities, calendarEntities, workflowEntities].flatMap((e) => entityClasses(e as Record<string, unknown>));
    expect(new Set(listed)).toEqual(new Set(exported));
  });

  it.each(['sqlite', 'postgres'] as const)('lists every %s migration, each in one module', (dialect) => {
    const listed = MODULES.flatMap((m) => m.migrations[dialect]);
    expect(new Set(listed).size).toBe(listed.length);
    const all = dialect === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS;
    expect(new Set(listed)).toEqual(new Set(all));
  });

  it('checks the order of requires and one owner per name', () => {
    expect(() => checkModules([tiny('a'), tiny('b', { requires: ['a'] })])).not.toThrow();
    expect(() => checkModules([tiny('b', { requires: ['a'] }), tiny('a')])).toThrow(/'b' requires 'a', which must come earlier/);
    expect(() => checkModules([tiny('a'), tiny('a')])).toThrow(/listed twice/);
    expect(() => createServices({}, [tiny('a', { services: () => ({ x: 1 }) }), tiny('b', { services: () => ({ x: 2 }) })])).toThrow(/'b' gives the service 'x'/);
    const loaders = (n: string) => () => ({ [n]: { clearAll() {} } });
    expect(() => createLoaders(undefined as never, undefined, [tiny('a', { loaders: loaders('y') }), tiny('b', { loaders: loaders('y') })])).toThrow(/'b' gives the loader 'y'/);
  });

  it('gives a module the services of the modules it requires, and only those', () => {
    const seen: object[] = [];
    createServices({}, [
      tiny('a', { services: () => ({ fromA: 'a' }) }),
      tiny('b', { services: () => ({ fromB: 'b' }) }),
      tiny('c', { requires: ['a'], services: (needs: object) => (seen.push(needs), {}) }),
    ]);
    expect(seen).toEqual([{ fromA: 'a' }]);
  });

  it.each(['src/server.ts', 'src/services/index.ts', 'src/loaders/index.ts', 'resolvers/index.ts', 'entities/index.ts', 'src/rest/routes.ts'])(
    '%s names no domain',
    (file) => {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      const names = MODULES.flatMap((m) => [m.name, m.name.replace(/-/g, ''), m.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())]);
      for (const name of new Set(names)) expect({ file, name, found: new RegExp(name, 'i').test(text) }).toEqual({ file, name, found: false });
    },
  );
});

/** The .ts files under `dir` (relative to the root), tests excluded. */
function sourcesUnder(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.spec.ts'))
    .map((f) => path.join(dir, f));
}

function parse(file: string, text = fs.readFileSync(path.join(ROOT, file), 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

/** Module-level `WeakMap`s / `WeakSet`s of a file (their names): state that outlives every request. */
function moduleLevelWeakCollections(source: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      const init = d.initializer;
      if (init && ts.isNewExpression(init) && ts.isIdentifier(init.expression) && /^Weak(Map|Set)$/.test(init.expression.text)) out.push(d.name.getText(source));
    }
  }
  return out;
}

/**
 * Where a file looks services up at call time (`ctx.services.x`, `tx.services`, `deps.services`, `{ services } = ctx`):
 * "file:line: text" of each. A service's own fields (`this.services`) are what its module gave it.
 */
function serviceLookups(source: ts.SourceFile): string[] {
  const out: string[] = [];
  const at = (node: ts.Node) => `${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.getText(source)}`;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'services' && node.expression.kind !== ts.SyntaxKind.ThisKeyword) out.push(at(node));
    else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === 'services') out.push(at(node));
    else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent) && ((node.propertyName ?? node.name).getText(source) === 'services')) out.push(at(node.parent));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('services get the services they use from their module', () => {
  it('no file under src/services/ looks services up on a context (or the app\'s deps)', () => {
    // src/services/index.ts is the registry: it calls each module's services(needs).
    const found = sourcesUnder('src/services')
      .filter((file) => file !== path.join('src', 'services', 'index.ts'))
      .flatMap((file) => serviceLookups(parse(file)));
    expect(found).toEqual([]);
  });

  it('sees a lookup (the checker itself)', () => {
    const text = [
      'class A {',
      '  constructor(private readonly services: object) {}',
      '  a(ctx: any, tx: any, deps: any) {',
      '    this.services;',
      '    ctx.services.workflowVersions.startTarget();',
      "    tx['services'];",
      '    const { config, services } = deps;',
      '    const services2 = { services: 1 };',
      '  }',
      '}',
    ].join('\n');
    expect(serviceLookups(parse('x.ts', text))).toEqual(['x.ts:5: ctx.services', "x.ts:6: tx['services']", 'x.ts:7: { config, services }']);
  });
});

describe('per-request state', () => {
  it('lives on the request (its loaders, context or REST request), never in module-level WeakMaps of the resolvers or REST rows', () => {
    const found = ['resolvers', 'src/rest'].flatMap((dir) => sourcesUnder(dir).flatMap((file) => moduleLevelWeakCollections(parse(file)).map((name) => `${file}: ${name}`)));
    expect(found).toEqual([]);
    // The checker itself sees one.
    expect(moduleLevelWeakCollections(parse('x.ts', 'const memo = new WeakMap<object, number>();\nfunction f() { const local = new WeakSet(); }'))).toEqual(['memo']);
  });

  it("keeps the calendar resolvers' memos on the request's loaders: another request starts empty, a write forgets read relations, not unlocks", () => {
    const one = createLoaders(undefined as never);
    const other = createLoaders(undefined as never);
    const event = {} as never;
    one.calendarEventMemos.unlocked.add(event);
    one.calendarEventMemos.relationsKnown.set(event, { venues: [], organizers: [], categories: [], tags: [] });
    expect(other.calendarEventMemos.unlocked.has(event)).toBe(false);
    expect(other.calendarEventMemos.relationsKnown.has(event)).toBe(false);
    clearLoaders(one);
    expect(one.calendarEventMemos.relationsKnown.has(event)).toBe(false);
    expect(one.calendarEventMemos.unlocked.has(event)).toBe(true);
  });
});
