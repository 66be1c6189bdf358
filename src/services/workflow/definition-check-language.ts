/**
 * The States Language rules asl-validator does not know (or words differently from Step Functions): which fields
 * each query language has, JSONata expressions that do not parse or read what Step Functions does not offer
 * (a top-level field, `$eval`), and workflow variables (names, scopes, references to variables no scope assigns).
 * Messages follow Step Functions' own diagnostics (code, message, location).
 */
import { analyseExpression, isExpression } from './engine/jsonata';

export interface Diagnostic {
  severity: 'ERROR' | 'WARNING';
  code: string;
  message: string;
  location?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Fields only JSONPath states have. */
const JSONPATH_ONLY = [
  'InputPath',
  'Parameters',
  'ResultSelector',
  'ResultPath',
  'OutputPath',
  'Result',
  'ItemsPath',
  'TimeoutSecondsPath',
  'HeartbeatSecondsPath',
  'SecondsPath',
  'TimestampPath',
  'MaxConcurrencyPath',
  'ToleratedFailureCountPath',
  'ToleratedFailurePercentagePath',
  'ErrorPath',
  'CausePath',
];
/** Fields only JSONata states have. */
const JSONATA_ONLY = ['Arguments', 'Output', 'Items'];
const COMPARATORS = [
  'StringEquals', 'StringLessThan', 'StringGreaterThan', 'StringLessThanEquals', 'StringGreaterThanEquals', 'StringMatches',
  'NumericEquals', 'NumericLessThan', 'NumericGreaterThan', 'NumericLessThanEquals', 'NumericGreaterThanEquals',
  'BooleanEquals', 'TimestampEquals', 'TimestampLessThan', 'TimestampGreaterThan', 'TimestampLessThanEquals', 'TimestampGreaterThanEquals',
  'IsNull', 'IsPresent', 'IsNumeric', 'IsString', 'IsBoolean', 'IsTimestamp', 'And', 'Or', 'Not',
];
/** Fields of a JSONata state whose strings may be `{% %}` expressions. */
const JSONATA_FIELDS = ['Arguments', 'Output', 'Assign', 'Items', 'ItemSelector', 'TimeoutSeconds', 'HeartbeatSeconds', 'Seconds', 'Timestamp', 'MaxConcurrency', 'ToleratedFailureCount', 'ToleratedFailurePercentage', 'Error', 'Cause'];

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_VARIABLE_NAME = 80;
const VAR_AT_START = /^\$([A-Za-z_][A-Za-z0-9_]*)/;
const MAX_DIAGNOSTICS = 100;

interface Reference {
  name: string;
  location: string;
  /** The state whose field holds the reference. */
  state: string;
}

interface Scope {
  /** variables assigned in this scope (by any of its states) */
  assigned: Map<string, string>;
  refs: Reference[];
  parent: Scope | null;
  kids: Scope[];
}

export function checkLanguage(doc: Obj): Diagnostic[] {
  return analyseLanguage(doc).diagnostics;
}

/**
 * Step Functions' `variableReferences` (DescribeStateMachine, DescribeStateMachineForExecution): state name -> the
 * variables its fields read, in the order first read; states reading none are left out.
 */
export function variableReferences(doc: Obj): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of analyseLanguage(doc).references) {
    const names = (out[r.state] ??= []);
    if (!names.includes(r.name)) names.push(r.name);
  }
  return out;
}

