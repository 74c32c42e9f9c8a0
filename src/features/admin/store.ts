import { atom, computed } from 'nanostores';
import type { ChamberConfig } from '../config/config.ts';
import { conflictAnswerSchema, type EditConflict } from '../conflicts/conflicts.ts';
import { configChangeAltersPages, type BudgetRefusal } from '../publish/policy.ts';
import { publishNeedsConfirmation, publishRequested } from '../publish/store.ts';
import {
	pendingChanges,
	savedVersionSchema,
	type ConfigVersions,
	type PendingChange,
	type VersionSection,
} from './update-config.ts';
import { rebaseDraft, setAt, valueAt } from './versions.ts';

/**
 * The panel's state: the configuration as saved, the draft the tabs edit, and the
 * pending changes between them. A save sends one update-config call per change; what the
 * server refused stays pending and is named in the red banner.
 */

/** 'Saved!' shows about 3 s; the configuration reloads about 1 s after a save. */
const SAVED_MS = 3000;
const RELOAD_AFTER_SAVE_MS = 1000;

export const $saved = atom<ChamberConfig | null>(null);
/** The version of each section $saved is at: what every save states it was made from. */
export const $versions = atom<ConfigVersions>({});
export const $draft = atom<ChamberConfig | null>(null);
export const $changes = computed([$saved, $draft], (saved, draft): PendingChange[] =>
	saved && draft ? pendingChanges(saved, draft) : [],
);

export type SaveState = 'idle' | 'saving' | 'saved';
export const $saveState = atom<SaveState>('idle');

export type Banner = { kind: 'error'; lines: string[] } | { kind: 'success'; text: string } | null;
export const $banner = atom<Banner>(null);

/**
 * A field someone else changed since the version this person's save stated, as the conflict
 * dialog shows it: theirs (with who and when) against mine, until they keep one.
 */
export interface PanelConflict extends EditConflict {
	section: VersionSection;
	/** This person's value (the draft's). */
	mine: unknown;
	/** The section's version when the save was refused: saving mine again states it. */
	version: number;
}
export const $conflicts = atom<PanelConflict[]>([]);
/** The choices made so far in the open conflict dialog (one panel per page). */
let decided: (PanelConflict & { choice: 'mine' | 'theirs' })[] = [];

/**
 * Takes a freshly loaded configuration and the versions it is at. Edits not yet saved survive
 * it, carried onto the new configuration unit by unit (a value someone else saved meanwhile is
 * taken wherever this person changed nothing); where they changed the same unit, the old version
 * stays, so the next save is refused with who and when rather than overwriting them. `stored` is
 * what the database holds when it differs from `config` (values that did not validate, which
 * `config` replaced with defaults): the differences then show as unsaved changes.
 */
export function configLoaded(
	config: ChamberConfig,
	stored: ChamberConfig = config,
	versions: ConfigVersions = {},
): void {
	const base = $saved.get();
	const draft = $draft.get();
	if ($changes.get().length === 0 || !base || !draft) {
		$saved.set(stored);
		$draft.set(structuredClone(config));
		$versions.set({ ...versions });
		return;
	}
	const rebased = rebaseDraft(base, draft, config);
	const before = $versions.get();
	const next = { ...versions };
	for (const section of rebased.contested) next[section] = before[section] ?? 0;
	$saved.set(stored);
	$draft.set(rebased.draft);
	$versions.set(next);
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
	/** A save publishes this deployment's site (the panel of its own chamber): once per save. */
	publishes?: boolean;
	getAccessToken(): Promise<string>;
	reload(): Promise<void>;
	fetch?: typeof fetch;
	setTimeout?: (fn: () => void, ms: number) => unknown;
}

type Sent =
	| { kind: 'saved' }
	| { kind: 'failed'; text: string }
	| { kind: 'conflict'; conflicts: EditConflict[]; version: number };

/** A JSON POST to the panel's API, as the signed-in user. */
async function post(deps: SaveDeps, path: string, body: unknown): Promise<Response> {
	const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
	return doFetch(path, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${await deps.getAccessToken()}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify(body),
	});
}

