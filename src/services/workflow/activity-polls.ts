/**
 * Parked GetActivityTask polls. A poll that finds no task waits here holding no database connection, until
 *  - a task of its activity is scheduled in this process (`notify`), or in another one (`received`: Redis pub/sub
 *    or PostgreSQL LISTEN/NOTIFY, wired by runner/setup.ts),
 *  - the periodic re-check finds scheduled tasks nobody announced (tasks scheduled before a restart, a lost
 *    notification): one cheap count per activity with parked polls, waking as many polls as there are tasks,
 *  - its time is up or its client went away.
 * Bounds: at most `perActivity` polls per activity (Step Functions' 1,000) and `perCredential` per credential.
 */
export interface PollLimits {
  perActivity: number;
  perCredential: number;
}

interface Waiter {
  wake(): void;
}

export class ActivityPolls {
  private readonly waiters = new Map<number, Set<Waiter>>();
  private readonly polls = new Map<number, number>();
  private readonly byCredential = new Map<string, number>();
  private parkedNow = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  /** How many tasks of the activity wait to be taken (at most `limit`); set by the service. */
  pendingCount?: (activityId: number, limit: number) => Promise<number>;
  /** Tell other processes (set by runner/setup.ts when several may serve polls). */
  publish?: (activityId: number) => void;
  onError?: (err: unknown) => void;

  constructor(private readonly recheckMs = 2000) {}

  /** Polls waiting right now (the /metrics gauge). */
  get parked(): number {
    return this.parkedNow;
  }

  /** Count a poll in (null when a limit is reached: which one); call the returned function when it ends. */
  enter(activityId: number, credential: string, limits: PollLimits): (() => void) | 'activity' | 'credential' {
    const a = this.polls.get(activityId) ?? 0;
    if (a >= limits.perActivity) return 'activity';
    const c = this.byCredential.get(credential) ?? 0;
    if (c >= limits.perCredential) return 'credential';
    this.polls.set(activityId, a + 1);
    this.byCredential.set(credential, c + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const a2 = (this.polls.get(activityId) ?? 1) - 1;
      if (a2 <= 0) this.polls.delete(activityId);
      else this.polls.set(activityId, a2);
      const c2 = (this.byCredential.get(credential) ?? 1) - 1;
      if (c2 <= 0) this.byCredential.delete(credential);
      else this.byCredential.set(credential, c2);
    };
  }

  /** Wait until woken, `ms` passed, or `signal` aborted (whichever first). */
  wait(activityId: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let set = this.waiters.get(activityId);
      if (!set) this.waiters.set(activityId, (set = new Set()));
      const done = () => {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        const s = this.waiters.get(activityId);
        if (s?.delete(w)) {
          this.parkedNow--;
          if (s.size === 0) this.waiters.delete(activityId);
        }
        resolve();
      };
      const w: Waiter = { wake: done };
      const t = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      set.add(w);
      this.parkedNow++;
      this.arm();
    });
  }

  /** A task of the activity was scheduled here: wake one poll here, and tell the other processes. */
  notify(activityId: number): void {
    this.wakeSome(activityId, 1);
    try {
      this.publish?.(activityId);
    } catch (err) {
      this.onError?.(err);
    }
  }

  /** Another process scheduled a task of the activity. */
  received(activityId: number): void {
    this.wakeSome(activityId, 1);
  }

  private wakeSome(activityId: number, n: number): void {
    const set = this.waiters.get(activityId);
    if (!set) return;
    for (const w of [...set].slice(0, n)) w.wake();
  }

  /** The periodic re-check runs while polls are parked. */
  private arm(): void {
    if (this.timer || !this.pendingCount) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.recheck();
    }, this.recheckMs);
    this.timer.unref();
  }

  private async recheck(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const [activityId, set] of [...this.waiters]) {
        if (set.size === 0) continue;
        const n = await this.pendingCount!(activityId, set.size);
        if (n > 0) this.wakeSome(activityId, n);
      }
    } catch (err) {
      this.onError?.(err);
    } finally {
      this.checking = false;
      if (this.waiters.size > 0) this.arm();
    }
  }

  /** Wake every parked poll (shutdown: they answer empty at once). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const set of [...this.waiters.values()]) for (const w of [...set]) w.wake();
  }
}
