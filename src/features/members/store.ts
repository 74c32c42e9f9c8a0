import { atom, computed } from 'nanostores';
import { conflictAnswerSchema, type EditConflict } from '../conflicts/conflicts.ts';
import {
	BUSINESS_FIELDS,
	changedFields,
	emptyBusiness,
	parseBusinessChanges,
	type BusinessChanges,
	type BusinessField,
	type BusinessValues,
	type FieldIssue,
	type HistoryEntry,
	type MemberDetail,
	type MemberListResult,
	type MemberStatus,
} from './members.ts';

/**
 * The Members tab's state: the list (its query and page), and the listing open in the editor,
 * as loaded and as a draft the form edits. The draft lives here, not in a component, so it
 * survives switching tabs; the unsaved changes are the fields where the two differ, and the
 * panel's guards ask before they are lost (leaving the listing, the page, or signing out).
 */

export interface MembersDeps {
	/** The chamber's slug (`?chamber=`). */
	chamber: string;
	getAccessToken(): Promise<string>;
	fetch?: typeof fetch;
}

type Answer<T> =
	{ ok: true; data: T } | { ok: false; status: number; body: unknown; error: string };

async function api<T>(
	deps: MembersDeps,
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
	path: string,
	body?: unknown,
	fallback = 'The server could not be reached. Please try again.',
): Promise<Answer<T>> {
	const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
	const url = `${path}${path.includes('?') ? '&' : '?'}chamber=${encodeURIComponent(deps.chamber)}`;
	try {
		const response = await doFetch(url, {
			method,
			headers: {
				authorization: `Bearer ${await deps.getAccessToken()}`,
				...(body !== undefined && !(body instanceof FormData)
					? { 'content-type': 'application/json' }
					: {}),
			},
			body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
		});
		const json = (await response.json().catch(() => null)) as unknown;
		if (response.ok && json !== null) return { ok: true, data: json as T };
		const error = (json as { error?: unknown } | null)?.error;
		return {
			ok: false,
			status: response.status,
			body: json,
			error: typeof error === 'string' && error ? error : fallback,
		};
	} catch {
		return { ok: false, status: 0, body: null, error: fallback };
	}
}

/** A business's route of the admin API (with `rest`, one of its sub-routes). */
function businessPath(id: string, rest = ''): string {
	return `/api/admin/businesses/${encodeURIComponent(id)}${rest}`;
}

// --- The list -----------------------------------------------------------------------------------

export interface ListFilters {
	q: string;
	status: MemberStatus | '';
	level: string;
	category: string;
	page: number;
	pageSize: number;
}

export const DEFAULT_FILTERS: ListFilters = {
	q: '',
	status: '',
	level: '',
	category: '',
	page: 1,
	pageSize: 25,
};

export type ListState =
	| { kind: 'loading'; previous: MemberListResult | null }
	| { kind: 'failed'; error: string }
	| { kind: 'ready'; result: MemberListResult };

export const $filters = atom<ListFilters>(DEFAULT_FILTERS);
export const $list = atom<ListState>({ kind: 'loading', previous: null });

function listPath(filters: ListFilters): string {
	const params = new URLSearchParams();
	if (filters.q.trim()) params.set('q', filters.q.trim());
	if (filters.status) params.set('status', filters.status);
	if (filters.level.trim()) params.set('level', filters.level.trim());
	if (filters.category.trim()) params.set('category', filters.category.trim());
	params.set('page', String(filters.page));
	params.set('pageSize', String(filters.pageSize));
	return `/api/admin/businesses?${params}`;
}

let listRequest = 0;

