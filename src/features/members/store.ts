import { computed, type ReadableAtom } from 'nanostores';
import { recordApi, type Answer, type RecordDeps } from '../versioned/api.ts';
import { createRecordEditor, type SaveOutcome } from '../versioned/editor-store.ts';
import { createListStore, listQuery } from '../versioned/list-store.ts';
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
 * panel's guards ask before they are lost (leaving the listing, the page, or signing out). The
 * list, the editor and its conflicts are the versioned-record kit's (src/features/versioned/),
 * shared with the Events tab; this module adds the listing's own.
 */

export type MembersDeps = RecordDeps;

const api = recordApi;

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

/** The list's store, for the tab's PagedList. */
export const list = createListStore<ListFilters, MemberListResult>({
	defaults: DEFAULT_FILTERS,
	path: (filters) => `/api/admin/businesses?${listQuery({ ...filters })}`,
	failure: 'Failed to load the members',
});

export const { $filters } = list;

/** Loads the page the filters name; an answer that arrives after a newer request is dropped. */
export const loadList = list.loadList;

// --- The open listing ---------------------------------------------------------------------------

/** The server’s 400 ('path: message') at its field, when it names one. */
function serverIssue(error: string): FieldIssue {
	const match = /^([a-z_]+)((?:\[\d+\]|\.[a-z_]+)*): (.+)$/.exec(error);
	const field = match?.[1] as BusinessField | undefined;
	if (match && field && (BUSINESS_FIELDS as readonly string[]).includes(field)) {
		return { path: `${match[1]}${match[2]}`, field, message: match[3]! };
	}
	return { path: '', field: null, message: error };
}

const editor = createRecordEditor<
	BusinessValues,
	MemberDetail,
	BusinessField,
	{ weblinkProfileId: string }
>({
	fields: BUSINESS_FIELDS,
	valuesOf: (detail) => detail.business,
	idOf: (detail) => detail.business.id,
	versionOf: (detail) => detail.version,
	withSaved: (detail, version, changes) => ({
		...detail,
		version,
		business: { ...detail.business, ...changes },
	}),
	changedFields,
	path: businessPath,
	loadFailure: 'Failed to load the listing',
	serverIssues: (error) => [serverIssue(error)],
});

export type { SaveOutcome };

export const { $editor, $notice, $serverIssues, $saving, $conflict } = editor;

/** The open listing’s unsaved changes (every changed field, valid or not). */
export const $memberChanges = editor.$changes as ReadableAtom<BusinessChanges>;

/** The draft’s problems, at their fields, for what the person changed. */
export const $issues = computed($memberChanges, (changes): FieldIssue[] => {
	const parsed = parseBusinessChanges(changes);
	return parsed.ok ? [] : parsed.issues;
});

export function hasUnsavedMemberChanges(): boolean {
	const current = $editor.get();
	return (
		Object.keys($memberChanges.get()).length > 0 ||
		(current.kind === 'new' && current.weblinkProfileId.trim() !== '')
	);
}

/** Asked before unsaved changes of a listing are lost. */
export const LEAVE_LISTING_QUESTION =
	'This listing has unsaved changes. Leave it without saving them?';

/** After a write: the listing read again (`drop`: fields that take the stored value), and why. */
async function reloadSaying(
	deps: MembersDeps,
	drop: readonly BusinessField[],
	text: string,
): Promise<void> {
	await reloadMember(deps, drop);
	$notice.set({ kind: 'success', text });
}

export const openMember = (deps: MembersDeps, id: string): Promise<void> => editor.open(deps, id);

/**
 * Reads the open listing again, keeping the person’s unsaved changes on top of it (but those of
 * `drop`, which take the stored value).
 */
const reloadMember = (deps: MembersDeps, drop: readonly BusinessField[] = []): Promise<boolean> =>
	editor.reload(deps, drop);

export function newMember(): void {
	editor.startNew(emptyBusiness(), { weblinkProfileId: '' });
}

export function closeMember(): void {
	editor.close();
}

export function setMemberField<F extends BusinessField>(field: F, value: BusinessValues[F]): void {
	editor.setField(field, value);
}

