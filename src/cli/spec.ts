/** The shape of an admin CLI command and the errors the CLI reports itself. */
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config';
import type { Services } from '../services';

/** Bad command line: exit 2 with a hint to run `help`. */
export class UsageError extends Error {}

/** A failure the CLI itself reports (not a service error), with its exit code. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
}

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface RunEnv {
  ds: DataSource;
  services: Services;
  config: AppConfig;
}

/** Runs the prepared command against the open database and returns the document to print. */
export type Runner = (env: RunEnv) => Promise<unknown>;

export interface CommandSpec {
  summary: string;
  /** Usage line(s) after the command name. */
  usage: string[];
  flags: Record<string, FlagSpec>;
  /** Argument checks and input reading (no database); returns what to run. */
  prepare(values: Values): Runner | Promise<Runner>;
}

export const str: FlagSpec = { type: 'string' };
export const bool: FlagSpec = { type: 'boolean' };
