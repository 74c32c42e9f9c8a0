import { describe, expect, it } from 'vitest';
import { config } from '../../../../netlify/functions/member-sync-scheduled.ts';
import { SYNC_SCHEDULE } from './atlas.server.ts';

describe('the sync schedule', () => {
	it('the panel says what the scheduled function runs on', () => {
		expect(config.schedule).toBe(SYNC_SCHEDULE);
	});
});