/** Loads the page the filters name; an answer that arrives after a newer request is dropped. */
export async function loadList(deps: MembersDeps, filters: ListFilters = $filters.get()) {
	$filters.set(filters);
	const request = ++listRequest;
	const current = $list.get();
	$list.set({
		kind: 'loading',
		previous:
			current.kind === 'ready'
				? current.result
				: current.kind === 'loading'
					? current.previous
					: null,
	});
	const answer = await api<MemberListResult>(
		deps,
		'GET',
		listPath(filters),
		undefined,
		'Failed to load the members',
	);
	if (request !== listRequest) return;
	$list.set(
		answer.ok ? { kind: 'ready', result: answer.data } : { kind: 'failed', error: answer.error },
	);
}

// --- The open listing ---------------------------------------------------------------------------

export type EditorState =
	| { kind: 'closed' }
	| { kind: 'loading'; id: string }
	| { kind: 'failed'; id: string; error: string }
	/** A new member: nothing saved yet. */
	| { kind: 'new'; draft: BusinessValues; weblinkProfileId: string }
	| { kind: 'open'; detail: MemberDetail; draft: BusinessValues };

export const $editor = atom<EditorState>({ kind: 'closed' });

export type Notice = { kind: 'error' | 'success'; text: string } | null;
export const $notice = atom<Notice>(null);

/** Problems the server named for a field on the last save: shown at that field. */
export const $serverIssues = atom<FieldIssue[]>([]);

/** A field of the open listing someone else saved since it was opened, against this person's. */
export interface MemberConflict extends EditConflict {
	field: BusinessField;
	/** This person's value (the draft's). */
	mine: unknown;
}

/**
 * The conflict dialog's content: the fields still to decide, and the version the listing is at
 * now (saving the person's values again states it).
 */
export const $conflict = atom<{ version: number; conflicts: MemberConflict[] } | null>(null);
/** The choices made so far in the open conflict dialog. */
let decided: { field: BusinessField; choice: 'mine' | 'theirs' }[] = [];

export const $saving = atom(false);

/** The open listing's unsaved changes (every changed field, valid or not). */
export const $memberChanges = computed($editor, (editor): BusinessChanges => {
	if (editor.kind === 'open') return changedFields(editor.detail.business, editor.draft);
	if (editor.kind === 'new') return changedFields(emptyBusiness(), editor.draft);
	return {};
});

/** The draft's problems, at their fields, for what the person changed. */
export const $issues = computed($memberChanges, (changes): FieldIssue[] => {
	const parsed = parseBusinessChanges(changes);
	return parsed.ok ? [] : parsed.issues;
});

export function hasUnsavedMemberChanges(): boolean {
	const editor = $editor.get();
	return (
		Object.keys($memberChanges.get()).length > 0 ||
		(editor.kind === 'new' && editor.weblinkProfileId.trim() !== '')
	);
}

/** Asked before unsaved changes of a listing are lost. */
export const LEAVE_LISTING_QUESTION =
	'This listing has unsaved changes. Leave it without saving them?';

function resetMessages() {
	$notice.set(null);
	$serverIssues.set([]);
	$conflict.set(null);
	decided = [];
}

/** A write of the open listing: one at a time, the messages of the one before cleared. */
async function whileSaving<T>(write: () => Promise<T>): Promise<T> {
	$saving.set(true);
	resetMessages();
	try {
		return await write();
	} finally {
		$saving.set(false);
	}
}

/** After a write: the listing read again (`drop`: fields that take the stored value), and why. */
async function reloadSaying(
	deps: MembersDeps,
	drop: readonly BusinessField[],
	text: string,
): Promise<void> {
	await reloadMember(deps, drop);
	$notice.set({ kind: 'success', text });
}

function fetchMember(deps: MembersDeps, id: string): Promise<Answer<MemberDetail>> {
	return api(deps, 'GET', businessPath(id), undefined, 'Failed to load the listing');
}

export async function openMember(deps: MembersDeps, id: string): Promise<void> {
	resetMessages();
	$editor.set({ kind: 'loading', id });
	const answer = await fetchMember(deps, id);
	const editor = $editor.get();
	if (editor.kind !== 'loading' || editor.id !== id) return;
	$editor.set(
		answer.ok
			? { kind: 'open', detail: answer.data, draft: structuredClone(answer.data.business) }
			: { kind: 'failed', id, error: answer.error },
	);
}

