import { afterEach, describe, expect, it } from 'vitest';
import { emptyEvent, type EventDetail, type EventValues } from './chamber-events.ts';
import {
	$conflict,
	$editor,
	$issues,
	$notice,
	closeEvent,
	eventAction,
	newEvent,
	openEvent,
	resolveConflict,
	saveEvent,
	setEventField,
	type EventsDeps,
} from './store.ts';

const ID = '5b0c7d7e-8f2a-4d39-9d1e-2b1f7c3a9e10';

interface Call {
	method: string;
	url: string;
	body: unknown;
}

/**
 * A server of one event: its values, version, and the version each field last changed at, as
 * save_chamber_event judges a stale save (a field changed since to another value is a conflict).
 */
function server() {
	const state = {
		event: { ...emptyEvent('America/Chicago', '2027-03-02'), name: 'Board Meeting' },
		version: 3,
		changedAt: {} as Record<string, number>,
		calls: [] as Call[],
	};
	const theirs = (changes: Partial<EventValues>) => {
		state.version += 1;
		Object.assign(state.event, changes);
		for (const field of Object.keys(changes)) state.changedAt[field] = state.version;
	};
	const detail = (): EventDetail => ({
		id: ID,
		event: structuredClone(state.event),
		version: state.version,
		source: 'staff',
		feed: null,
		overrides: [],
		createdAt: '2026-11-25T10:00:00Z',
		createdBy: 'bob@chamber.test',
		updatedAt: '2026-11-25T10:00:00Z',
		updatedBy: 'bob@chamber.test',
		dates: [
			{
				key: 'once',
				eventId: 900_000_001,
				start: state.event.starts_local,
				end: state.event.ends_local,
				cancelled: false,
				changes: {},
				changedHere: false,
			},
		],
	});
	const deps: EventsDeps = {
		chamber: 'demo',
		getAccessToken: async () => 'token',
		fetch: async (input, init) => {
			const method = init?.method ?? 'GET';
			const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
			state.calls.push({ method, url: String(input), body });
			if (method === 'GET') return Response.json(detail());
			if (method === 'POST') return Response.json({ id: ID, version: 1 }, { status: 201 });
			const patch = body as { version: number; changes: Partial<EventValues> };
			if (String(input).includes('/dates/')) {
				state.version += 1;
				return Response.json({ id: ID, version: state.version });
			}
			const stale = Object.entries(patch.changes).filter(
				([field, value]) =>
					(state.changedAt[field] ?? 0) > patch.version &&
					JSON.stringify(state.event[field as keyof EventValues]) !== JSON.stringify(value),
			);
			if (stale.length) {
				return Response.json(
					{
						error: 'Someone else changed this event since you opened it',
						version: state.version,
						conflicts: stale.map(([field]) => ({
							field,
							value: state.event[field as keyof EventValues],
							changedBy: 'ann@chamber.test',
							changedAt: '2026-11-25T11:00:00Z',
						})),
					},
					{ status: 409 },
				);
			}
			theirs(patch.changes);
			return Response.json({ id: ID, version: state.version });
		},
	};
	return { state, theirs, deps };
}

afterEach(() => closeEvent());

describe('adding an event', () => {
	it('sends the new event’s fields with its title, times and zone, then opens it', async () => {
		const { state, deps } = server();
		newEvent('America/Chicago', '2027-03-02');
		setEventField('name', 'Board Meeting');
		setEventField('venue', 'Town Hall');
		expect(await saveEvent(deps)).toBe('saved');
		expect(state.calls[0]).toEqual({
			method: 'POST',
			url: '/api/admin/events?chamber=demo',
			body: {
				name: 'Board Meeting',
				venue: 'Town Hall',
				time_zone: 'America/Chicago',
				starts_local: '2027-03-02T18:00',
				ends_local: '2027-03-02T20:00',
			},
		});
		expect($editor.get()).toMatchObject({ kind: 'open', detail: { id: ID } });
		expect($notice.get()?.text).toMatch(/was added\. The calendars, the event's page/);
	});

	it('sends nothing while a field is wrong, and says so at the field', async () => {
		const { state, deps } = server();
		newEvent('America/Chicago', '2027-03-02');
		setEventField('name', 'Late');
		setEventField('ends_local', '2027-03-02T17:00');
		expect($issues.get().map((i) => i.field)).toEqual(['ends_local']);
		expect(await saveEvent(deps)).toBe('invalid');
		expect(state.calls).toEqual([]);
	});
});

describe('an event saved by someone else meanwhile', () => {
	it('merges another field; the same field opens the conflict, and keeping mine saves from their version', async () => {
		const { state, theirs, deps } = server();
		await openEvent(deps, ID);
		theirs({ venue: 'Library' });
		setEventField('venue', 'Town Hall');
		setEventField('summary', 'Monthly');
		expect(await saveEvent(deps)).toBe('conflict');
		expect($conflict.get()).toMatchObject({
			version: 4,
			conflicts: [{ field: 'venue', value: 'Library', mine: 'Town Hall' }],
		});
		expect(await resolveConflict(deps, 'venue', 'mine')).toBe('saved');
		const last = state.calls.filter((c) => c.method === 'PATCH').at(-1);
		expect(last?.body).toEqual({ version: 4, changes: { venue: 'Town Hall', summary: 'Monthly' } });
		expect(state.event).toMatchObject({ venue: 'Town Hall', summary: 'Monthly' });
	});

	it('taking theirs keeps the person’s other changes unsaved, saves nothing', async () => {
		const { state, theirs, deps } = server();
		await openEvent(deps, ID);
		theirs({ venue: 'Library' });
		setEventField('venue', 'Town Hall');
		setEventField('summary', 'Monthly');
		await saveEvent(deps);
		expect(await resolveConflict(deps, 'venue', 'theirs')).toBe('unchanged');
		const editor = $editor.get();
		expect(editor.kind === 'open' && editor.draft).toMatchObject({
			venue: 'Library',
			summary: 'Monthly',
		});
		expect(state.event.summary).toBe('');
	});
});

describe('one date on its own', () => {
	it('sends the date’s changes with the event’s version to its address', async () => {
		const { state, deps } = server();
		await openEvent(deps, ID);
		expect(await eventAction(deps, { date: 'once', changes: {}, cancelled: true })).toBe(true);
		expect(state.calls.find((c) => c.method === 'PATCH')).toEqual({
			method: 'PATCH',
			url: `/api/admin/events/${ID}/dates/once?chamber=demo`,
			body: { version: 3, changes: {}, cancelled: true },
		});
		expect($notice.get()?.text).toBe('That date is cancelled; the others stay.');
	});
});