async function send(change: PendingChange, deps: SaveDeps): Promise<Sent> {
	const version = $versions.get()[change.section] ?? 0;
	try {
		const response = await post(deps, '/api/update-config', {
			chamber: deps.chamber,
			...change.body,
			version,
			// One publish for the whole save, after its last change (saveChanges).
			publish: false,
		});
		const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
		if (response.ok) {
			// Nobody came between: later saves of the section go on from its new version.
			const saved = savedVersionSchema.safeParse(body);
			if (saved.success && saved.data.previousVersion === version) {
				$versions.set({ ...$versions.get(), [change.section]: saved.data.version });
			}
			return { kind: 'saved' };
		}
		if (response.status === 409) {
			const conflict = conflictAnswerSchema.safeParse(body);
			if (conflict.success) {
				return {
					kind: 'conflict',
					conflicts: conflict.data.conflicts,
					version: conflict.data.version ?? version,
				};
			}
		}
		// The server's error, or the field's own message.
		return {
			kind: 'failed',
			text: typeof body?.error === 'string' && body.error ? body.error : change.failure,
		};
	} catch {
		return { kind: 'failed', text: change.failure };
	}
}

/**
 * One build for a save of several changes: each update-config call said `publish: false`. A
 * publish that cannot be asked for is no failed save; the header's status offers 'Publish now'.
 */