/**
 * Reads the open listing again, keeping the person's unsaved changes on top of it (but those of
 * `drop`, which take the stored value).
 */
export async function reloadMember(
	deps: MembersDeps,
	drop: readonly BusinessField[] = [],
): Promise<boolean> {
	const editor = $editor.get();
	if (editor.kind !== 'open') return false;
	const id = editor.detail.business.id;
	const answer = await fetchMember(deps, id);
	if (!answer.ok) {
		$notice.set({ kind: 'error', text: answer.error });
		return false;
	}
	const now = $editor.get();
	if (now.kind !== 'open' || now.detail.business.id !== id) return false;
	const unsaved = changedFields(now.detail.business, now.draft);
	const draft = structuredClone(answer.data.business);
	for (const field of BUSINESS_FIELDS) {
		if (field in unsaved && !drop.includes(field)) {
			(draft as unknown as Record<string, unknown>)[field] = unsaved[field];
		}
	}
	$editor.set({ kind: 'open', detail: answer.data, draft });
	return true;
}

export function newMember(): void {
	resetMessages();
	$editor.set({ kind: 'new', draft: emptyBusiness(), weblinkProfileId: '' });
}

export function closeMember(): void {
	resetMessages();
	$editor.set({ kind: 'closed' });
}

/** Every edit goes through here: a new draft, never a mutated one. */
export function editMember(update: (draft: BusinessValues) => void): void {
	const editor = $editor.get();
	if (editor.kind !== 'open' && editor.kind !== 'new') return;
	const draft = structuredClone(editor.draft);
	update(draft);
	$editor.set({ ...editor, draft });
}

export function setMemberField<F extends BusinessField>(field: F, value: BusinessValues[F]): void {
	editMember((draft) => {
		draft[field] = value;
	});
}

export function setWeblinkProfileId(value: string): void {
	const editor = $editor.get();
	if (editor.kind === 'new') $editor.set({ ...editor, weblinkProfileId: value });
}

/** The server's 400 ('path: message') at its field, when it names one. */
function serverIssue(error: string): FieldIssue {
	const match = /^([a-z_]+)((?:\[\d+\]|\.[a-z_]+)*): (.+)$/.exec(error);
	const field = match?.[1] as BusinessField | undefined;
	if (match && field && (BUSINESS_FIELDS as readonly string[]).includes(field)) {
		return { path: `${match[1]}${match[2]}`, field, message: match[3]! };
	}
	return { path: '', field: null, message: error };
}

export type SaveOutcome = 'saved' | 'invalid' | 'conflict' | 'failed' | 'unchanged';

interface SavedAnswer {
	id: string;
	version: number;
	publish: unknown;
}

/** Saves changes of a listing made from `version` of it (409 when someone saved since). */
function patchMember(
	deps: MembersDeps,
	id: string,
	body: { version: number; changes: BusinessChanges },
	failure: string,
): Promise<Answer<SavedAnswer>> {
	return api(deps, 'PATCH', businessPath(id), body, failure);
}

/**
 * Saves the open listing's changes (PATCH, from the version it was loaded at; `version`
 * overrides it when the person keeps their values after a conflict) or adds the new member
 * (POST). Answers what happened; the notice, the field problems or the conflict say it.
 */
