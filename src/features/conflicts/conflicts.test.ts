import { describe, expect, it } from 'vitest';
import { conflictOf } from './conflicts.ts';

const conflict = {
	field: 'content.heroTitle',
	value: 'Ann’s title',
	changedBy: 'ann@chamber.test',
	changedAt: '2026-11-25T14:32:05+00:00',
};

describe('conflictOf: the conflict a PostgREST error carries', () => {
	it('reads a PT409 detail, with the version or as a bare list', () => {
		expect(
			conflictOf({ code: 'PT409', details: JSON.stringify({ conflicts: [conflict], version: 7 }) }),
		).toEqual({ conflicts: [conflict], version: 7 });
		expect(conflictOf({ code: 'PT409', details: JSON.stringify([conflict]) })).toEqual({
			conflicts: [conflict],
		});
	});

	it('is null for any other error, and for a detail of another shape', () => {
		expect(conflictOf({ code: '42501', details: JSON.stringify([conflict]) })).toBeNull();
		expect(conflictOf({ code: 'PT409', details: 'not json' })).toBeNull();
		expect(conflictOf({ code: 'PT409', details: JSON.stringify({ conflicts: [] }) })).toBeNull();
		expect(conflictOf({ code: 'PT409', details: JSON.stringify([{ field: 'x' }]) })).toBeNull();
		expect(conflictOf(null)).toBeNull();
	});
});
