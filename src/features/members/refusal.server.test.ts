import type { PostgrestError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../conflicts/conflicts.server.ts';
import { refusal } from './refusal.server.ts';

const refused = (code: string, details = '') =>
	refusal({ code, message: `refused with ${code}`, details, hint: '' } as PostgrestError, 'Saving');

describe('refusal', () => {
	const statuses: [number, string[]][] = [
		[403, ['42501']],
		[404, ['PT404']],
		[400, ['22023', '23514', '23505', '22P02', '22007', '22008']],
		[409, ['PT409']],
	];
	it.each(statuses.flatMap(([status, codes]) => codes.map((code) => [code, status] as const)))(
		'answers the database’s %s as %i, in its words',
		(code, status) => {
			expect(refused(code)).toMatchObject({ status, message: `refused with ${code}` });
		},
	);

	it('carries the conflicts of a stale version', () => {
		const conflict = {
			field: 'city',
			value: 'Riverside',
			changedBy: 'bob@chamber.test',
			changedAt: '2026-11-25T10:00:00Z',
		};
		const error = refused('PT409', JSON.stringify({ conflicts: [conflict], version: 7 }));
		expect(error).toBeInstanceOf(ConflictError);
		expect((error as ConflictError).body).toEqual({ conflicts: [conflict], version: 7 });
	});

	it('anything else is the server’s failure, saying what failed', () => {
		const error = refused('XX000');
		expect(error).not.toHaveProperty('status');
		expect(error.message).toBe('Saving failed: refused with XX000');
	});
});
