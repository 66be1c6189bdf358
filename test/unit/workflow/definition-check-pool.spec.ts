/**
 * Large definitions are checked off the event loop (asl-validator costs ~0.5 s per MiB): while the pool checks one,
 * timers keep firing. A behaviour test, not a benchmark: the bound is half the time the same check takes inline.
 */
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
    await pool.check(bigDefinition(50)); // the thread is started
    const t0 = performance.now();
    const inline = checkDefinition(text);
    const inlineMs = performance.now() - t0;
    let last = performance.now();
    let maxGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 2);
    let pooled;
    try {
      pooled = await pool.check(text);
    } finally {
      clearInterval(timer);
    }
    console.log(`definition check of ${text.length} characters: ${inlineMs.toFixed(0)} ms inline; longest event-loop gap while pooled ${maxGap.toFixed(0)} ms`);
    expect(pooled).toEqual(inline);
    expect(inlineMs).toBeGreaterThan(100);
    expect(maxGap).toBeLessThan(inlineMs / 2);
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
