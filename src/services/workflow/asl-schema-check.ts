/**
 * asl-validator's JSON Schema check with its compiled schemas kept.
 *
 * asl-validator 4.0.0 builds a new Ajv and compiles its 15 States Language schemas on every call to the validator
 * (its `checks/json-schema-errors`): about 100 ms of CPU for any definition, however small, on every
 * CreateStateMachine, UpdateStateMachine and ValidateStateMachineDefinition. This module replaces that one export
 * with the same check over an Ajv built once per option set: the same schemas, formats and error selection, so the
 * answers are the same (`test/unit/workflow/asl-schema-check.spec.ts` compares both over valid and invalid
 * definitions) except where its JSONata schema refuses what Step Functions accepts (relaxJsonata below, each case
 * in that test's RELAXED table). The validator reads the export at call time, so everything else of it runs
 * unchanged.
 *
 * The package is pinned to the version this was written against; `installAslSchemaCache` throws at start-up if
 * the module is not shaped as expected (a new version must be checked against the differential test first).
 */
import type { default as AjvClass, ErrorObject, ValidateFunction } from 'ajv';

/* eslint-disable @typescript-eslint/no-require-imports */
/** A module as asl-validator itself resolves it (its Ajv, formats and JSONata, whatever else is installed). */
function fromAsl<T>(name: string): T {
  return require(require.resolve(name, { paths: [require.resolve('asl-validator')] })) as T;
}
const EXPECTED_VERSION = '4.0.0';
const SCHEMA_URI = 'http://asl-validator.cloud/state-machine.json#';
const SCHEMA_FILES = ['common', 'paths', 'jsonata', 'choice', 'fail', 'parallel', 'pass', 'base-state-machine', 'state-machine', 'state', 'succeed', 'task', 'wait', 'map', 'errors'];

interface Options {
  checkPaths?: boolean;
  checkArn?: boolean;
}
type SchemaErrors = (definition: unknown, options: Options) => Array<Record<string, unknown>>;
interface ChecksModule {
  jsonSchemaErrors: SchemaErrors;
}

function checksModule(): ChecksModule {
  return require('asl-validator/dist/src/checks/json-schema-errors') as ChecksModule;
}

function isJsonata(jsonata: (expr: string) => unknown, value: string): boolean {
  let expr = value.trim();
  expr = expr.startsWith('{%') ? expr.slice(2) : expr;
  expr = expr.endsWith('%}') ? expr.slice(0, -2) : expr;
  try {
    jsonata(expr);
    return true;
  } catch {
    return false;
  }
}

const JSONATA_SCHEMA_ID = 'http://asl-validator.cloud/jsonata.json#';

/**
 * Where asl-validator's JSONata schema is stricter than Step Functions, the definitions Step Functions documents
 * (its Pass/Task state pages and "Transforming data with JSONata"): each change says why. Arguments stays a JSON
 * object or an expression and Assign an object, as documented. The cases: asl-schema-check.spec.ts, RELAXED.
 */
function relaxJsonata(defs: Record<string, unknown>): void {
  if (!defs.output || !defs._jsonata_template_object || !defs.jsonata) throw new Error(`asl-validator's ${JSONATA_SCHEMA_ID} has not the definitions asl-schema-check.ts relaxes`);
  // A literal string in a template may be any string, the empty one and multi-line ones too (`not_jsonata` wants
  // `.+`); one that starts as an expression ("{% ") must still be a whole valid one.
  defs._template_string = { oneOf: [{ type: 'string', pattern: '^(?!\\{% )' }, { $ref: '#/definitions/jsonata' }] };
  // Expressions "can appear in string values within objects and arrays at any nesting depth": a value inside a
  // template is any JSON value, arrays of arrays too (asl-validator: an array holds only objects).
  defs._jsonata_value = {
    oneOf: [
      { $ref: '#/definitions/_jsonata_template_object' },
      { type: 'array', items: { $ref: '#/definitions/_jsonata_value' } },
      { type: ['boolean', 'number', 'null'] },
      { $ref: '#/definitions/_template_string' },
    ],
  };
  defs._jsonata_template_object = { type: 'object', patternProperties: { '^.+$': { $ref: '#/definitions/_jsonata_value' } } };
  // Output "accepts any JSON value (object, array, string, number, boolean, null)", an expression included.
  // (ItemSelector and BatchInput keep asl-validator's jsonata_template at their top level: nothing documents more.)
  defs.output = { $ref: '#/definitions/_jsonata_value' };
}

