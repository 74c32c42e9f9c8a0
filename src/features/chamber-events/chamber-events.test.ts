import { describe, expect, it } from 'vitest';
import {
	changedFields,
	datePatchSchema,
	describeIssues,
	emptyEvent,
	eventIssues,
	eventListQuerySchema,
	mayChangeEventField,
	mayManageEvents,
	parseEventChanges,
} from './chamber-events.ts';

const event = () => ({ ...emptyEvent('America/Chicago', '2027-03-02'), name: 'Mixer' });

describe('parseEventChanges: each field with its own schema, every problem at its path', () => {
	it('trims texts and passes valid fields', () => {
		expect(parseEventChanges({ name: '  Mixer ', venue: 'Hall', all_day: false })).toEqual({
			ok: true,
			changes: { name: 'Mixer', venue: 'Hall', all_day: false },
		});
	});

	it('names the field and the place inside it', () => {
		const parsed = parseEventChanges({
			name: '',
			starts_local: '2027-02-30T18:00',
			registration_opens: '2027-13-01',
			tickets: [{ ItemName: 'Guest', UnitPrice: -1, IsPublic: true }],
			image_url: 'javascript:alert(1)',
			time_zone: 'Mars/Olympus',
			colour: 'red',
		});
		expect(parsed.ok).toBe(false);
		if (parsed.ok) return;
		expect(parsed.issues.map((i) => i.path)).toEqual([
			'name',
			'starts_local',
			'registration_opens',
			'tickets[0].UnitPrice',
			'image_url',
			'time_zone',
			'colour',
		]);
		expect(describeIssues(parsed.issues)).toContain('tickets[0].UnitPrice: A price is 0 or more');
	});

	it('refuses a rule that is not RRULE text, and takes an empty one as none', () => {
		expect(parseEventChanges({ rrule: 'every tuesday' }).ok).toBe(false);
		expect(parseEventChanges({ rrule: '' })).toEqual({ ok: true, changes: { rrule: null } });
		expect(parseEventChanges({ rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=10' }).ok).toBe(true);
	});

	it('refuses anything but an object', () => {
		expect(parseEventChanges(['name'])).toMatchObject({ ok: false });
		expect(parseEventChanges(null)).toMatchObject({ ok: false });
	});
});

describe('eventIssues: what must hold between fields', () => {
	it('an event ends after it starts; registration closes after it opens', () => {
		expect(eventIssues(event())).toEqual([]);
		const wrong = {
			...event(),
			ends_local: '2027-03-02T17:00',
			registration_opens: '2027-02-10',
			registration_closes: '2027-02-01',
		};
		expect(eventIssues(wrong).map((i) => i.field)).toEqual(['ends_local', 'registration_closes']);
	});

	it('an all-day event runs from 00:00 of its first day to 23:59 of its last', () => {
		expect(eventIssues({ ...event(), all_day: true }).map((i) => i.field)).toEqual(['all_day']);
		expect(
			eventIssues({
				...event(),
				all_day: true,
				starts_local: '2027-03-02T00:00',
				ends_local: '2027-03-03T23:59',
			}),
		).toEqual([]);
	});
});

describe('who may do what (mirrors the database)', () => {
	it('editors change every field but featured, and delete nothing', () => {
		expect(mayChangeEventField('editor', 'featured')).toBe(false);
		expect(mayChangeEventField('editor', 'status')).toBe(true);
		expect(mayChangeEventField('admin', 'featured')).toBe(true);
		expect(mayManageEvents('editor')).toBe(false);
		expect(mayManageEvents('super_admin')).toBe(true);
	});
});

describe('changedFields', () => {
	it('answers the fields that differ, lists compared by value', () => {
		const loaded = event();
		const draft = structuredClone(loaded);
		expect(changedFields(loaded, draft)).toEqual({});
		draft.venue = 'Hall';
		draft.tickets = [
			{ ItemName: 'Guest', UnitPrice: 0, IsPublic: true, Descr: '', MaxQuantity: null },
		];
		expect(Object.keys(changedFields(loaded, draft))).toEqual(['venue', 'tickets']);
	});
});

describe('the API’s queries and bodies', () => {
	it('the list: blank parameters are unset, page sizes 25, 50 or 100', () => {
		expect(eventListQuerySchema.parse({ q: ' ', when: '', page: '2' })).toEqual({
			page: 2,
			pageSize: 25,
		});
		expect(eventListQuerySchema.safeParse({ pageSize: '1000' }).success).toBe(false);
		expect(eventListQuerySchema.safeParse({ when: 'someday' }).success).toBe(false);
		expect(eventListQuerySchema.safeParse({ source: 'atlas' }).success).toBe(true);
	});

	it('a date: only the fields one date may change', () => {
		expect(datePatchSchema.parse({ version: 2, changes: { name: ' Special ' } })).toEqual({
			version: 2,
			changes: { name: 'Special' },
			cancelled: false,
		});
		expect(datePatchSchema.safeParse({ version: 2, changes: { featured: true } }).success).toBe(
			false,
		);
		expect(
			datePatchSchema.safeParse({ version: 2, changes: { starts_local: 'tomorrow' } }).success,
		).toBe(false);
	});
});
