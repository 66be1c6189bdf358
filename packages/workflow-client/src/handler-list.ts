/**
 * The client's middleware list (aws-sdk-php HandlerList, reference §2). Steps run in the order init → validate →
 * build → sign → attempt → the terminal handler. A middleware is `(next) => (command, request?) => Promise<Result>`.
 *
 * Ordering is PHP's: within a step, the first `append` is the outermost of the step's middleware, a `prepend` goes
 * outside everything appended so far; `before`/`after` splice next to a named middleware in its step. `resolve()`
 * wraps the handler step by step (attempt innermost, init outermost). `interpose(fn(step, name))` wraps every
 * middleware with another (the `debug` option's tracing). Names are unique: adding a name again replaces nothing
 * but is found first by `before`/`after`/`remove`.
 */
import { InvalidArgumentError } from './errors';
import type { Handler, HandlerStep, Middleware } from './types';

export const STEPS: readonly HandlerStep[] = ['init', 'validate', 'build', 'sign', 'attempt'];

interface Entry {
  fn: Middleware;
  name: string;
}

export type Interposer = (step: HandlerStep, name: string) => Middleware;

export class LogicError extends Error {
  override name = 'LogicError';
}

export class HandlerList {
  private handler: Handler | undefined;
  /** Per step, outermost first. */
  private readonly steps: Record<HandlerStep, Entry[]> = { init: [], validate: [], build: [], sign: [], attempt: [] };
  private interposeFn: Interposer | undefined;
  private cached: Handler | undefined;

  constructor(handler?: Handler) {
    this.handler = handler;
  }

  setHandler(handler: Handler): void {
    this.handler = handler;
    this.cached = undefined;
  }

  hasHandler(): boolean {
    return this.handler !== undefined;
  }

  private add(step: HandlerStep, fn: Middleware, name: string | undefined, prepend: boolean): void {
    if (typeof fn !== 'function') throw new InvalidArgumentError(`A middleware must be a function (got ${typeof fn})`);
    const entry = { fn, name: name ?? '' };
    if (prepend) this.steps[step].unshift(entry);
    else this.steps[step].push(entry);
    this.cached = undefined;
  }

  appendInit(fn: Middleware, name?: string): void {
    this.add('init', fn, name, false);
  }
  prependInit(fn: Middleware, name?: string): void {
    this.add('init', fn, name, true);
  }
  appendValidate(fn: Middleware, name?: string): void {
    this.add('validate', fn, name, false);
  }
  prependValidate(fn: Middleware, name?: string): void {
    this.add('validate', fn, name, true);
  }
  appendBuild(fn: Middleware, name?: string): void {
    this.add('build', fn, name, false);
  }
  prependBuild(fn: Middleware, name?: string): void {
    this.add('build', fn, name, true);
  }
  appendSign(fn: Middleware, name?: string): void {
    this.add('sign', fn, name, false);
  }
  prependSign(fn: Middleware, name?: string): void {
    this.add('sign', fn, name, true);
  }
  appendAttempt(fn: Middleware, name?: string): void {
    this.add('attempt', fn, name, false);
  }
  prependAttempt(fn: Middleware, name?: string): void {
    this.add('attempt', fn, name, true);
  }

  private find(name: string): { step: HandlerStep; index: number } {
    for (const step of STEPS) {
      const index = this.steps[step].findIndex((e) => e.name === name);
      if (index >= 0) return { step, index };
    }
    throw new InvalidArgumentError(`${name} not found`);
  }

  /** Add `fn` (named `withName`) just outside the middleware named `findName`, in its step. */
  before(findName: string, withName: string, fn: Middleware): void {
    const { step, index } = this.find(findName);
    this.steps[step].splice(index, 0, { fn, name: withName });
    this.cached = undefined;
  }

  /** Add `fn` (named `withName`) just inside the middleware named `findName`, in its step. */
  after(findName: string, withName: string, fn: Middleware): void {
    const { step, index } = this.find(findName);
    this.steps[step].splice(index + 1, 0, { fn, name: withName });
    this.cached = undefined;
  }

  /** Remove a middleware by name or by function; an unknown one is ignored. */
  remove(nameOrFn: string | Middleware): void {
    for (const step of STEPS) {
      const list = this.steps[step];
      for (let i = list.length - 1; i >= 0; i--) {
        if (typeof nameOrFn === 'string' ? list[i].name === nameOrFn : list[i].fn === nameOrFn) list.splice(i, 1);
      }
    }
    this.cached = undefined;
  }

  /** Wrap every middleware (and the handler) with `fn(step, name)` when resolving (null stops it). */
  interpose(fn: Interposer | null): void {
    this.interposeFn = fn ?? undefined;
    this.cached = undefined;
  }

  count(): number {
    return STEPS.reduce((n, s) => n + this.steps[s].length, 0);
  }

  /** Names in run order, per step (for humans and tests). */
  names(): Record<HandlerStep, string[]> {
    return Object.fromEntries(STEPS.map((s) => [s, this.steps[s].map((e) => e.name)])) as Record<HandlerStep, string[]>;
  }

  toString(): string {
    let n = 0;
    const lines: string[] = [];
    for (const step of STEPS) for (const e of this.steps[step]) lines.push(`${n++}) Step: ${step}, Name: ${e.name || '(anonymous)'}`);
    lines.push(`${n}) Handler: ${this.handler ? this.handler.name || '(anonymous)' : 'none'}`);
    return lines.join('\n');
  }

  /** A copy: middleware added to it (a command's own) does not change this list. */
  clone(): HandlerList {
    const c = new HandlerList(this.handler);
    for (const step of STEPS) c.steps[step] = this.steps[step].slice();
    c.interposeFn = this.interposeFn;
    return c;
  }

  /** The handler with every middleware around it. */
  resolve(): Handler {
    if (this.cached) return this.cached;
    if (!this.handler) throw new LogicError('No handler has been specified');
    let h: Handler = this.handler;
    const ip = this.interposeFn;
    for (let s = STEPS.length - 1; s >= 0; s--) {
      const step = STEPS[s];
      const list = this.steps[step];
      for (let i = list.length - 1; i >= 0; i--) {
        h = list[i].fn(h);
        if (ip) h = ip(step, list[i].name)(h);
      }
    }
    this.cached = h;
    return h;
  }
}
