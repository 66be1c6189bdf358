/** Definition checks for JSONata states and variables: Step Functions' diagnostics on create/update. */
import { checkDefinition, diagnoseDefinition } from '../../../src/services/workflow/definition-check';
import { DefinitionCheckPool, INLINE_LIMIT } from '../../../src/services/workflow/definition-check-pool';

const refuse = (doc: unknown): string => {
  try {
    checkDefinition(JSON.stringify(doc));
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the definition was accepted');
};
const machine = (states: Record<string, unknown>, top: Record<string, unknown> = { QueryLanguage: 'JSONata' }) => ({ ...top, StartAt: Object.keys(states)[0], States: states });

describe('JSONata definitions', () => {
  test('a JSONata definition with variables is accepted', () => {
    const doc = machine({
      A: { Type: 'Pass', Assign: { x: '{% $states.input.v %}' }, Output: { y: '{% $x %}' }, Next: 'C' },
      C: { Type: 'Choice', Choices: [{ Condition: '{% $x > 1 %}', Next: 'T', Assign: { z: 1 } }], Default: 'T' },
      T: {
        Type: 'Task',
        Resource: 'echo',
        Arguments: { a: '{% $x %}' },
        TimeoutSeconds: '{% 10 %}',
        Catch: [{ ErrorEquals: ['States.ALL'], Output: '{% $states.errorOutput %}', Next: 'D' }],
        Next: 'M',
      },
      M: { Type: 'Map', Items: '{% [1, 2] %}', ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', Output: '{% $x %}', End: true } } }, Next: 'D' },
      D: { Type: 'Succeed' },
    });
    expect(checkDefinition(JSON.stringify(doc)).text).toContain('JSONata');
  });

  test.each([
    ['InputPath', { InputPath: '$.a' }],
    ['Parameters', { Parameters: { a: 1 } }],
    ['ResultPath', { ResultPath: '$.r' }],
    ['OutputPath', { OutputPath: '$.o' }],
    ['Result', { Result: 1 }],
  ])('JSONPath field %s in a JSONata state is refused', (field, extra) => {
    const msg = refuse(machine({ A: { Type: 'Pass', End: true, ...extra } }));
    expect(msg).toBe(
      `Invalid State Machine Definition: 'SCHEMA_VALIDATION_FAILED: The QueryLanguage is set to 'JSONata', but field '${field}' is only supported for the 'JSONPath' QueryLanguage at /States/A'`,
    );
  });

  test('ResultSelector on a JSONata Task and Variable in a JSONata Choice are refused', () => {
    expect(refuse(machine({ T: { Type: 'Task', Resource: 'echo', ResultSelector: { a: 1 }, End: true } }))).toContain("field 'ResultSelector' is only supported for the 'JSONPath' QueryLanguage");
    expect(refuse(machine({ C: { Type: 'Choice', Choices: [{ Variable: '$.a', StringEquals: 'x', Next: 'D' }], Default: 'D' }, D: { Type: 'Succeed' } }))).toContain(
      "field 'Variable' is only supported for the 'JSONPath' QueryLanguage",
    );
  });

  test('Output in a JSONPath state is refused', () => {
    expect(refuse(machine({ A: { Type: 'Pass', Output: 1, End: true } }, {}))).toContain("The QueryLanguage is set to 'JSONPath', but field 'Output' is only supported for the 'JSONata' QueryLanguage at /States/A");
  });

  test('a state cannot be JSONPath in a JSONata machine', () => {
    expect(refuse(machine({ A: { Type: 'Pass', QueryLanguage: 'JSONPath', End: true } }))).toContain("'QueryLanguage' can not be 'JSONPath' if set to 'JSONata' for whole state machine");
  });

  test('an expression that does not parse is INVALID_JSONATA_EXPRESSION with its location', () => {
    expect(refuse(machine({ Main: { Type: 'Pass', Output: '{% 1 + %}', End: true } }))).toContain('INVALID_JSONATA_EXPRESSION');
    expect(refuse(machine({ Main: { Type: 'Pass', Output: { v: '{% 1 + %}' }, End: true } }))).toContain('at /States/Main/Output/v');
  });

  test('a top-level field reference is UNSUPPORTED_JSONATA_EXPRESSION', () => {
    expect(refuse(machine({ E: { Type: 'Pass', Output: { v: '{% phone %}' }, End: true } }))).toContain(
      "UNSUPPORTED_JSONATA_EXPRESSION: Reference to 'phone' at the top level is not supported. at /States/E/Output/v",
    );
  });

  test('$eval is refused', () => {
    expect(refuse(machine({ E: { Type: 'Pass', Output: "{% $eval('1') %}", End: true } }))).toContain("The function '$eval' is not supported");
  });
});

describe('variables in definitions', () => {
  test('a reference to a variable no state assigns is refused (JSONata and JSONPath)', () => {
    expect(refuse(machine({ A: { Type: 'Pass', Output: '{% $nowhere %}', End: true } }))).toContain("The variable '$nowhere' is not assigned");
    expect(refuse(machine({ A: { Type: 'Pass', Parameters: { 'a.$': '$nowhere.x' }, End: true } }, {}))).toContain("The variable '$nowhere' is not assigned");
    expect(refuse(machine({ A: { Type: 'Pass', Parameters: { 'a.$': "States.Format('{}', $nowhere)" }, End: true } }, {}))).toContain("'$nowhere'");
  });

  test('names bound inside an expression are not variables', () => {
    const doc = machine({ A: { Type: 'Pass', Output: '{% ($n := 2; $map([1, 2], function($v) { $v * $n })) %}', End: true } });
    expect(() => checkDefinition(JSON.stringify(doc))).not.toThrow();
  });

  test('a branch cannot assign a variable of an enclosing scope', () => {
    const doc = machine({
      A: { Type: 'Pass', Assign: { x: 1 }, Next: 'P' },
      P: { Type: 'Parallel', Branches: [{ StartAt: 'B', States: { B: { Type: 'Pass', Assign: { x: 2 }, End: true } } }], End: true },
    });
    expect(refuse(doc)).toContain("The variable 'x' is assigned in an enclosing scope");
  });

  test('a variable assigned in a branch is not visible outside it', () => {
    const doc = machine({
      P: { Type: 'Parallel', Branches: [{ StartAt: 'B', States: { B: { Type: 'Pass', Assign: { inner: 2 }, End: true } } }], Next: 'A' },
      A: { Type: 'Pass', Output: '{% $inner %}', End: true },
    });
    expect(refuse(doc)).toContain("The variable '$inner' is not assigned");
  });

  test('invalid and reserved variable names are refused', () => {
    expect(refuse(machine({ A: { Type: 'Pass', Assign: { 'a.b': 1 }, End: true } }))).toContain("The variable name 'a.b' is not valid");
    expect(refuse(machine({ A: { Type: 'Pass', Assign: { states: 1 }, End: true } }))).toContain("'states' is reserved");
  });
});

describe('diagnostics of large definitions (worker thread)', () => {
  test('a definition over the inline limit is diagnosed in the worker with the same diagnostics', async () => {
    const pool = new DefinitionCheckPool();
    try {
      const doc = machine({ A: { Type: 'Pass', Comment: 'x'.repeat(INLINE_LIMIT), Output: '{% $ghost %}', End: true } });
      const text = JSON.stringify(doc);
      expect(text.length).toBeGreaterThan(INLINE_LIMIT);
      const d = await pool.diagnose(text);
      expect(d.diagnostics).toEqual(diagnoseDefinition(text).diagnostics);
      expect(d.diagnostics[0]).toEqual(expect.objectContaining({ severity: 'ERROR', location: '/States/A/Output' }));
    } finally {
      await pool.close();
    }
  });
});

describe('warnings', () => {
  test('NO_DOLLAR and PASS_RESULT_IS_STATIC are warnings of a definition that is accepted', () => {
    const text = JSON.stringify({
      StartAt: 'A',
      States: {
        A: { Type: 'Pass', Parameters: { literal: '$.looks.like.a.path', nested: { fn: 'States.UUID()' }, 'ok.$': '$.x' }, Next: 'B' },
        B: { Type: 'Pass', Result: { 'v.$': '$.x' }, End: true },
      },
    });
    expect(() => checkDefinition(text)).not.toThrow();
    expect(diagnoseDefinition(text).diagnostics).toEqual([
      expect.objectContaining({ severity: 'WARNING', code: 'NO_DOLLAR', location: '/States/A/Parameters/literal' }),
      expect.objectContaining({ severity: 'WARNING', code: 'NO_DOLLAR', location: '/States/A/Parameters/nested/fn' }),
      expect.objectContaining({ severity: 'WARNING', code: 'PASS_RESULT_IS_STATIC', location: '/States/B/Result' }),
    ]);
  });
});
