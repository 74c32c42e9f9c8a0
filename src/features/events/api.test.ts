import { describe, expect, it, vi } from 'vitest';
import { LAST_GOOD_MAX_ENTRIES, lastGoodSize, withLastGood } from './api.server.ts';

// Without a bound the last-good map would grow with every distinct range and event id.
describe('the last good answers an instance keeps', () => {
	it('stay bounded, the least recently used dropped first', async () => {
		const keep = await withLastGood('kept', 'failed', async () => 'first');
		expect(keep).toEqual({ ok: true, value: 'first' });
		for (let i = 0; i < LAST_GOOD_MAX_ENTRIES + 100; i++) {
			await withLastGood(`range:${i}`, 'failed', async () => i);
			// Used again now and then, so it is never the least recently used.
			if (i % 100 === 0) await withLastGood('kept', 'failed', async () => 'first');
		}
		expect(lastGoodSize()).toBe(LAST_GOOD_MAX_ENTRIES);
		const failing = async (): Promise<number> => {
			throw new Error('source down');
		};
		const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			expect(await withLastGood('range:0', 'failed', failing)).toEqual({
				ok: false,
				message: 'failed',
			});
			expect(await withLastGood('kept', 'failed', failing)).toMatchObject({
				ok: true,
				value: 'first',
			});
		} finally {
			quiet.mockRestore();
		}
	});
});
