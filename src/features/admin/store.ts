import { atom, computed } from 'nanostores';
import type { ChamberConfig } from '../config/config.ts';
import { publishRequested } from '../publish/store.ts';
import { pendingChanges, type PendingChange } from './update-config.ts';

/**
 * The panel's state: the configuration as saved, the draft the tabs edit, and the
 * pending changes between them. A save sends one update-config call per change; what the
 * server refused stays pending and is named in the red banner.
 */

/** 'Saved!' shows about 3 s; the configuration reloads about 1 s after a save. */
export const SAVED_MS = 3000;
export const RELOAD_AFTER_SAVE_MS = 1000;

export const $saved = atom<ChamberConfig | null>(null);
export const $draft = atom<ChamberConfig | null>(null);
export const $changes = computed([$saved, $draft], (saved, draft): PendingChange[] =>
	saved && draft ? pendingChanges(saved, draft) : [],
);

export type SaveState = 'idle' | 'saving' | 'saved';
export const $saveState = atom<SaveState>('idle');

export type Banner = { kind: 'error'; lines: string[] } | { kind: 'success'; text: string } | null;
export const $banner = atom<Banner>(null);

/**
 * Takes a freshly loaded configuration; edits not yet saved survive it. `stored` is what the
 * database holds when it differs from `config` (values that did not validate, which `config`
 * replaced with defaults): the differences then show as unsaved changes.
 */
export function configLoaded(config: ChamberConfig, stored: ChamberConfig = config): void {
	const unsaved = $changes.get().length > 0;
	$saved.set(stored);
	if (!unsaved || !$draft.get()) $draft.set(structuredClone(config));
}

/** Every edit goes through here: a new draft, never a mutated one (stores compare by identity). */
export function edit(update: (draft: ChamberConfig) => void): void {
	const draft = $draft.get();
	if (!draft) return;
	const next = structuredClone(draft);
	update(next);
	$draft.set(next);
}

/** Sets one field of a section, e.g. setField('content', 'heroTitle', 'Shop local'). */
export function setField<S extends keyof ChamberConfig>(
	section: S,
	field: keyof ChamberConfig[S] & string,
	value: unknown,
): void {
	edit((draft) => {
		(draft[section] as Record<string, unknown>)[field] = value;
	});
}

export interface SaveDeps {
	chamber: string;
	getAccessToken(): Promise<string>;
	reload(): Promise<void>;
	fetch?: typeof fetch;
	setTimeout?: (fn: () => void, ms: number) => unknown;
}

async function send(change: PendingChange, deps: SaveDeps): Promise<string | null> {
	const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
	try {
		const response = await doFetch('/api/update-config', {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${await deps.getAccessToken()}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify({ chamber: deps.chamber, ...change.body }),
		});
		if (response.ok) return null;
		const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
		// The server's error, or the field's own message.
		return typeof body?.error === 'string' && body.error ? body.error : change.failure;
	} catch {
		return change.failure;
	}
}

/**
 * 'Save Changes': sends every pending change (one call each, in order), then either 'Saved!' and
 * 'Changes saved successfully!' with the configuration reloaded a second later, or the red
 * banner with one line per change the server refused (those stay pending; the others are saved).
 */
export async function saveChanges(deps: SaveDeps): Promise<boolean> {
	const changes = $changes.get();
	const draft = $draft.get();
	if (!changes.length || !draft || $saveState.get() === 'saving') return false;
	const later = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
	$saveState.set('saving');
	$banner.set(null);
	const failures: string[] = [];
	let saved = 0;
	for (const change of changes) {
		const failure = await send(change, deps);
		if (failure) failures.push(failure);
		else saved += 1;
	}
	if (saved > 0) publishRequested();
	if (failures.length) {
		$saveState.set('idle');
		$banner.set({ kind: 'error', lines: failures });
		// What did land is saved: reload so only the refused changes stay pending.
		await deps.reload().catch(() => {});
		return false;
	}
	$saved.set(draft);
	$saveState.set('saved');
	$banner.set({ kind: 'success', text: 'Changes saved successfully!' });
	later(() => {
		if ($saveState.get() === 'saved') $saveState.set('idle');
	}, SAVED_MS);
	later(() => void deps.reload().catch(() => {}), RELOAD_AFTER_SAVE_MS);
	return true;
}
