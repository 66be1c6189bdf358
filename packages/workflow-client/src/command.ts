/**
 * A command: an operation name, its arguments and its own copy of the client's handler list (middleware added to
 * one command stays on it). Reserved arguments (never sent): `@http` (per-request HTTP options, over the client's
 * `http` option), `@retries` (this command's maximum retries), `@context` (free-form data for middleware),
 * `@waiter` (waiter overrides).
 */
import type { HandlerList } from './handler-list';
import type { CommandLike } from './types';

export class Command implements CommandLike {
  constructor(
    readonly name: string,
    public args: Record<string, unknown>,
    private readonly handlerList: HandlerList,
  ) {
    if (!this.args['@context'] || typeof this.args['@context'] !== 'object') this.args['@context'] = {};
  }

  getName(): string {
    return this.name;
  }

  getHandlerList(): HandlerList {
    return this.handlerList;
  }

  get(key: string): unknown {
    return this.args[key];
  }

  has(key: string): boolean {
    return this.args[key] !== undefined && this.args[key] !== null;
  }

  set(key: string, value: unknown): void {
    this.args[key] = value;
  }

  /** The operation's input members (no reserved `@` keys). */
  toArray(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this.args)) if (!k.startsWith('@')) out[k] = v;
    return out;
  }
}