export function setWeblinkProfileId(value: string): void {
	const current = $editor.get();
	if (current.kind === 'new') $editor.set({ ...current, weblinkProfileId: value });
}

interface SavedAnswer {
	id: string;
	version: number;
	publish: unknown;
}

/**
 * Saves the open listing’s changes (PATCH, from the version it was loaded at; `version`
 * overrides it when the person keeps their values after a conflict) or adds the new member
 * (POST). Answers what happened; the notice, the field problems or the conflict say it.
 */
export async function saveMember(deps: MembersDeps, version?: number): Promise<SaveOutcome> {
	const current = $editor.get();
	if ($saving.get() || (current.kind !== 'open' && current.kind !== 'new')) return 'failed';
	const changes = $memberChanges.get();
	if (current.kind === 'open' && Object.keys(changes).length === 0) return 'unchanged';
	const missingName = current.kind === 'new' && current.draft.report_name.trim() === '';
	if ($issues.get().length > 0 || missingName) {
		editor.resetMessages();
		if (missingName) {
			$serverIssues.set([
				{ path: 'report_name', field: 'report_name', message: 'A new member needs a name' },
			]);
		}
		$notice.set({ kind: 'error', text: 'Some fields need attention before saving.' });
		return 'invalid';
	}
	return editor.whileSaving(async () => {
		if (current.kind === 'new') {
			const weblink = current.weblinkProfileId.trim();
			const answer = await api<SavedAnswer>(
				deps,
				'POST',
				'/api/admin/businesses',
				{
					...changes,
					report_name: current.draft.report_name,
					...(weblink ? { weblink_profile_id: weblink } : {}),
				},
				'Failed to add the member',
			);
			if (!answer.ok) return editor.failed(answer);
			$editor.set({ kind: 'loading', id: answer.data.id });
			await openMember(deps, answer.data.id);
			$notice.set({
				kind: 'success',
				text: `${current.draft.report_name.trim()} was added. It is on the site after the publish.`,
			});
			return 'saved';
		}
		return editor.saveOpen(deps, changes, {
			version,
			failure: 'Failed to save the listing',
			savedText: 'Changes saved. They are on the site after the publish.',
		});
	});
}

/**
 * The person’s choice for one field of the conflict dialog: 'theirs' takes the saved value, 'mine'
 * keeps the draft’s. Once every field is decided the listing is read again (their values in, the
 * person’s other changes kept on top) and, if they kept any of theirs, saved from the version
 * the conflict was judged at; answers 'saved' then, 'unchanged' when only theirs were taken,
 * null while fields are left.
 */
export function resolveConflict(
	deps: MembersDeps,
	field: string,
	choice: 'mine' | 'theirs',
): Promise<SaveOutcome | null> {
	return editor.resolveConflict(deps, field, choice, {
		save: (version) => saveMember(deps, version),
		theirsText: (unsaved) =>
			unsaved
				? 'Their values are in. Your other changes are not saved yet: Save Listing to keep them.'
				: 'Their values are in.',
	});
}

/** Remove, restore, or take the membership system's value back: then the listing is read again. */
export async function memberAction(
	deps: MembersDeps,
	action: 'remove' | 'restore' | { override: BusinessField },
): Promise<boolean> {
	const current = $editor.get();
	if (current.kind !== 'open' || $saving.get()) return false;
	const id = current.detail.business.id;
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
	return editor.whileSaving(async () => {
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
	const current = $editor.get();
	if (current.kind !== 'open' || $saving.get()) return false;
	const parsed = parseBusinessChanges({ [field]: value });
	if (!parsed.ok) {
		$notice.set({
			kind: 'error',
			text: `That value cannot be restored: ${parsed.issues[0]!.message}`,
		});
		return false;
	}
	return editor.whileSaving(async () => {
		const { version } = current.detail;
		const answer = await editor.patch(
			deps,
			current.detail.business.id,
			{ version, changes: parsed.changes },
			'Failed to restore the value',
		);
		if (!answer.ok) {
			if (editor.showConflict(answer, version, parsed.changes)) return false;
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
