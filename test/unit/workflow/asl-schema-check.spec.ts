/**
 * Differential test of src/services/workflow/asl-schema-check.ts: asl-validator's own JSON Schema check (a new Ajv
 * per call) and the cached one answer the same for valid definitions of every state type, in both query languages,
 * and for random breakages of them.
 */
import fc from 'fast-check';
import { cachedJsonSchemaErrors, originalJsonSchemaErrors } from '../../../src/services/workflow/asl-schema-check';
import { diagnoseDefinition } from '../../../src/services/workflow/definition-check';

type Doc = Record<string, unknown>;

const DEFINITIONS: Doc[] = [
  { StartAt: 'A', States: { A: { Type: 'Pass', Result: { x: 1 }, ResultPath: '$.r', Next: 'B' }, B: { Type: 'Succeed' } } },
  {
    Comment: 'every JSONPath state',
    StartAt: 'T',
    TimeoutSeconds: 60,
    States: {
      T: { Type: 'Task', Resource: 'arn:aws:states:::echo', Parameters: { 'a.$': '$.a', 'f.$': "States.Format('{}', $.a)" }, ResultSelector: { 'v.$': '$.v' }, Retry: [{ ErrorEquals: ['States.ALL'], MaxAttempts: 2, BackoffRate: 2 }], Catch: [{ ErrorEquals: ['States.TaskFailed'], Next: 'F', ResultPath: '$.err' }], Next: 'C' },
      C: { Type: 'Choice', Choices: [{ Variable: '$.n', NumericGreaterThan: 3, Next: 'W' }, { And: [{ Variable: '$.s', StringEquals: 'x' }, { Not: { Variable: '$.b', BooleanEquals: true } }], Next: 'P' }], Default: 'M' },
      W: { Type: 'Wait', SecondsPath: '$.wait', Next: 'P' },
      P: { Type: 'Parallel', Branches: [{ StartAt: 'P1', States: { P1: { Type: 'Pass', End: true } } }], Next: 'M' },
      M: { Type: 'Map', ItemsPath: '$.items', MaxConcurrency: 2, ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' }, StartAt: 'I', States: { I: { Type: 'Pass', End: true } } }, Next: 'S' },
      S: { Type: 'Succeed' },
      F: { Type: 'Fail', Error: 'Broken', Cause: 'it broke' },
    },
  },
  {
    QueryLanguage: 'JSONata',
    StartAt: 'A',
    States: {
      A: { Type: 'Pass', Output: '{% $states.input.a + 1 %}', Assign: { total: '{% $states.input.n %}' }, Next: 'C' },
      C: { Type: 'Choice', Choices: [{ Condition: '{% $total > 2 %}', Next: 'M' }], Default: 'F' },
      M: { Type: 'Map', Items: '{% [1, 2, 3] %}', ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'I', States: { I: { Type: 'Task', Resource: 'arn:aws:states:::echo', Arguments: { v: '{% $states.input %}' }, End: true } } }, End: true },
      F: { Type: 'Fail', Error: '{% "E" & $string($total) %}' },
    },
  },
];

/** Breakages: a field removed, replaced by a value of another kind, a path or expression made invalid. */
const BAD_VALUES: unknown[] = [null, 7, -1, 'x', '$.', '$$$', '{% (( %}', '{% $states.input %}', [], {}, true, 'arn:aws:states:::echo'];

function paths(doc: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) {
      out.push([...at, k]);
      paths(v, [...at, k], out);
    }
  }
  return out;
}

function broken(doc: Doc, path: string[], value: unknown | undefined): Doc {
  const copy = JSON.parse(JSON.stringify(doc)) as Doc;
  let o = copy as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  if (value === undefined) delete o[path[path.length - 1]];
  else o[path[path.length - 1]] = value;
  return copy;
}

/** The document as asl-validator hands it to the schema check: every state's QueryLanguage set (default JSONPath). */
function asValidatorSees(doc: Doc): Doc {
  const copy = JSON.parse(JSON.stringify(doc)) as Doc;
  const language = typeof copy.QueryLanguage === 'string' ? copy.QueryLanguage : 'JSONPath';
  const visit = (o: unknown): void => {
    if (!o || typeof o !== 'object') return;
    for (const [k, v] of Object.entries(o)) {
      if (k === 'States' && v && typeof v === 'object' && !Array.isArray(v)) {
        for (const state of Object.values(v)) if (state && typeof state === 'object' && !Array.isArray(state) && !(state as Doc).QueryLanguage) (state as Doc).QueryLanguage = language;
      }
      visit(v);
    }
  };
  visit(copy);
  return copy;
}

const OPTIONS = [{ checkPaths: true, checkArn: false }, { checkPaths: false, checkArn: true }];

