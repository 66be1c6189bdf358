/**
 * Step Functions' loggingConfiguration of a state machine (CreateStateMachine, UpdateStateMachine): checked as Step
 * Functions checks it, stored with the definition and its versions (it is part of a revision), answered by
 * DescribeStateMachine and DescribeStateMachineForExecution. The gateway has no CloudWatch Logs: nothing is
 * delivered to the log group; the configuration is kept so that tools that write and read it round-trip.
 */
import { quoteInput, ValidationError } from '../../errors/app-error';
import { WORKFLOW_CODES } from './error-codes';

export const LOG_LEVELS = ['ALL', 'ERROR', 'FATAL', 'OFF'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggingConfiguration {
  level: LogLevel;
  includeExecutionData: boolean;
  destinations?: Array<{ cloudWatchLogsLogGroup: { logGroupArn: string } }>;
}

/** As a client sends it (every member optional; the types were decoded by the transport). */
export interface LoggingConfigurationInput {
  level?: string;
  includeExecutionData?: boolean;
  destinations?: Array<{ cloudWatchLogsLogGroup?: { logGroupArn?: string } }>;
}

/** What a state machine without a loggingConfiguration answers. */
export const DEFAULT_LOGGING: LoggingConfiguration = Object.freeze({ level: 'OFF', includeExecutionData: false }) as LoggingConfiguration;

/**
 * A CloudWatch Logs log group ARN as Step Functions takes it: arn:<partition>:logs:<region>:<account>:log-group:<name>:*
 * (the log group's own ARN with `:*`, the form its resource policy names; a log group name is 1-512 of
 * letters, digits and `._-/#`).
 */
const LOG_GROUP_ARN = /^arn:aws(?:-[a-z]+)*:logs:[a-z]{2}(?:-[a-z]+)+-\d:\d{12}:log-group:[A-Za-z0-9._\-/#]{1,512}:\*$/;

function invalid(message: string): ValidationError {
  return new ValidationError(`Invalid Logging Configuration: ${message}`, { domainCode: WORKFLOW_CODES.INVALID_LOGGING_CONFIGURATION });
}

/**
 * The configuration to store, or InvalidLoggingConfiguration: exactly one destination unless the level is OFF
 * (OFF may keep one), each a log group ARN ending in `:*`. Absent members take Step Functions' defaults (OFF, no
 * execution data).
 */
export function checkLoggingConfiguration(input: LoggingConfigurationInput): LoggingConfiguration {
  const level = input.level ?? 'OFF';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ValidationError(`1 validation error detected: Value ${quoteInput(level)} at 'loggingConfiguration.level' failed to satisfy constraint: Member must satisfy enum value set: [${LOG_LEVELS.join(', ')}]`);
  }
  const destinations = input.destinations ?? [];
  if (destinations.length > 1 || (level !== 'OFF' && destinations.length === 0)) throw invalid('Must specify exactly one Log Destination.');
  const out: LoggingConfiguration = { level: level as LogLevel, includeExecutionData: input.includeExecutionData === true };
  if (destinations.length === 1) {
    const arn = destinations[0].cloudWatchLogsLogGroup?.logGroupArn;
    if (typeof arn !== 'string' || !LOG_GROUP_ARN.test(arn)) throw invalid('Must set valid CloudWatch Log Group ARN.');
    out.destinations = [{ cloudWatchLogsLogGroup: { logGroupArn: arn } }];
  }
  return out;
}

/** The stored text of a configuration (null for the default, so a machine that never set one compares equal). */
export function storedLogging(c: LoggingConfiguration): string | null {
  return c.level === 'OFF' && !c.includeExecutionData && !c.destinations ? null : JSON.stringify(c);
}

/** A stored configuration as answered (the default for null; written by storedLogging, so well-formed). */
export function loggingOf(stored: string | null | undefined): LoggingConfiguration {
  return stored ? (JSON.parse(stored) as LoggingConfiguration) : DEFAULT_LOGGING;
}
