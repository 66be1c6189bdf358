/**
 * src/services/workflow/asl-structure-check.ts: asl-validator's transition, state-name and terminal-state checks
 * read over the state machine's structure. Differential against asl-validator's own checks on random nested
 * machines (transitions inside and outside their machine, to missing states, unreachable and duplicate states),
 * and the definitions asl-validator's recursive JSONPath got wrong: states named Next, End or Default, members of
 * those names in Parameters and Result, an ItemProcessor state transitioning out of its Map.
 */
import fc from 'fast-check';
import {
  validateAsl,
  originalStructureChecks,
  structuralDuplicateStateNames,
  structuralMissingTransitionTargetErrors,
  structuralStatesContainer,
  structuralStateTransitionsErrors,
} from '../../../src/services/workflow/asl-structure-check';
import { diagnoseDefinition } from '../../../src/services/workflow/definition-check';

type Doc = Record<string, unknown>;

/**
 * A machine whose states are named `<prefix><i>`; transitions pick from its own states, the outer machine's
 * (`outer`) and a state that does not exist, so every check has something to find. Map processors are written as
 * `Iterator` and Parallel/Map states carry no Catch: asl-validator's own outbound check looks at nothing else.
 */
function machine(prefix: string, outer: string[], depth: number): fc.Arbitrary<Doc> {
  return fc.integer({ min: 1, max: 4 }).chain((n) => {
    const names = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const target = fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 8 }, { arbitrary: fc.constantFrom('Nowhere', ...(outer.length ? outer : names)), weight: 1 });
    const leaf = fc.oneof(
      fc.record({ Type: fc.constant('Pass'), Next: target }),
      fc.record({ Type: fc.constant('Pass'), End: fc.constant(true) }),
      fc.record({ Type: fc.constant('Succeed') }),
      fc.record({ Type: fc.constant('Fail'), Error: fc.constant('E') }),
      fc.record({ Type: fc.constant('Choice'), Choices: fc.array(fc.record({ Variable: fc.constant('$.x'), IsPresent: fc.constant(true), Next: target }), { minLength: 1, maxLength: 2 }), Default: target }, { requiredKeys: ['Type', 'Choices'] }),
      fc.record(
        {
          Type: fc.constant('Task'),
          Resource: fc.constant('echo'),
          // field names that clash once ".$" is stripped, also in a nested member named Parameters
          Parameters: fc.constantFrom({ x: 1 }, { x: 1, 'x.$': '$.x' }, { n: { Parameters: { y: 1, 'y.$': '$.y' } } }),
          Catch: fc.array(fc.record({ ErrorEquals: fc.constant(['States.ALL']), Next: target }), { maxLength: 2 }),
          Next: target,
          End: fc.constant(true),
        },
        { requiredKeys: ['Type', 'Resource'] },
      ),
    );
    const state = (name: string): fc.Arbitrary<Doc> =>
      depth >= 2
        ? leaf
        : fc.oneof(
            { arbitrary: leaf, weight: 4 },
            { arbitrary: fc.record({ Type: fc.constant('Parallel'), Branches: fc.array(machine(`${name}b`, names, depth + 1), { minLength: 1, maxLength: 2 }), Next: target }), weight: 1 },
            { arbitrary: fc.record({ Type: fc.constant('Map'), Iterator: machine(`${name}m`, names, depth + 1), End: fc.constant(true) }), weight: 1 },
          );
    return fc.tuple(fc.tuple(...names.map(state)), target).map(([states, startAt]) => ({ StartAt: startAt, States: Object.fromEntries(names.map((nm, i) => [nm, states[i]])) }));
  });
}

const copy = (d: Doc): Doc => JSON.parse(JSON.stringify(d)) as Doc;