const jsonata = (states: Doc): Doc => ({ QueryLanguage: 'JSONata', StartAt: Object.keys(states)[0], States: states });
const pass = (extra: Doc): Doc => jsonata({ A: { Type: 'Pass', ...extra, End: true } });
const task = (extra: Doc): Doc => jsonata({ A: { Type: 'Task', Resource: 'echo', ...extra, End: true } });

/**
 * The relaxations of asl-validator's JSONata schema (asl-schema-check.ts, relaxJsonata): definitions Step Functions
 * documents as valid, which asl-validator refuses. Everywhere else the check answers as asl-validator.
 */
const RELAXED: Array<[string, Doc]> = [
  ['nested arrays in Output', pass({ Output: { x: [[1]] } })],
  ['an expression in nested arrays of Arguments', task({ Arguments: { m: [['a', '{% $states.input.v %}']] } })],
  ['nested arrays in a Map ItemSelector', jsonata({ M: { Type: 'Map', Items: '{% [1] %}', ItemSelector: { pair: [['i', '{% $states.context.Map.Item.Index %}']] }, ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', End: true } } }, End: true } })],
  ['an array of arrays in Assign', pass({ Assign: { grid: [[1, 2], [3]] } })],
  ['an empty string in Arguments', task({ Arguments: { prefix: '' } })],
  ['an empty string in Assign', pass({ Assign: { prefix: '' } })],
  ['a multi-line literal in Output', pass({ Output: { text: 'line 1\nline 2' } })],
  ['Output an array with an expression', pass({ Output: [1, '{% $states.input.a %}'] })],
  ['Output an array', pass({ Output: [1, 2] })],
  ['Output a number', pass({ Output: 5 })],
  ['Output true', pass({ Output: true })],
  ['Output null', pass({ Output: null })],
  ['Output a literal string', pass({ Output: 'literal' })],
  ['Output the empty string', pass({ Output: '' })],
  ['a Task Output an array', task({ Output: ['{% $states.result %}'] })],
  ['a Succeed Output a string', jsonata({ S: { Type: 'Succeed', Output: 'done' } })],
];

/** What Step Functions refuses stays refused: [case, definition, the first diagnostic's message]. */
const STILL_REFUSED: Array<[string, Doc, string]> = [
  ['Output in a JSONPath state', { StartAt: 'A', States: { A: { Type: 'Pass', Output: [1], End: true } } }, "field 'Output' is only supported for the 'JSONata' QueryLanguage"],
  ['Parameters in a JSONata state', pass({ Parameters: { a: 1 } }), "field 'Parameters' is only supported for the 'JSONPath' QueryLanguage"],
  ['a .$ field in a JSONata state', pass({ 'Output.$': '$.a' }), "field 'Output.$' is only supported for the 'JSONPath' QueryLanguage"],
  ['Arguments an array', task({ Arguments: [1] }), '/States/A/Arguments is invalid. must match exactly one schema in oneOf'],
  ['Arguments a number', task({ Arguments: 5 }), '/States/A/Arguments is invalid. must match exactly one schema in oneOf'],
  ['Arguments a literal string', task({ Arguments: 'x' }), '/States/A/Arguments is invalid. must match exactly one schema in oneOf'],
  ['Assign an array', pass({ Assign: [1] }), '/States/A/Assign is invalid. must be object'],
  ['Assign a string', pass({ Assign: '{% {} %}' }), '/States/A/Assign is invalid. must be object'],
  ['an invalid expression in nested arrays', pass({ Output: [['{% ((( %}']] }), 'Expected ")" before end of expression'],
  ['an expression not closed, in nested arrays', task({ Arguments: { a: [['{% 1 ']] } }), '/States/A/Arguments/a/0/0 is invalid. must match exactly one schema in oneOf'],
  ['Output an expression not closed', pass({ Output: '{% 1 ' }), '/States/A/Output is invalid. must match exactly one schema in oneOf'],
  ['QueryLanguage XPath', pass({ QueryLanguage: 'XPath' }), '/States/A/QueryLanguage is invalid. must be equal to one of the allowed values'],
];

/** A breakage the relaxations accept (the random breakages compare with asl-validator everywhere else). */
const relaxedBreakage = (path: string[], value: unknown): boolean =>
  value === '' || (path[path.length - 1] === 'Output' && (value === null || typeof value !== 'object' || Array.isArray(value)) && !(typeof value === 'string' && value.startsWith('{% ')));

describe('asl-validator schema check, cached', () => {
  const original = originalJsonSchemaErrors();

  it('answers as asl-validator for valid definitions of every state type, in both query languages', () => {
    for (const doc of DEFINITIONS) {
      for (const opts of OPTIONS) {
        const expected = original(asValidatorSees(doc), opts);
        expect(expected).toEqual([]);
        expect(cachedJsonSchemaErrors(asValidatorSees(doc), opts)).toEqual(expected);
      }
    }
  });

  it('answers as asl-validator for random breakages (same errors, same order)', () => {
    const cases = fc.oneof(
      ...DEFINITIONS.map((doc) => fc.tuple(fc.constant(doc), fc.constantFrom(...paths(doc)), fc.option(fc.constantFrom(...BAD_VALUES), { nil: undefined }), fc.constantFrom(...OPTIONS))),
    );
    let failing = 0;
    fc.assert(
      fc.property(cases, ([doc, path, value, opts]) => {
        fc.pre(!relaxedBreakage(path, value));
        const d = asValidatorSees(broken(doc, path, value));
        const expected = original(JSON.parse(JSON.stringify(d)), opts);
        if (expected.length) failing++;
        expect(cachedJsonSchemaErrors(JSON.parse(JSON.stringify(d)), opts)).toEqual(expected);
      }),
      { numRuns: 25, seed: 20261128 },
    );
    // The breakages do reach the error selection.
    expect(failing).toBeGreaterThan(5);
  });

  it.each(RELAXED)('accepts what Step Functions documents and asl-validator refuses: %s', (_, doc) => {
    // the definition check's options (its resources are the gateway's task names, no ARNs)
    const opts = OPTIONS[0];
    expect(original(asValidatorSees(doc), opts)).not.toEqual([]);
    expect(cachedJsonSchemaErrors(asValidatorSees(doc), opts)).toEqual([]);
    expect(diagnoseDefinition(JSON.stringify(doc)).diagnostics).toEqual([]);
  });

  it.each(STILL_REFUSED)('still refuses what Step Functions refuses: %s', (_, doc, message) => {
    const d = diagnoseDefinition(JSON.stringify(doc));
    expect(d.detail).toBeDefined();
    expect(d.diagnostics[0].message).toContain(message);
  });

  it("drops the schema's variant noise (QueryLanguage, Type) next to a state's real diagnostic, never a wrong QueryLanguage or Type", () => {
    // asl-validator: the real diagnostic, and "QueryLanguage"/"Type" ones from the variants it tried
    const assignArray = pass({ Assign: [1] });
    const noisy = original(asValidatorSees(assignArray), OPTIONS[0]).map((e) => String(e.Message));
    expect(noisy).toEqual(expect.arrayContaining(['/States/A/QueryLanguage is invalid. must be equal to one of the allowed values', '/States/A/Assign is invalid. must be object']));
    expect(diagnoseDefinition(JSON.stringify(assignArray)).diagnostics.map((x) => x.message)).toEqual(['/States/A/Assign is invalid. must be object']);
    // the same in a nested state, its QueryLanguage inherited
    const nested = jsonata({ P: { Type: 'Parallel', Branches: [{ StartAt: 'B', States: { B: { Type: 'Pass', Assign: 'x', End: true } } }], End: true } });
    expect(diagnoseDefinition(JSON.stringify(nested)).diagnostics.map((x) => x.message)).toEqual(['/States/P/Branches/0/States/B/Assign is invalid. must be object']);
    // a wrong QueryLanguage is reported (once, not once per variant), a wrong Type too
    expect(diagnoseDefinition(JSON.stringify(pass({ QueryLanguage: 'XPath', Assign: { a: 1 } }))).diagnostics.map((x) => x.message)).toEqual(['/States/A/QueryLanguage is invalid. must be equal to one of the allowed values']);
    expect(diagnoseDefinition(JSON.stringify(jsonata({ A: { Type: 'Pas', End: true } }))).diagnostics.map((x) => x.message)).toEqual(['/States/A/Type is invalid. must be equal to one of the allowed values']);
  });

  it('is what the definition check uses: an invalid path is reported at its place', () => {
    const d = diagnoseDefinition(JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', InputPath: '$$$', End: true } } }));
    expect(d.detail).toMatch(/SCHEMA_VALIDATION_FAILED: \/States\/A\/InputPath is invalid/);
  });

  it('every breakage of the definitions is refused at its place or accepted, never "could not be validated"', () => {
    // each member of each definition removed or replaced by each bad value: a table of about 1,600 shapes
    let refused = 0;
    for (const doc of DEFINITIONS) {
      for (const path of paths(doc)) {
        for (const value of [...BAD_VALUES, undefined]) {
          const d = diagnoseDefinition(JSON.stringify(broken(doc, path, value)));
          const shape = `/${path.join('/')} = ${JSON.stringify(value)}`;
          expect([shape, d.detail ?? 'accepted']).not.toEqual([shape, expect.stringMatching(/could not be validated/)]);
          const schema = d.diagnostics.filter((x) => x.code === 'SCHEMA_VALIDATION_FAILED');
          expect([shape, schema.filter((x) => !x.location)]).toEqual([shape, []]);
          if (d.detail) refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(500);
  });
});
