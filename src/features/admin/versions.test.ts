import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import {
	$banner,
	$changes,
	$conflicts,
	$draft,
	$saved,
	$saveState,
	$versions,
	configLoaded,
	resolveConflict,
	saveChanges,
	setField,
	type SaveDeps,
} from './store.ts';
import { configUnits, rebaseDraft, unitSection, valueAt } from './versions.ts';

const base = parseConfig({ name: 'Cedar Valley', slug: 'demo' }, 'test');

describe('rebaseDraft: unsaved edits carried onto a configuration loaded again', () => {
	it('takes their values where this person changed nothing, keeps theirs where they did', () => {
		const draft = structuredClone(base);
		draft.content.heroTitle = 'Mine';
		draft.colors.secondary = '#222222';
		const fresh = structuredClone(base);
		fresh.content.heroSubtitle = 'Theirs';
		fresh.colors.primary = '#111111';
		fresh.name = 'Renamed';
		const { draft: next, contested } = rebaseDraft(base, draft, fresh);
		expect(next.content).toMatchObject({ heroTitle: 'Mine', heroSubtitle: 'Theirs' });
		expect(next.colors).toMatchObject({ primary: '#111111', secondary: '#222222' });
		expect(next.name).toBe('Renamed');
		expect(contested.size).toBe(0);
	});

	it('names the sections where both changed the same unit to different values', () => {
		const draft = structuredClone(base);
		draft.content.heroTitle = 'Mine';
		draft.name = 'Same';
		const fresh = structuredClone(base);
		fresh.content.heroTitle = 'Theirs';
		fresh.name = 'Same';
		const { draft: next, contested } = rebaseDraft(base, draft, fresh);
		expect(next.content.heroTitle).toBe('Mine');
		expect([...contested]).toEqual(['content']);
	});

	it('units are top-level fields and keys of sections', () => {
		const units = configUnits(base);
		expect(units).toContain('name');
		expect(units).toContain('content.heroTitle');
		expect(units).toContain('navigation.menuItems');
		expect(unitSection('name')).toBe('identity');
		expect(unitSection('colors.primary')).toBe('colors');
		expect(valueAt(base, 'fonts.heading')).toBe('Inter');
	});
});

describe('a save refused because someone else changed the same field', () => {
	afterEach(() => {
		$saved.set(null);
		$draft.set(null);
		$conflicts.set([]);
		$banner.set(null);
		$saveState.set('idle');
	});

	/** A server: the configuration as saved, each section's version, who changed what. */
	function server() {
		const state = {
			config: structuredClone(base),
			versions: { content: 5, colors: 2 } as Record<string, number>,
			/** The content version at which each field last changed. */
			changedAt: {} as Record<string, number>,
			calls: [] as Record<string, unknown>[],
		};
		const theirs = (title: string) => {
			state.config.content.heroTitle = title;
			state.versions.content = (state.versions.content ?? 0) + 1;
			state.changedAt.heroTitle = state.versions.content;
		};
		const deps: SaveDeps = {
			chamber: 'demo',
			getAccessToken: async () => 'token',
			reload: async () =>
				configLoaded(structuredClone(state.config), undefined, { ...state.versions }),
			setTimeout: () => 0,
			fetch: async (_input, init) => {
				const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
				state.calls.push(body);
				const section = String(body.section ?? 'identity');
				const current = state.versions[section] ?? 0;
				const field = String(body.field);
				if ((state.changedAt[field] ?? 0) > Number(body.version)) {
					return Response.json(
						{
							error: 'Someone else changed content.heroTitle since you opened it',
							conflicts: [
								{
									field: 'content.heroTitle',
									value: state.config.content.heroTitle,
									changedBy: 'bob@chamber.test',
									changedAt: '2026-11-25T10:00:00Z',
								},
							],
							version: current,
						},
						{ status: 409 },
					);
				}
				(state.config.content as Record<string, unknown>)[field] = body.value;
				state.versions[section] = current + 1;
				state.changedAt[field] = current + 1;
				return Response.json({
					success: true,
					updatedAt: '2026-11-25T10:01:00Z',
					version: current + 1,
					previousVersion: current,
				});
			},
		};
		return { state, theirs, deps };
	}

	it('shows theirs with who and when; Keep mine saves mine with their version', async () => {
		const { state, theirs, deps } = server();
		await deps.reload();
		setField('content', 'heroTitle', 'Mine');
		setField('content', 'heroSubtitle', 'Also mine');
		theirs('Theirs');
		expect(await saveChanges(deps)).toBe(false);
		expect(state.config.content.heroSubtitle).toBe('Also mine');
		expect($conflicts.get()).toEqual([
			expect.objectContaining({
				field: 'content.heroTitle',
				value: 'Theirs',
				mine: 'Mine',
				changedBy: 'bob@chamber.test',
				changedAt: '2026-11-25T10:00:00Z',
			}),
		]);
		// Nothing of theirs was overwritten, and mine is still unsaved.
		expect(state.config.content.heroTitle).toBe('Theirs');
		expect($changes.get().map((c) => c.path)).toEqual(['content.heroTitle']);
		await resolveConflict('content.heroTitle', 'mine', deps);
		expect($conflicts.get()).toEqual([]);
		expect(state.config.content.heroTitle).toBe('Mine');
		// The version the refusal answered with: theirs is covered, nothing after it.
		expect(state.calls.at(-1)).toMatchObject({ field: 'heroTitle', value: 'Mine', version: 6 });
	});

	it('Take theirs drops mine and saves nothing more', async () => {
		const { state, theirs, deps } = server();
		await deps.reload();
		setField('content', 'heroTitle', 'Mine');
		theirs('Theirs');
		await saveChanges(deps);
		const calls = state.calls.length;
		await resolveConflict('content.heroTitle', 'theirs', deps);
		expect($conflicts.get()).toEqual([]);
		expect($changes.get()).toEqual([]);
		expect($draft.get()!.content.heroTitle).toBe('Theirs');
		expect(state.calls.length).toBe(calls);
		expect($versions.get().content).toBe(6);
	});

	it('a reload while editing keeps the old version where both changed the same field', async () => {
		const { state, theirs, deps } = server();
		await deps.reload();
		setField('content', 'heroTitle', 'Mine');
		theirs('Theirs');
		await deps.reload();
		expect($draft.get()!.content.heroTitle).toBe('Mine');
		expect($versions.get().content).toBe(5);
		await saveChanges(deps);
		expect($conflicts.get().map((c) => c.field)).toEqual(['content.heroTitle']);
		expect(state.config.content.heroTitle).toBe('Theirs');
	});
});