function analyseLanguage(doc: Obj): { diagnostics: Diagnostic[]; references: Reference[] } {
  const out: Diagnostic[] = [];
  const references: Reference[] = [];
  let current = '';
  const add = (code: string, message: string, location?: string) => {
    if (out.length < MAX_DIAGNOSTICS) out.push({ severity: 'ERROR', code, message, ...(location ? { location } : {}) });
  };
  const topQl = doc.QueryLanguage === 'JSONata' ? 'JSONata' : 'JSONPath';
  const root: Scope = { assigned: new Map(), refs: [], parent: null, kids: [] };

  const ref = (scope: Scope, name: string, location: string) => {
    const r = { name, location, state: current };
    scope.refs.push(r);
    references.push(r);
  };
  const expression = (src: string, location: string, scope: Scope) => {
    const a = analyseExpression(src);
    if (a.error !== undefined) return add('INVALID_JSONATA_EXPRESSION', a.error, location);
    for (const name of a.topLevel) {
      add('UNSUPPORTED_JSONATA_EXPRESSION', `Reference to '${name.slice(0, 80)}' at the top level is not supported.`, location);
    }
    for (const f of a.refused) add('UNSUPPORTED_JSONATA_EXPRESSION', `The function '$${f}' is not supported (use '$parse').`, location);
    for (const name of a.freeVars) ref(scope, name, location);
  };
  /** Every `{% %}` string inside a JSONata field value. */
  const expressionsIn = (v: unknown, location: string, scope: Scope, depth = 0) => {
    if (depth > 64) return;
    if (isExpression(v)) expression(v, location, scope);
    else if (Array.isArray(v)) v.forEach((x, i) => expressionsIn(x, `${location}/${i}`, scope, depth + 1));
    else if (isObj(v)) for (const [k, x] of Object.entries(v)) expressionsIn(x, `${location}/${k}`, scope, depth + 1);
  };
  /** `$name` references of a JSONPath path or intrinsic function. */
  const pathRefs = (v: unknown, location: string, scope: Scope) => {
    if (typeof v !== 'string') return;
    if (v.startsWith('States.')) {
      // arguments outside quoted literals
      const bare = v.replace(/'(?:\\.|[^'\\])*'/g, "''");
      for (const m of bare.matchAll(/(?:^|[(,\s])\$([A-Za-z_][A-Za-z0-9_]*)/g)) ref(scope, m[1], location);
      return;
    }
    const m = VAR_AT_START.exec(v);
    if (m) ref(scope, m[1], location);
  };
  /** `.$` values of a payload template (Parameters, ResultSelector, ItemSelector, Assign). */
  const templateRefs = (v: unknown, location: string, scope: Scope, depth = 0) => {
    if (depth > 64 || !isObj(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (k.endsWith('.$')) pathRefs(x, `${location}/${k}`, scope);
      else templateRefs(x, `${location}/${k}`, scope, depth + 1);
    }
  };
  const assignNames = (assign: unknown, ql: string, location: string, scope: Scope) => {
    if (!isObj(assign)) return;
    for (const key of Object.keys(assign)) {
      const name = ql === 'JSONPath' && key.endsWith('.$') ? key.slice(0, -2) : key;
      if (!VARIABLE_NAME.test(name) || [...name].length > MAX_VARIABLE_NAME) {
        add('SCHEMA_VALIDATION_FAILED', `The variable name '${name.slice(0, 100)}' is not valid: it must start with a letter or underscore, hold only letters, digits and underscores, and be at most ${MAX_VARIABLE_NAME} characters long`, `${location}/${key}`);
        continue;
      }
      if (name === 'states') {
        add('SCHEMA_VALIDATION_FAILED', "The variable name 'states' is reserved", `${location}/${key}`);
        continue;
      }
      if (!scope.assigned.has(name)) scope.assigned.set(name, `${location}/${key}`);
    }
    if (ql === 'JSONata') expressionsIn(assign, location, scope);
    else templateRefs(assign, location, scope);
  };

  const machine = (m: unknown, at: string, scope: Scope, depth: number) => {
    if (!isObj(m) || !isObj(m.States) || depth > 12) return;
    if (at !== '' && m.QueryLanguage !== undefined) add('SCHEMA_VALIDATION_FAILED', "Field 'QueryLanguage' is not supported", at);
    for (const [name, raw] of Object.entries(m.States)) {
      if (!isObj(raw)) continue;
      state(name, raw, `${at}/States/${name}`, scope, depth);
    }
  };

  const state = (name: string, s: Obj, loc: string, scope: Scope, depth: number) => {
    current = name;
    let ql: 'JSONPath' | 'JSONata' = topQl;
    if (s.QueryLanguage === 'JSONata') ql = 'JSONata';
    else if (s.QueryLanguage === 'JSONPath') {
      if (topQl === 'JSONata') add('SCHEMA_VALIDATION_FAILED', "'QueryLanguage' can not be 'JSONPath' if set to 'JSONata' for whole state machine", loc);
      ql = 'JSONPath';
    }
    const wrong = ql === 'JSONata' ? JSONPATH_ONLY : JSONATA_ONLY;
    const other = ql === 'JSONata' ? 'JSONPath' : 'JSONata';
    for (const f of wrong) {
      if (s[f] !== undefined) add('SCHEMA_VALIDATION_FAILED', `The QueryLanguage is set to '${ql}', but field '${f}' is only supported for the '${other}' QueryLanguage`, loc);
    }
    if (ql === 'JSONata') {
      for (const f of JSONATA_FIELDS) if (f !== 'Assign' && s[f] !== undefined) expressionsIn(s[f], `${loc}/${f}`, scope);
      for (const k of Object.keys(s)) {
        if (k.endsWith('.$')) add('SCHEMA_VALIDATION_FAILED', `The QueryLanguage is set to 'JSONata', but field '${k}' is only supported for the 'JSONPath' QueryLanguage`, loc);
      }
    } else {
      for (const f of ['Parameters', 'ResultSelector', 'ItemSelector']) templateRefs(s[f], `${loc}/${f}`, scope);
      for (const f of ['InputPath', 'OutputPath', 'ItemsPath', 'TimeoutSecondsPath', 'HeartbeatSecondsPath', 'SecondsPath', 'TimestampPath', 'MaxConcurrencyPath', 'ErrorPath', 'CausePath']) {
        pathRefs(s[f], `${loc}/${f}`, scope);
      }
    }
    assignNames(s.Assign, ql, `${loc}/Assign`, scope);
    if (Array.isArray(s.Choices)) {
      s.Choices.forEach((c: unknown, i: number) => rule(c, ql, `${loc}/Choices/${i}`, scope, true));
    }
    if (Array.isArray(s.Catch)) {
      s.Catch.forEach((c: unknown, i: number) => {
        if (!isObj(c)) return;
        const cl = `${loc}/Catch/${i}`;
        if (ql === 'JSONata') {
          if (c.ResultPath !== undefined) add('SCHEMA_VALIDATION_FAILED', "The QueryLanguage is set to 'JSONata', but field 'ResultPath' is only supported for the 'JSONPath' QueryLanguage", cl);
          if (c.Output !== undefined) expressionsIn(c.Output, `${cl}/Output`, scope);
        } else if (c.Output !== undefined) {
          add('SCHEMA_VALIDATION_FAILED', "The QueryLanguage is set to 'JSONPath', but field 'Output' is only supported for the 'JSONata' QueryLanguage", cl);
        }
        assignNames(c.Assign, ql, `${cl}/Assign`, scope);
      });
    }
    const inner: unknown[] = [];
    if (Array.isArray(s.Branches)) s.Branches.forEach((b: unknown, i: number) => inner.push([b, `${loc}/Branches/${i}`]));
    if (s.ItemProcessor !== undefined) inner.push([s.ItemProcessor, `${loc}/ItemProcessor`]);
    if (s.Iterator !== undefined) inner.push([s.Iterator, `${loc}/Iterator`]);
    for (const [b, at] of inner as Array<[unknown, string]>) {
      const kid: Scope = { assigned: new Map(), refs: [], parent: scope, kids: [] };
      scope.kids.push(kid);
      machine(b, at, kid, depth + 1);
      current = name;
    }
  };

  const rule = (c: unknown, ql: string, loc: string, scope: Scope, top: boolean) => {
    if (!isObj(c)) return;
    if (ql === 'JSONata') {
      if (c.Variable !== undefined) add('SCHEMA_VALIDATION_FAILED', "The QueryLanguage is set to 'JSONata', but field 'Variable' is only supported for the 'JSONPath' QueryLanguage", loc);
      for (const op of COMPARATORS) {
        if (c[op] !== undefined || c[`${op}Path`] !== undefined) {
          add('SCHEMA_VALIDATION_FAILED', `The QueryLanguage is set to 'JSONata', but field '${c[op] !== undefined ? op : `${op}Path`}' is only supported for the 'JSONPath' QueryLanguage`, loc);
        }
      }
      if (top && c.Condition === undefined) add('SCHEMA_VALIDATION_FAILED', "The field 'Condition' is required in the choice rules of a JSONata Choice state", loc);
      if (c.Condition !== undefined) {
        if (isExpression(c.Condition)) expression(c.Condition, `${loc}/Condition`, scope);
        else if (typeof c.Condition !== 'boolean') add('SCHEMA_VALIDATION_FAILED', "The field 'Condition' must be a boolean or a JSONata expression", `${loc}/Condition`);
      }
      if (c.Output !== undefined) expressionsIn(c.Output, `${loc}/Output`, scope);
    } else {
      if (c.Condition !== undefined) add('SCHEMA_VALIDATION_FAILED', "The QueryLanguage is set to 'JSONPath', but field 'Condition' is only supported for the 'JSONata' QueryLanguage", loc);
      if (c.Output !== undefined) add('SCHEMA_VALIDATION_FAILED', "The QueryLanguage is set to 'JSONPath', but field 'Output' is only supported for the 'JSONata' QueryLanguage", loc);
      pathRefs(c.Variable, `${loc}/Variable`, scope);
      for (const op of COMPARATORS) pathRefs(c[`${op}Path`], `${loc}/${op}Path`, scope);
      for (const k of ['And', 'Or']) if (Array.isArray(c[k])) (c[k] as unknown[]).forEach((x, i) => rule(x, ql, `${loc}/${k}/${i}`, scope, false));
      if (c.Not !== undefined) rule(c.Not, ql, `${loc}/Not`, scope, false);
    }
    if (top) assignNames(c.Assign, ql, `${loc}/Assign`, scope);
  };

  machine(doc, '', root, 0);

  // Scopes: a branch reads the variables of the scopes around it; it may not assign them (nor shadow them).
  const resolve = (scope: Scope) => {
    for (const [name, location] of scope.assigned) {
      for (let p = scope.parent; p; p = p.parent) {
        if (p.assigned.has(name)) {
          add('SCHEMA_VALIDATION_FAILED', `The variable '${name}' is assigned in an enclosing scope: a Parallel branch or Map iteration can read it but not assign it`, location);
          break;
        }
      }
    }
    const seen = new Set<string>();
    for (const r of scope.refs) {
      let found = false;
      for (let p: Scope | null = scope; p && !found; p = p.parent) found = p.assigned.has(r.name);
      if (!found && !seen.has(`${r.name}@${r.location}`)) {
        seen.add(`${r.name}@${r.location}`);
        add('SCHEMA_VALIDATION_FAILED', `The variable '$${r.name.slice(0, 80)}' is not assigned by any state of this scope or an enclosing one`, r.location);
      }
    }
    for (const k of scope.kids) resolve(k);
  };
  resolve(root);
  return { diagnostics: out, references };
}

/**
 * Warnings (ValidateStateMachineDefinition with severity WARNING; never a reason to refuse a definition):
 * NO_DOLLAR — a JSONPath payload field whose value looks like a path but whose name lacks `.$` (it stays a literal);
 * PASS_RESULT_IS_STATIC — a Pass state's Result holding paths, which Result never evaluates.
 */
export function checkWarnings(doc: Obj): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = (code: string, message: string, location: string) => {
    if (out.length < MAX_DIAGNOSTICS) out.push({ severity: 'WARNING', code, message, location });
  };
  const looksLikePath = (v: unknown) => typeof v === 'string' && (/^\$\$?[.[]/.test(v) || /^States\.[A-Za-z]+\(/.test(v));
  const noDollar = (v: unknown, at: string, depth: number) => {
    if (depth > 64 || !isObj(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (k.endsWith('.$')) continue;
      if (looksLikePath(x)) warn('NO_DOLLAR', `The value of the field '${k.slice(0, 80)}' looks like a path, but the field name does not end with '.$': it is passed on as a literal string`, `${at}/${k}`);
      else noDollar(x, `${at}/${k}`, depth + 1);
    }
  };
  const staticResult = (v: unknown, depth: number): boolean =>
    depth <= 64 && isObj(v) && Object.entries(v).some(([k, x]) => k.endsWith('.$') || staticResult(x, depth + 1));
  const topQl = doc.QueryLanguage === 'JSONata' ? 'JSONata' : 'JSONPath';
  const machine = (m: unknown, at: string, depth: number) => {
    if (!isObj(m) || !isObj(m.States) || depth > 12) return;
    for (const [name, s] of Object.entries(m.States)) {
      if (!isObj(s)) continue;
      const loc = `${at}/States/${name}`;
      const ql = s.QueryLanguage === 'JSONata' || s.QueryLanguage === 'JSONPath' ? s.QueryLanguage : topQl;
      if (ql === 'JSONPath') {
        for (const f of ['Parameters', 'ResultSelector', 'ItemSelector', 'Assign']) noDollar(s[f], `${loc}/${f}`, 0);
        if (s.Type === 'Pass' && staticResult(s.Result, 0)) {
          warn('PASS_RESULT_IS_STATIC', "The Result of a Pass state is static: fields ending with '.$' in it are not evaluated (use Parameters)", `${loc}/Result`);
        }
      }
      if (Array.isArray(s.Branches)) s.Branches.forEach((b: unknown, i: number) => machine(b, `${loc}/Branches/${i}`, depth + 1));
      if (s.ItemProcessor !== undefined) machine(s.ItemProcessor, `${loc}/ItemProcessor`, depth + 1);
      if (s.Iterator !== undefined) machine(s.Iterator, `${loc}/Iterator`, depth + 1);
    }
  };
  machine(doc, '', 0);
  return out;
}