export async function saveMember(deps: MembersDeps, version?: number): Promise<SaveOutcome> {
	const editor = $editor.get();
	if ($saving.get() || (editor.kind !== 'open' && editor.kind !== 'new')) return 'failed';
	const changes = $memberChanges.get();
	if (editor.kind === 'open' && Object.keys(changes).length === 0) return 'unchanged';
	const missingName = editor.kind === 'new' && editor.draft.report_name.trim() === '';
	if ($issues.get().length > 0 || missingName) {
		resetMessages();
		if (missingName) {
			$serverIssues.set([
				{ path: 'report_name', field: 'report_name', message: 'A new member needs a name' },
			]);
		}
		$notice.set({ kind: 'error', text: 'Some fields need attention before saving.' });
		return 'invalid';
	}
	return whileSaving(async () => {
		if (editor.kind === 'new') {
			const weblink = editor.weblinkProfileId.trim();
			const answer = await api<SavedAnswer>(
				deps,
				'POST',
				'/api/admin/businesses',
				{
					...changes,
					report_name: editor.draft.report_name,
					...(weblink ? { weblink_profile_id: weblink } : {}),
				},
				'Failed to add the member',
			);
			if (!answer.ok) return failed(answer);
			$editor.set({ kind: 'loading', id: answer.data.id });
			await openMember(deps, answer.data.id);
			$notice.set({
				kind: 'success',
				text: `${editor.draft.report_name.trim()} was added. It is on the site after the publish.`,
			});
			return 'saved';
		}
		const id = editor.detail.business.id;
		const answer = await patchMember(
			deps,
			id,
			{ version: version ?? editor.detail.version, changes },
			'Failed to save the listing',
		);
		if (!answer.ok) {
			if (showConflict(answer, version ?? editor.detail.version)) return 'conflict';
			return failed(answer);
		}
		// What was saved is the new baseline; anything typed meanwhile stays a change.
		const now = $editor.get();
		if (now.kind === 'open' && now.detail.business.id === id) {
			$editor.set({
				...now,
				detail: {
					...now.detail,
					version: answer.data.version,
					business: { ...now.detail.business, ...changes },
				},
			});
		}
		await reloadSaying(deps, [], 'Changes saved. They are on the site after the publish.');
		return 'saved';
	});
}

/**
 * A 409 naming fields someone else saved: the dialog opens with each of them against the
 * draft's value. `restoring` is an earlier value being put back from the history: it goes into
 * the draft, so keeping it saves it. Answers whether the dialog opened.
 */
function showConflict(
	answer: { status: number; body: unknown },
	version: number,
	restoring: BusinessChanges = {},
): boolean {
	if (answer.status !== 409 || $editor.get().kind !== 'open') return false;
	const parsed = conflictAnswerSchema.safeParse(answer.body);
	const fields = parsed.success
		? parsed.data.conflicts.filter((c) => (BUSINESS_FIELDS as readonly string[]).includes(c.field))
		: [];
	if (!parsed.success || !fields.length) return false;
	editMember((draft) => Object.assign(draft, restoring));
	const draft = ($editor.get() as { draft: BusinessValues }).draft;
	decided = [];
	$conflict.set({
		version: parsed.data.version ?? version,
		conflicts: fields.map((c) => {
			const field = c.field as BusinessField;
			return { ...c, field, mine: draft[field] };
		}),
	});
	return true;
}

function failed(answer: { status: number; error: string }): SaveOutcome {
	const issue = serverIssue(answer.error);
	if (answer.status === 400 && issue.field) $serverIssues.set([issue]);
	$notice.set({ kind: 'error', text: answer.error });
	return answer.status === 400 ? 'invalid' : 'failed';
}

/**
 * The person's choice for one field of the conflict dialog: 'theirs' takes the saved value, 'mine'
 * keeps the draft's. Once every field is decided the listing is read again (their values in, the
 * person's other changes kept on top) and, if they kept any of theirs, saved from the version
 * the conflict was judged at; answers 'saved' then, 'unchanged' when only theirs were taken,
 * null while fields are left.
 */
