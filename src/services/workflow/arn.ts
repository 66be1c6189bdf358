/**
 * Workflow ARNs and names, as Step Functions spells them:
 *   definition  arn:aws:states:<region>:<account>:stateMachine:<name>
 *   job         arn:aws:states:<region>:<account>:execution:<definitionName>:<jobName>
 *   express job arn:aws:states:<region>:<account>:express:<definitionName>:<jobName>:<id> (refused where a job is read)
 * Region and account come from the config (WORKFLOW_REGION, WORKFLOW_ACCOUNT_ID). Names are 1–80 characters
 * without the characters AWS forbids (whitespace, brackets, wildcards, special characters, control characters).
 */
import type { AppConfig } from '../../config';
import { quoteInput, ValidationError } from '../../errors/app-error';
import { WORKFLOW_CODES } from './error-codes';

export const MAX_NAME_LENGTH = 80;
export const MAX_ARN_LENGTH = 256;

type ArnConfig = Pick<AppConfig, 'workflowRegion' | 'workflowAccountId'>;

/**
 * AWS: a name must not contain whitespace, brackets `< > { } [ ]`, wildcards `? *`, special characters
 * `" # % \ ^ | ~ ` $ & , ; : /` or control characters (U+0000-001F, U+007F-009F). We also refuse lone surrogates.
 */
