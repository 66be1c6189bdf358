/**
 * Large definitions are checked off the event loop (asl-validator costs ~0.5 s per MiB): the check runs in the
 * worker thread (never in this one), and the event loop keeps turning while it runs. Structural checks, not timings.
 */
import * as definitionCheck from '../../../src/services/workflow/definition-check';
import { checkDefinition } from '../../../src/services/workflow/definition-check';
import { DefinitionCheckPool, INLINE_LIMIT } from '../../../src/services/workflow/definition-check-pool';
import { AppError } from '../../../src/errors/app-error';

function bigDefinition(states: number, valid = true): string {
  const s: Record<string, unknown> = {};
  for (let i = 0; i < states; i++) {
    s[`S${i}`] = { Type: 'Pass', Comment: 'x'.repeat(120), Parameters: { 'a.$': '$.a', b: [1, 2, 3], 'c.$': 'States.Format(\'{}\', $.a)' }, ...(i + 1 < states ? { Next: `S${i + 1}` } : { End: true }) };
  }
  if (!valid) (s.S7 as Record<string, unknown>).Next = 'Nowhere';
  return JSON.stringify({ StartAt: 'S0', States: s });
}

describe('DefinitionCheckPool', () => {
  const pool = new DefinitionCheckPool();
  afterAll(() => pool.close());

  it('checks a large definition in a worker thread: the event loop stays free, the answer is the same as inline', async () => {
    const text = bigDefinition(4000);
    expect(text.length).toBeGreaterThan(INLINE_LIMIT);
    const inline = checkDefinition(text);
    await pool.check(bigDefinition(50)); // the thread is started
    const onThisThread = jest.spyOn(definitionCheck, 'checkDefinition');
    // Loop turns counted while the pooled check is in flight: a check on this thread would allow none before it answers.
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    let turnsWhenAnswered = -1;
    let pooled;
    try {
      pooled = await pool.check(text).then((v) => {
        turnsWhenAnswered = turns;
        return v;
      });
    } finally {
      counting = false;
      onThisThread.mockRestore();
    }
    expect(pooled).toEqual(inline);
    expect(onThisThread).not.toHaveBeenCalled();
    expect(turnsWhenAnswered).toBeGreaterThan(0);
    // Small definitions stay on this thread (a thread hop would cost more than the check).
    const small = jest.spyOn(definitionCheck, 'checkDefinition');
    try {
      await pool.check(bigDefinition(5));
      expect(small).toHaveBeenCalledTimes(1);
    } finally {
      small.mockRestore();
    }
  });

  it('valid definitions that wait for the thread behind others are never answered InvalidDefinition: they are checked, or refused as busy (503)', async () => {
    // Twelve ~1 MiB definitions at once, with a limit of four checks' time (at least 2 s; 10 s in production): the
    // later ones wait longer than the limit. The limit follows this machine's speed (a loaded CI machine took more
    // than 2 s for one check), so only waiting, never the check itself, can exceed it.
    const text = bigDefinition(4000);
    const t0 = performance.now();
    checkDefinition(text);
    const busy = new DefinitionCheckPool({ timeoutMs: Math.max(2_000, Math.ceil(4 * (performance.now() - t0))) });
    try {
      await busy.check(bigDefinition(200)); // the thread is started
      const answers = await Promise.all(Array.from({ length: 12 }, () => busy.check(text).then(() => 'ok', (e: AppError) => e.code)));
      expect(answers.filter((a) => a !== 'ok' && a !== 'SERVICE_UNAVAILABLE')).toEqual([]);
      expect(answers[0]).toBe('ok');
    } finally {
      await busy.close();
    }
  });

  it('an invalid large definition is an InvalidDefinition with the validator\'s finding', async () => {
    const err = await pool.check(bigDefinition(4000, false)).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect([err.domainCode, err.message]).toEqual(['INVALID_DEFINITION', expect.stringContaining('Nowhere')]);
  });
});