export async function resolveConflict(
	deps: MembersDeps,
	field: string,
	choice: 'mine' | 'theirs',
): Promise<SaveOutcome | null> {
	const conflict = $conflict.get();
	const which = conflict?.conflicts.find((c) => c.field === field);
	if (!conflict || !which) return null;
	decided.push({ field: which.field, choice });
	const left = conflict.conflicts.filter((c) => c !== which);
	if (left.length) {
		$conflict.set({ ...conflict, conflicts: left });
		return null;
	}
	const choices = decided;
	decided = [];
	$conflict.set(null);
	const theirs = choices.filter((c) => c.choice === 'theirs').map((c) => c.field);
	if (!(await reloadMember(deps, theirs))) return 'failed';
	if (choices.some((c) => c.choice === 'mine')) return saveMember(deps, conflict.version);
	const unsaved = Object.keys($memberChanges.get()).length;
	$notice.set({
		kind: 'success',
		text: unsaved
			? 'Their values are in. Your other changes are not saved yet: Save Listing to keep them.'
			: 'Their values are in.',
	});
	return 'unchanged';
}

/** Remove, restore, or take the membership system's value back: then the listing is read again. */
export async function memberAction(
	deps: MembersDeps,
	action: 'remove' | 'restore' | { override: BusinessField },
): Promise<boolean> {
	const editor = $editor.get();
	if (editor.kind !== 'open' || $saving.get()) return false;
	const id = editor.detail.business.id;
	const call: { method: 'POST' | 'DELETE'; path: string; failure: string; success: string } =
		action === 'remove'
			? {
					method: 'DELETE',
					path: businessPath(id),
					failure: 'Failed to remove the listing',
					success:
						'The listing was removed. It leaves the site at the publish; you can restore it for 30 days.',
				}
			: action === 'restore'
				? {
						method: 'POST',
						path: businessPath(id, '/restore'),
						failure: 'Failed to restore the listing',
						success: 'The listing was restored.',
					}
				: action.override === 'location'
					? {
							method: 'DELETE',
							path: businessPath(id, '/overrides/location'),
							failure: 'Failed to place the business by its address',
							success:
								'The pin placed by hand is gone: the geocoder places the business by its address within a few minutes.',
						}
					: {
							method: 'DELETE',
							path: businessPath(id, `/overrides/${action.override}`),
							failure: 'Failed to take the membership system’s value',
							success: 'The membership system’s value is back.',
						};
	return whileSaving(async () => {
		const answer = await api(deps, call.method, call.path, undefined, call.failure);
		if (!answer.ok) {
			$notice.set({ kind: 'error', text: answer.error });
			return false;
		}
		await reloadSaying(deps, typeof action === 'object' ? [action.override] : [], call.success);
		return true;
	});
}

export async function loadHistory(
	deps: MembersDeps,
	id: string,
): Promise<Answer<{ history: HistoryEntry[] }>> {
	return api(deps, 'GET', businessPath(id, '/history'), undefined, 'Failed to load the history');
}

/** A history entry's earlier value, saved back (with the version check). */
export async function restoreValue(
	deps: MembersDeps,
	field: BusinessField,
	value: unknown,
): Promise<boolean> {
	const editor = $editor.get();
	if (editor.kind !== 'open' || $saving.get()) return false;
	const parsed = parseBusinessChanges({ [field]: value });
	if (!parsed.ok) {
		$notice.set({
			kind: 'error',
			text: `That value cannot be restored: ${parsed.issues[0]!.message}`,
		});
		return false;
	}
	return whileSaving(async () => {
		const { version } = editor.detail;
		const answer = await patchMember(
			deps,
			editor.detail.business.id,
			{ version, changes: parsed.changes },
			'Failed to restore the value',
		);
		if (!answer.ok) {
			if (showConflict(answer, version, parsed.changes)) return false;
			$notice.set({ kind: 'error', text: answer.error });
			return false;
		}
		await reloadSaying(deps, [field], 'The earlier value is back.');
		return true;
	});
}

/** Uploads a logo file; answers its URL for the draft's logo_url (saved with the listing). */
export async function uploadLogo(
	deps: MembersDeps,
	id: string,
	file: File,
): Promise<Answer<{ url: string }>> {
	const form = new FormData();
	form.set('logo', file);
	return api(deps, 'POST', businessPath(id, '/logo'), form, 'Failed to upload logo');
}