const FORBIDDEN = /[\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

/** Why a name is not valid, or null. */
export function nameProblem(name: string): string | null {
  if (name.length < 1 || name.length > MAX_NAME_LENGTH) return `must be between 1 and ${MAX_NAME_LENGTH} characters long`;
  if (FORBIDDEN.test(name)) return 'contains characters that are not allowed';
  return null;
}

export function requireValidName(name: string): string {
  const p = nameProblem(name);
  if (p) throw new ValidationError(`Invalid Name: ${quoteInput(name)} ${p}`, { domainCode: WORKFLOW_CODES.INVALID_NAME });
  return name;
}

export function definitionArn(config: ArnConfig, name: string): string {
  return `arn:aws:states:${config.workflowRegion}:${config.workflowAccountId}:stateMachine:${name}`;
}

export function jobArn(config: ArnConfig, definitionName: string, jobName: string): string {
  return `arn:aws:states:${config.workflowRegion}:${config.workflowAccountId}:execution:${definitionName}:${jobName}`;
}

/** An Express execution: `…:express:<definition>:<name>:<id>` (a name may be reused at once, the id tells them apart). */
export function expressJobArn(config: ArnConfig, definitionName: string, jobName: string, id: string): string {
  return `arn:aws:states:${config.workflowRegion}:${config.workflowAccountId}:express:${definitionName}:${jobName}:${id}`;
}

function invalidArn(arn: string): ValidationError {
  return new ValidationError(`Invalid Arn: 'Resource type not valid in this context: ${arn.length > 100 ? quoteInput(arn, '') : arn}'`, {
    domainCode: WORKFLOW_CODES.INVALID_ARN,
  });
}

/**
 * The pieces of an ARN of this service, or an InvalidArn error. An ARN of another region or account is well
 * formed but names nothing here: `local` is false then (callers answer "does not exist", as AWS does).
 */
function parseArn(config: ArnConfig, arn: string, kind: 'stateMachine' | 'execution' | 'activity' | 'mapRun'): { local: boolean; names: string[] } {
  if (arn.length < 1 || arn.length > MAX_ARN_LENGTH) {
    throw new ValidationError(`Invalid Arn: 'Length must be between 1 and ${MAX_ARN_LENGTH}'`, { domainCode: WORKFLOW_CODES.INVALID_ARN });
  }
  const parts = arn.split(':');
  // arn : partition : service : region : account : type : name [: name]
  if (parts.length < 6 || parts[0] !== 'arn' || !/^aws(-[a-z]+)*$/.test(parts[1]) || parts[2] !== 'states') throw invalidArn(arn);
  if (!/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(parts[3]) || !/^\d{12}$/.test(parts[4])) throw invalidArn(arn);
  // Step Functions keeps nothing an API could read of an Express execution: its ARN is refused by type.
  if (kind === 'execution' && parts[5] === 'express') {
    throw new ValidationError("Invalid Arn: 'Resource type not valid in this context: express'", { domainCode: WORKFLOW_CODES.INVALID_ARN });
  }
  if (parts[5] !== kind) throw invalidArn(arn);
  const names = parts.slice(6);
  // A Map Run's children and the run itself are named `<definition>/<label>:<name>` (the label is the Map's).
  const first = (n: string) => (kind === 'execution' || kind === 'mapRun' ? n.split('/').every((x) => nameProblem(x) === null) && n.split('/').length <= 2 : nameProblem(n) === null);
  if (names.length !== (kind === 'execution' || kind === 'mapRun' ? 2 : 1) || !first(names[0]) || names.slice(1).some((n) => nameProblem(n) !== null)) throw invalidArn(arn);
  if (kind === 'mapRun' && !names[0].includes('/')) throw invalidArn(arn);
  return { local: parts[3] === config.workflowRegion && parts[4] === config.workflowAccountId && parts[1] === 'aws', names };
}

/** Alias names: 1–80 of `[a-zA-Z0-9_.-]` with at least one non-digit (an all-digit qualifier is a version). */
export const ALIAS_NAME = /^(?=.*[a-zA-Z_\-.])[a-zA-Z0-9_\-.]{1,80}$/;

/**
 * A state machine ARN with an optional qualifier: `…:stateMachine:<name>` (the definition), `…:<name>:<n>` (a
 * version) or `…:<name>:<alias>`. Null when it is another region's or account's. Throws InvalidArn.
 */
export function parseQualifiedDefinitionArn(
  config: ArnConfig,
  arn: string,
): { name: string; version?: number; alias?: string } | null {
  const parts = arn.split(':');
  if (parts.length !== 8) {
    const name = parseDefinitionArn(config, arn);
    return name === null ? null : { name };
  }
  const name = parseDefinitionArn(config, parts.slice(0, 7).join(':'));
  const q = parts[7];
  if (/^[1-9]\d{0,8}$/.test(q)) return name === null ? null : { name, version: Number(q) };
  if (!ALIAS_NAME.test(q)) throw invalidArn(arn);
  return name === null ? null : { name, alias: q };
}

/** The definition name an ARN names here, null when it is another region's or account's. Throws InvalidArn. */
export function parseDefinitionArn(config: ArnConfig, arn: string): string | null {
  const { local, names } = parseArn(config, arn, 'stateMachine');
  return local ? names[0] : null;
}

export function activityArn(config: ArnConfig, name: string): string {
  return `arn:aws:states:${config.workflowRegion}:${config.workflowAccountId}:activity:${name}`;
}

/** The activity name an ARN names here, null when it is another region's or account's. Throws InvalidArn. */
export function parseActivityArn(config: ArnConfig, arn: string): string | null {
  const { local, names } = parseArn(config, arn, 'activity');
  return local ? names[0] : null;
}

/** The definition and job names a job ARN names here, null when it is another region's or account's. */
export function parseJobArn(config: ArnConfig, arn: string): { definitionName: string; jobName: string } | null {
  const { local, names } = parseArn(config, arn, 'execution');
  return local ? { definitionName: names[0], jobName: names[1] } : null;
}

/**
 * A role ARN must be an IAM role's: arn:aws:iam::<12 digits>:role/<path/>name (AWS checks its shape, not the role).
 */
export function requireRoleArn(roleArn: string): string {
  if (roleArn.length < 1 || roleArn.length > MAX_ARN_LENGTH || !/^arn:aws(-[a-z]+)*:iam::\d{12}:role\/(?:[\x21-\x7e]+\/)*[\w+=,.@-]{1,64}$/.test(roleArn)) {
    throw new ValidationError(`Invalid Arn: 'Role ARN is not valid: ${roleArn.length > 100 ? quoteInput(roleArn, '') : roleArn}'`, {
      domainCode: WORKFLOW_CODES.INVALID_ARN,
    });
  }
  return roleArn;
}

/** A Map Run: `arn:aws:states:<region>:<account>:mapRun:<definition>/<label>:<id>`. */
export function mapRunArn(config: ArnConfig, definitionName: string, label: string, id: string): string {
  return `arn:aws:states:${config.workflowRegion}:${config.workflowAccountId}:mapRun:${definitionName}/${label}:${id}`;
}

/** Whether a Map Run ARN names one of this service (false: another region's or account's). Throws InvalidArn. */
export function parseMapRunArn(config: ArnConfig, arn: string): boolean {
  return parseArn(config, arn, 'mapRun').local;
}