type Validator = (d: unknown, o: { checkPaths: boolean; checkArn: boolean }) => { isValid: boolean; errors: unknown[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const aslValidator = require('asl-validator') as Validator;
const OPTIONS = { checkPaths: true, checkArn: false };

describe('asl-validator structure checks, read over the structure', () => {
  const original = originalStructureChecks();
  const ours: Record<string, (d: Doc) => unknown> = {
    getStatesContainer: structuralStatesContainer,
    missingTransitionTargetErrors: structuralMissingTransitionTargetErrors,
    stateTransitionsErrors: structuralStateTransitionsErrors,
    duplicateStateNames: structuralDuplicateStateNames,
  };

  it('answers as asl-validator on machines without members named like transitions (same errors, same order)', () => {
    const found = new Map<string, number>();
    fc.assert(
      fc.property(machine('S', [], 0), fc.boolean(), (doc, duplicate) => {
        // a duplicate state name: the first state's name again in a nested machine, when there is one
        const d = copy(doc);
        if (duplicate) {
          const inner = JSON.stringify(d).match(/"(S\d+[bm]\d+)"/)?.[1];
          if (inner) Object.assign(d, JSON.parse(JSON.stringify(d).split(`"${inner}"`).join('"S0"')));
        }
        for (const name of Object.keys(ours)) {
          const expected = original[name](copy(d));
          if (Array.isArray(expected) && expected.length) found.set(name, (found.get(name) ?? 0) + 1);
          expect(ours[name](copy(d))).toEqual(expected);
        }
      }),
      { numRuns: 300, seed: 20261128 },
    );
    // The random machines do reach every kind of error.
    for (const name of ['missingTransitionTargetErrors', 'stateTransitionsErrors', 'duplicateStateNames']) expect(found.get(name) ?? 0).toBeGreaterThan(5);
  });

  it('accepts states named Next, End and Default, in every place a transition names them', () => {
    const defs: Doc[] = [
      { StartAt: 'Next', States: { Next: { Type: 'Pass', Next: 'End' }, End: { Type: 'Pass', Next: 'Default' }, Default: { Type: 'Succeed' } } },
      {
        StartAt: 'Choose',
        States: {
          Choose: { Type: 'Choice', Choices: [{ Variable: '$.a', IsPresent: true, Next: 'Next' }], Default: 'Default' },
          Next: { Type: 'Task', Resource: 'echo', Catch: [{ ErrorEquals: ['States.ALL'], Next: 'End' }], End: true },
          End: { Type: 'Fail', Error: 'Caught' },
          Default: { Type: 'Succeed' },
        },
      },
      { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: [{ StartAt: 'Next', States: { Next: { Type: 'Pass', Next: 'Default' }, Default: { Type: 'Pass', End: true } } }], Next: 'End' }, End: { Type: 'Succeed' } } },
      { StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: { StartAt: 'End', States: { End: { Type: 'Pass', End: true } } }, End: true } } },
      { QueryLanguage: 'JSONata', StartAt: 'Next', States: { Next: { Type: 'Pass', Output: '{% $states.input %}', Next: 'Default' }, Default: { Type: 'Succeed' } } },
    ];
    for (const d of defs) expect(diagnoseDefinition(JSON.stringify(d)).diagnostics).toEqual([]);
  });

  it('does not read data members named Next, Default, StartAt or States as transitions or machines', () => {
    const d = {
      StartAt: 'A',
      States: {
        A: { Type: 'Pass', Result: { Next: 'Z', Default: 'Y', StartAt: 'X', States: { Q: { Type: 'Pass' } } }, Next: 'B' },
        B: { Type: 'Task', Resource: 'echo', Parameters: { Next: 'nowhere', 'Default.$': '$.d', States: { R: {} } }, End: true },
      },
    };
    expect(diagnoseDefinition(JSON.stringify(d)).diagnostics).toEqual([]);
    // Before: every one of them was a problem.
    const o = originalStructureChecks();
    expect([...o.missingTransitionTargetErrors(copy(d)), ...o.duplicateStateNames(copy(d))].length).toBeGreaterThan(0);
  });

  it('refuses what Step Functions refuses: targets outside the machine (an ItemProcessor too), missing, unreachable', () => {
    const codes = (d: Doc) => diagnoseDefinition(JSON.stringify(d)).diagnostics.map((x) => `${x.code}: ${x.message}`);
    expect(codes({ StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', Next: 'Done' } } }, Next: 'Done' }, Done: { Type: 'Succeed' } } })).toEqual([
      'MAP_OUTBOUND_TRANSITION_TARGET: Map branch state cannot transition to target: Done',
      // (its processor has no state that ends it)
      'MISSING_TERMINAL_STATE: State machine fsm2 is missing a terminal state',
    ]);
    expect(codes({ StartAt: 'P', States: { P: { Type: 'Parallel', Branches: [{ StartAt: 'I', States: { I: { Type: 'Pass', Next: 'Next' } } }], Next: 'Next' }, Next: { Type: 'Succeed' } } })).toEqual([
      'BRANCH_OUTBOUND_TRANSITION_TARGET: Parallel branch state cannot transition to target: Next',
      'MISSING_TERMINAL_STATE: State machine fsm2 is missing a terminal state',
    ]);
    expect(codes({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'Next' }, End: { Type: 'Succeed' } } })).toEqual([
      'MISSING_TRANSITION_TARGET: State End is not reachable',
      "MISSING_TRANSITION_TARGET: Missing 'StartAt'|'Next'|'Default' target: Next",
    ]);
    expect(codes({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'B' }, B: { Type: 'Parallel', Branches: [{ StartAt: 'A', States: { A: { Type: 'Succeed' } } }], End: true } } })).toEqual([
      'DUPLICATE_STATE_NAMES: A state with this name already exists: A',
    ]);
  });

  it('validates as asl-validator itself wherever it answers (same errors, same order)', () => {
    const found = new Map<string, number>();
    fc.assert(
      fc.property(machine('S', [], 0), fc.constantFrom('JSONPath', undefined), (doc, language) => {
        const d = language ? { QueryLanguage: language, ...doc } : doc;
        const expected = aslValidator(copy(d), OPTIONS);
        for (const e of expected.errors as Array<Record<string, string>>) found.set(e['Error code'], (found.get(e['Error code']) ?? 0) + 1);
        expect(validateAsl(copy(d), OPTIONS)).toEqual({ isValid: expected.isValid, errors: expected.errors });
      }),
      { numRuns: 300, seed: 20261128 },
    );
    for (const code of ['MISSING_TRANSITION_TARGET', 'DUPLICATE_FIELD_NAME', 'TERMINAL_STATE_WITH_NEXT']) expect(found.get(code) ?? 0).toBeGreaterThan(5);
  });

  // Shapes asl-validator's set-up step threw on ("could not be validated"): each is refused where it is.
  const MALFORMED: Array<[string, Doc, string]> = [
    ['States null', { StartAt: 'A', States: null }, '/States'],
    ['States a string', { StartAt: 'A', States: 'A' }, '/States'],
    ['States an array', { StartAt: 'A', States: [{ Type: 'Pass', End: true }] }, '/States'],
    ['a state null', { StartAt: 'A', States: { A: null } }, '/States/A'],
    ['a state a string', { StartAt: 'A', States: { A: 'Pass' } }, '/States/A'],
    ['a state a number', { StartAt: 'A', States: { A: { Type: 'Pass', Next: 'B' }, B: 7 } }, '/States/B'],
    ['StartAt a number', { StartAt: 1, States: { A: { Type: 'Pass', End: true } } }, '/StartAt'],
    ['StartAt null', { StartAt: null, States: { A: { Type: 'Pass', End: true } } }, '/StartAt'],
    ['Branches an object', { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: { StartAt: 'B', States: { B: { Type: 'Succeed' } } }, End: true } } }, '/States/P/Branches'],
    ['Branches a string', { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: 'B', End: true } } }, '/States/P/Branches'],
    ['a branch null', { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: [null], End: true } } }, '/States/P/Branches/0'],
    ['a branch\'s States null', { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: [{ StartAt: 'B', States: null }], End: true } } }, '/States/P/Branches/0/States'],
    ['a branch\'s state a string', { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: [{ StartAt: 'B', States: { B: 'x' } }], End: true } } }, '/States/P/Branches/0/States/B'],
    ['ItemProcessor a string', { StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: 'x', End: true } } }, '/States/M/ItemProcessor'],
    ['ItemProcessor null', { StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: null, End: true } } }, '/States/M/ItemProcessor'],
    ['ItemProcessor an array', { StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: [], End: true } } }, '/States/M/ItemProcessor'],
    ['Iterator a number', { StartAt: 'M', States: { M: { Type: 'Map', Iterator: 5, End: true } } }, '/States/M/Iterator'],
    ['ItemProcessor States a string', { StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: { StartAt: 'I', States: 'I' }, End: true } } }, '/States/M/ItemProcessor/States'],
    ['an ItemProcessor state null', { StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: { StartAt: 'I', States: { I: null } }, End: true } } }, '/States/M/ItemProcessor/States/I'],
  ];

  it.each(MALFORMED)('%s: SCHEMA_VALIDATION_FAILED at its place, not "could not be validated"', (_, doc, location) => {
    const d = diagnoseDefinition(JSON.stringify(doc));
    expect(d.detail).not.toMatch(/could not be validated/);
    expect(d.diagnostics[0]).toEqual({ severity: 'ERROR', code: 'SCHEMA_VALIDATION_FAILED', message: expect.stringContaining(`${location} is invalid. must be`), location });
  });

  it('a required member missing is reported at the root, "/"', () => {
    expect(diagnoseDefinition(JSON.stringify({ StartAt: 'A' })).diagnostics).toEqual([
      { severity: 'ERROR', code: 'SCHEMA_VALIDATION_FAILED', message: "/ is invalid. must have required property 'States'", location: '/' },
    ]);
  });

  it('accepts data members named States, Parameters or ResultSelector whatever they hold', () => {
    const pass = (extra: Doc, language?: string): Doc => ({ ...(language ? { QueryLanguage: language } : {}), StartAt: 'A', States: { A: { Type: 'Pass', ...extra, End: true } } });
    const defs: Doc[] = [
      pass({ Parameters: { States: null } }),
      pass({ Parameters: { States: 'x', n: { States: [1, null] } } }),
      pass({ Result: { States: { x: 1, y: null } } }),
      pass({ Result: { Parameters: null, ResultSelector: 'x' } }),
      { StartAt: 'T', States: { T: { Type: 'Task', Resource: 'echo', ResultSelector: { States: 'x' }, End: true } } },
      { StartAt: 'M', States: { M: { Type: 'Map', ItemSelector: { States: null }, ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', Result: { States: 'I' }, End: true } } }, End: true } } },
      pass({ Output: { States: null, Parameters: null } }, 'JSONata'),
      pass({ Assign: { States: null } }, 'JSONata'),
    ];
    for (const d of defs) expect([JSON.stringify(d), diagnoseDefinition(JSON.stringify(d)).diagnostics]).toEqual([JSON.stringify(d), []]);
    // asl-validator itself threw on each (its set-up step or its duplicate-field check)
    const original = (d: Doc) => {
      try {
        aslValidator(copy(d), OPTIONS);
        return 'answered';
      } catch (e) {
        return (e as Error).name;
      }
    };
    for (const d of defs) expect([JSON.stringify(d), original(d)]).toEqual([JSON.stringify(d), 'TypeError']);
  });
});
