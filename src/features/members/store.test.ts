import { afterEach, describe, expect, it } from 'vitest';
import {
	emptyBusiness,
	NO_LOCATION_STATUS,
	type BusinessValues,
	type MemberDetail,
} from './members.ts';
import {
	$conflict,
	$editor,
	$notice,
	$saving,
	closeMember,
	memberAction,
	openMember,
	resolveConflict,
	restoreValue,
	saveMember,
	setMemberField,
	type MembersDeps,
} from './store.ts';

const ID = '7d6f1a52-3b0e-4c4e-9a55-0f2f3a1b2c3d';

/**
 * A server of one listing: its values, version, and the version each field last changed at, as
 * save_business judges a stale save (a field changed since to another value is a conflict).
 */
function server() {
	const state = {
		business: { ...emptyBusiness(), report_name: 'Harbor Books', city: 'Lakeside' },
		version: 3,
		changedAt: {} as Record<string, number>,
		patches: [] as { version: number; changes: Partial<BusinessValues> }[],
	};
	const theirs = (changes: Partial<BusinessValues>) => {
		state.version += 1;
		Object.assign(state.business, changes);
		for (const field of Object.keys(changes)) state.changedAt[field] = state.version;
	};
	const detail = (): MemberDetail => ({
		business: { ...structuredClone(state.business), id: ID, weblink_profile_id: '8100' },
		version: state.version,
		status: 'published',
		updatedAt: '2026-11-25T10:00:00Z',
		updatedBy: 'bob@chamber.test',
		removedAt: null,
		overrides: [],
		location: NO_LOCATION_STATUS,
	});
	const deps: MembersDeps = {
		chamber: 'demo',
		getAccessToken: async () => 'token',
		fetch: async (_input, init) => {
			if (init?.method === 'GET') return Response.json(detail());
			const body = JSON.parse(String(init?.body)) as (typeof state.patches)[number];
			state.patches.push(body);
			const stale = Object.entries(body.changes).filter(
				([field, value]) =>
					(state.changedAt[field] ?? 0) > body.version &&
					JSON.stringify(state.business[field as keyof BusinessValues]) !== JSON.stringify(value),
			);
			if (stale.length) {
				return Response.json(
					{
						error: 'Someone else changed this listing since you opened it',
						version: state.version,
						conflicts: stale.map(([field]) => ({
							field,
							value: state.business[field as keyof BusinessValues],
							changedBy: 'bob@chamber.test',
							changedAt: '2026-11-25T10:00:00Z',
						})),
					},
					{ status: 409 },
				);
			}
			theirs(body.changes);
			return Response.json({ id: ID, version: state.version, publish: null });
		},
	};
	return { state, theirs, deps };
}

describe('a listing saved by someone else meanwhile', () => {
	afterEach(() => closeMember());

	it('opens the shared dialog with theirs against mine; taking theirs keeps my other changes unsaved', async () => {
		const { state, theirs, deps } = server();
		await openMember(deps, ID);
		setMemberField('city', 'Hilltop');
		setMemberField('work_phone', '555-0177');
		theirs({ city: 'Riverside' });

		expect(await saveMember(deps)).toBe('conflict');
		expect($conflict.get()).toEqual({
			version: 4,
			conflicts: [
				{
					field: 'city',
					value: 'Riverside',
					mine: 'Hilltop',
					changedBy: 'bob@chamber.test',
					changedAt: '2026-11-25T10:00:00Z',
				},
			],
		});
		expect(await resolveConflict(deps, 'city', 'theirs')).toBe('unchanged');
		expect($conflict.get()).toBeNull();
		const editor = $editor.get();
		expect(editor.kind === 'open' && editor.draft).toMatchObject({
			city: 'Riverside',
			work_phone: '555-0177',
		});
		expect($notice.get()?.text).toMatch(/^Their values are in\. Your other changes are not saved/);
		expect(state.patches).toHaveLength(1);
		expect(state.business.work_phone).toBe('');
	});

	it('keeping mine for one field and taking theirs for another saves once, from their version', async () => {
		const { state, theirs, deps } = server();
		await openMember(deps, ID);
		setMemberField('city', 'Hilltop');
		setMemberField('zip', '12345');
		setMemberField('work_phone', '555-0177');
		theirs({ city: 'Riverside', zip: '99999' });

		expect(await saveMember(deps)).toBe('conflict');
		expect($conflict.get()?.conflicts.map((c) => c.field)).toEqual(['city', 'zip']);
		expect(await resolveConflict(deps, 'zip', 'theirs')).toBeNull();
		expect($conflict.get()?.conflicts.map((c) => c.field)).toEqual(['city']);
		expect(state.patches).toHaveLength(1);

		expect(await resolveConflict(deps, 'city', 'mine')).toBe('saved');
		expect(state.patches.at(-1)).toEqual({
			version: 4,
			changes: { city: 'Hilltop', work_phone: '555-0177' },
		});
		expect(state.business).toMatchObject({ city: 'Hilltop', zip: '99999', work_phone: '555-0177' });
	});
});

describe('writes of the open listing', () => {
	afterEach(() => closeMember());

	it('each goes to its route, then the listing is read again and the notice says what happened', async () => {
		const { state, deps } = server();
		const writes: string[] = [];
		const recording: MembersDeps = {
			...deps,
			fetch: async (input, init) => {
				if (init?.method === 'GET') return deps.fetch!(input, init);
				writes.push(`${init?.method} ${String(input)}`);
				if (init?.method === 'PATCH') return deps.fetch!(input, init);
				return Response.json({ id: ID, version: state.version, publish: null });
			},
		};
		await openMember(recording, ID);

		expect(await restoreValue(recording, 'city', 'Oldtown')).toBe(true);
		expect(state.patches).toEqual([{ version: 3, changes: { city: 'Oldtown' } }]);
		expect($notice.get()).toEqual({ kind: 'success', text: 'The earlier value is back.' });
		expect(await memberAction(recording, { override: 'city' })).toBe(true);
		expect($notice.get()?.text).toBe('The membership system’s value is back.');
		expect(await memberAction(recording, 'remove')).toBe(true);
		expect($notice.get()?.text).toMatch(/^The listing was removed\. It leaves the site/);
		expect(await memberAction(recording, 'restore')).toBe(true);
		expect($notice.get()?.text).toBe('The listing was restored.');
		expect($saving.get()).toBe(false);
		expect(writes).toEqual([
			`PATCH /api/admin/businesses/${ID}?chamber=demo`,
			`DELETE /api/admin/businesses/${ID}/overrides/city?chamber=demo`,
			`DELETE /api/admin/businesses/${ID}?chamber=demo`,
			`POST /api/admin/businesses/${ID}/restore?chamber=demo`,
		]);
	});

	it('a refused write says why, and the next one clears it', async () => {
		const { deps } = server();
		await openMember(deps, ID);
		const refusing: MembersDeps = {
			...deps,
			fetch: async (input, init) =>
				init?.method === 'GET'
					? deps.fetch!(input, init)
					: Response.json({ error: 'No removed business to restore' }, { status: 404 }),
		};
		expect(await memberAction(refusing, 'restore')).toBe(false);
		expect($notice.get()).toEqual({ kind: 'error', text: 'No removed business to restore' });
		expect($saving.get()).toBe(false);
		expect(await restoreValue(deps, 'city', 'Oldtown')).toBe(true);
		expect($notice.get()?.kind).toBe('success');
	});
});