async function requestPublish(deps: SaveDeps, saved: number): Promise<void> {
	const reason = saved === 1 ? 'Configuration saved' : `${saved} configuration changes saved`;
	try {
		const response = await post(deps, '/api/publish', { reason });
		// The month's publishes are used: the header asks whether to publish at that cost.
		if (response.status === 409) {
			const body = (await response.json().catch(() => null)) as BudgetRefusal | null;
			if (body?.budget) publishNeedsConfirmation({ ...body, reason });
		}
	} catch {
		// The status line shows what is live; nothing is lost.
	}
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * After a refused save and a reload: the conflicts still standing, i.e. where this person's value
 * differs from the one saved now (a whole section's key they did not touch has taken theirs).
 */
function standingConflicts(
	refused: { change: PendingChange; conflicts: EditConflict[]; version: number }[],
): PanelConflict[] {
	const draft = $draft.get();
	const saved = $saved.get();
	if (!draft || !saved) return [];
	const standing = new Map<string, PanelConflict>();
	for (const { change, conflicts, version } of refused) {
		for (const conflict of conflicts) {
			const mine = valueAt(draft, conflict.field);
			if (same(mine, valueAt(saved, conflict.field))) continue;
			standing.set(conflict.field, { ...conflict, section: change.section, mine, version });
		}
	}
	return [...standing.values()];
}

/**
 * The person's choice for one conflict: 'theirs' takes the saved value into the draft, 'mine'
 * keeps the draft's. Once every conflict is decided, the sections go on from the versions the
 * database answered with, and what was kept is saved again.
 */
export async function resolveConflict(
	field: string,
	choice: 'mine' | 'theirs',
	deps: SaveDeps,
): Promise<void> {
	const conflicts = $conflicts.get();
	const conflict = conflicts.find((c) => c.field === field);
	if (!conflict) return;
	if (choice === 'theirs') {
		const saved = $saved.get();
		if (saved) edit((draft) => setAt(draft, field, structuredClone(valueAt(saved, field))));
	}
	const left = conflicts.filter((c) => c !== conflict);
	decided.push({ ...conflict, choice });
	$conflicts.set(left);
	if (left.length > 0) return;
	const versions = { ...$versions.get() };
	for (const c of decided) versions[c.section] = Math.max(versions[c.section] ?? 0, c.version);
	$versions.set(versions);
	const keep = decided.some((c) => c.choice === 'mine');
	decided = [];
	if (keep) await saveChanges(deps);
}

/**
 * 'Save Changes': sends every pending change (one call each, in order, each stating the version
 * of its section), then either 'Saved!' and 'Changes saved successfully!' with the configuration
 * reloaded a second later, or the red banner with one line per change the server refused (those
 * stay pending; the others are saved), and the conflict dialog for each field someone else
 * changed meanwhile.
 */
export async function saveChanges(deps: SaveDeps, attempt = 0): Promise<boolean> {
	const changes = $changes.get();
	const draft = $draft.get();
	if (!changes.length || !draft || $saveState.get() === 'saving') return false;
	const later = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
	$saveState.set('saving');
	$banner.set(null);
	const failures: string[] = [];
	const refused: { change: PendingChange; conflicts: EditConflict[]; version: number }[] = [];
	let saved = 0;
	// Whether a saved change shows on a page: a save of only fields no page shows builds nothing.
	let altersPages = false;
	for (const change of changes) {
		const sent = await send(change, deps);
		if (sent.kind === 'saved') {
			saved += 1;
			altersPages ||= configChangeAltersPages(change.path);
		} else if (sent.kind === 'failed') failures.push(sent.text);
		else refused.push({ change, conflicts: sent.conflicts, version: sent.version });
	}
	if (saved > 0) {
		if (deps.publishes && altersPages) await requestPublish(deps, saved);
		publishRequested();
	}
	if (failures.length || refused.length) {
		$saveState.set('idle');
		$banner.set(failures.length ? { kind: 'error', lines: failures } : null);
		// What did land is saved: reload so only the refused changes stay pending (and the
		// conflicts are judged against what is saved now).
		await deps.reload().catch(() => {});
		const standing = standingConflicts(refused);
		decided = [];
		$conflicts.set(standing);
		// A refused change whose conflicts all went away (they saved the same) is saved again.
		if (!standing.length && refused.length && !failures.length) {
			for (const { change, version } of refused) {
				const current = $versions.get()[change.section] ?? 0;
				$versions.set({ ...$versions.get(), [change.section]: Math.max(current, version) });
			}
			if ($changes.get().length && attempt < 2) return saveChanges(deps, attempt + 1);
		}
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

/**
 * 'Publish at…': the pending changes, each with the version of its section, are stored to go
 * live at `at` (a date and time on the chamber's clock) instead of now; they leave the unsaved
 * changes. What the server refuses stays unsaved and is named in the red banner.
 */
export async function scheduleChanges(
	deps: SaveDeps,
	at: string,
	describeTime: (runAt: string) => string,
): Promise<boolean> {
	const changes = $changes.get();
	const saved = $saved.get();
	if (!changes.length || !saved || $saveState.get() === 'saving') return false;
	const versions = $versions.get();
	$saveState.set('saving');
	$banner.set(null);
	try {
		const response = await post(deps, '/api/publish-schedule', {
			at,
			changes: changes.map((c) => ({ ...c.body, version: versions[c.section] ?? 0 })),
		});
		const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
		if (response.ok) {
			const scheduled = body?.scheduled as { runAt: string; summary: string } | undefined;
			$draft.set(structuredClone(saved));
			$saveState.set('idle');
			$banner.set({
				kind: 'success',
				text: scheduled
					? `Scheduled to go live ${describeTime(scheduled.runAt)}: ${scheduled.summary}`
					: 'Scheduled.',
			});
			publishRequested();
			return true;
		}
		const conflict = response.status === 409 ? conflictAnswerSchema.safeParse(body) : null;
		const lines = conflict?.success
			? [
					`Someone else changed ${conflict.data.conflicts
						.map((c) => `${c.field} (${c.changedBy ?? 'someone'})`)
						.join(
							', ',
						)} since you opened it. Nothing was scheduled: review your changes, then save or schedule them again.`,
				]
			: [typeof body?.error === 'string' && body.error ? body.error : 'Failed to schedule'];
		$saveState.set('idle');
		$banner.set({ kind: 'error', lines });
		if (conflict?.success) await deps.reload().catch(() => {});
		return false;
	} catch {
		$saveState.set('idle');
		$banner.set({ kind: 'error', lines: ['Failed to schedule'] });
		return false;
	}
}