/** The Ajv asl-validator would build for these options, built once. */
function buildValidator(options: Options): ValidateFunction {
  const Ajv = fromAsl<{ default: typeof AjvClass }>('ajv').default;
  const addFormats = fromAsl<{ default: (ajv: AjvClass) => void }>('ajv-formats').default;
  const jsonata = fromAsl<(expr: string) => unknown>('jsonata');
  // copies: asl-validator's own check (the differential tests' reference) reads the same module objects
  const schemas = SCHEMA_FILES.map((f) => JSON.parse(JSON.stringify(require(`asl-validator/dist/src/schemas/${f}.json`))) as { $id: string; definitions?: Record<string, unknown> });
  relaxJsonata(schemas.find((s) => s.$id === JSONATA_SCHEMA_ID)!.definitions!);
  const ajv = new Ajv({ schemas, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('jsonata_string', (v: string) => isJsonata(jsonata, v));
  ajv.addFormat('maybe_jsonata_string', (v: string) => {
    const t = v.trim();
    return t.startsWith('{%') || t.endsWith('%}') ? isJsonata(jsonata, t) : true;
  });
  if (options.checkPaths) {
    fromAsl<{ registerAll(ajv: AjvClass): void }>('asl-path-validator').registerAll(ajv);
  } else {
    for (const f of ['asl_path', 'asl_ref_path', 'asl_payload_template', 'asl_result_path']) ajv.addFormat(f, () => true);
  }
  const { isArnFormatValid } = require('asl-validator/dist/src/checks/formats') as { isArnFormatValid(v: string): boolean };
  ajv.addFormat('asl_arn', options.checkArn ? isArnFormatValid : () => true);
  const validate = ajv.getSchema(SCHEMA_URI);
  if (!validate) throw new Error(`asl-validator's schema ${SCHEMA_URI} is missing`);
  return validate;
}

/**
 * asl-validator's error selection: the deepest errors, at a path with a oneOf error only that one, and each
 * (schema path, instance path) once.
 */
function selectErrors(errors: ErrorObject[]): Array<Record<string, unknown>> {
  let selected: ErrorObject[] = [];
  let deepest = 0;
  for (const e of errors) {
    const depth = e.instancePath.split('/').length;
    if (depth === deepest) selected.push(e);
    else if (depth > deepest) selected = [e];
    deepest = Math.max(deepest, depth);
  }
  const oneOfPaths = new Set(selected.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
  const seen = new Set<string>();
  const out: Array<Record<string, unknown>> = [];
  for (const e of selected) {
    if (e.keyword !== 'oneOf' && oneOfPaths.has(e.instancePath)) continue;
    const schemaPath = decodeURIComponent(e.schemaPath);
    const key = JSON.stringify([schemaPath, e.instancePath]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ 'Error code': 'SCHEMA_VALIDATION_FAILED', Message: `${e.instancePath} is invalid. ${e.message ?? ''}`, schemaError: { instancePath: e.instancePath, schemaPath } });
  }
  return out;
}

const validators = new Map<string, ValidateFunction>();

/** The same check as asl-validator's `jsonSchemaErrors`, over schemas compiled once per option set. */
export const cachedJsonSchemaErrors: SchemaErrors = (definition, options) => {
  const key = `${Boolean(options.checkPaths)}:${Boolean(options.checkArn)}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = buildValidator(options);
    validators.set(key, validate);
  }
  return validate(definition) ? [] : selectErrors(validate.errors ?? []);
};

let original: SchemaErrors | undefined;

/** asl-validator's own check (for the differential test). */
export function originalJsonSchemaErrors(): SchemaErrors {
  installAslSchemaCache();
  return original!;
}

/** Put the cached check in place of asl-validator's (idempotent). Throws if the package is not the expected one. */
export function installAslSchemaCache(): void {
  if (original) return;
  const version = (require('asl-validator/package.json') as { version: string }).version;
  const mod = checksModule();
  if (version !== EXPECTED_VERSION || typeof mod.jsonSchemaErrors !== 'function' || mod.jsonSchemaErrors.length !== 2) {
    throw new Error(`asl-validator ${version} is not the ${EXPECTED_VERSION} src/services/workflow/asl-schema-check.ts was written against: check it with its differential test`);
  }
  original = mod.jsonSchemaErrors;
  mod.jsonSchemaErrors = cachedJsonSchemaErrors;
}
