import { computed, type ReadableAtom } from 'nanostores';
import { recordApi, type Answer, type RecordDeps } from '../versioned/api.ts';
import { createRecordEditor, type SaveOutcome } from '../versioned/editor-store.ts';
import { createListStore, listQuery } from '../versioned/list-store.ts';
import {
	changedFields,
	emptyEvent,
	eventIssues,
	EVENT_FIELDS,
	parseEventChanges,
	type DateField,
	type EventChanges,
	type EventDetail,
	type EventField,
	type EventListResult,
	type EventSource,
	type EventValues,
	type FieldIssue,
	type HistoryEntry,
	type Saved,
	type When,
} from './chamber-events.ts';

/**
 * The Events tab's state: the list (its query and page), and the event open in the editor, as
 * loaded and as a draft the form edits. The draft lives here, not in a component, so it
 * survives switching tabs; the panel asks before unsaved changes are lost. The list, the editor
 * and its conflicts are the versioned-record kit's (src/features/versioned/), shared with the
 * Members tab; this module adds the event's own (a new event's day, dates, feeds' values).
 */

export type EventsDeps = RecordDeps;
export type { Answer };

/** A bearer call of the tab's API, with the chamber named; `{error}` or `fallback` when it fails. */
export const eventsApi = recordApi;

const eventPath = (id: string, rest = '') => `/api/admin/events/${encodeURIComponent(id)}${rest}`;

// --- The list -----------------------------------------------------------------------------------

export interface ListFilters {
	q: string;
	when: When | '';
	type: string;
	source: EventSource | '';
	page: number;
	pageSize: number;
}

export const DEFAULT_FILTERS: ListFilters = {
	q: '',
	when: 'upcoming',
	type: '',
	source: '',
	page: 1,
	pageSize: 25,
};

type ListResult = EventListResult & { atlasError?: string };

/** The list's store, for the tab's PagedList. */
export const list = createListStore<ListFilters, ListResult>({
	defaults: DEFAULT_FILTERS,
	path: (filters) => `/api/admin/events?${listQuery({ ...filters })}`,
	failure: 'Failed to load the events',
});

export const { $filters } = list;

/** Loads the page the filters name; an answer that arrives after a newer request is dropped. */
export const loadList = list.loadList;

// --- The open event ------------------------------------------------------------------------------

/** The server's 400 ('path: message; …') at its fields, where it names them. */
function serverIssues(error: string): FieldIssue[] {
	return error.split('; ').map((part) => {
		const match = /^([a-z_]+)((?:\[\d+\]|\.[A-Za-z_]+)*): (.+)$/.exec(part);
		const field = match?.[1] as EventField | undefined;
		if (match && field && (EVENT_FIELDS as readonly string[]).includes(field)) {
			return { path: `${match[1]}${match[2]}`, field, message: match[3]! };
		}
		return { path: '', field: null, message: part };
	});
}

const editor = createRecordEditor<EventValues, EventDetail, EventField>({
	fields: EVENT_FIELDS,
	valuesOf: (detail) => detail.event,
	idOf: (detail) => detail.id,
	versionOf: (detail) => detail.version,
	withSaved: (detail, version, changes) => ({
		...detail,
		version,
		event: { ...detail.event, ...changes },
	}),
	changedFields,
	path: eventPath,
	loadFailure: 'Failed to load the event',
	serverIssues,
});

export type { SaveOutcome };

export const { $editor, $notice, $serverIssues, $saving, $conflict } = editor;

/** The open event's unsaved changes. */
export const $eventChanges = editor.$changes as ReadableAtom<EventChanges>;

/** The draft's problems, at their fields: each changed field's, and the whole event's. */
export const $issues = computed([$editor, $eventChanges], (current, changes): FieldIssue[] => {
	if (current.kind !== 'open' && current.kind !== 'new') return [];
	const parsed = parseEventChanges(changes);
	return [...(parsed.ok ? [] : parsed.issues), ...eventIssues(current.draft)];
});

export function hasUnsavedEventChanges(): boolean {
	return Object.keys($eventChanges.get()).length > 0;
}

export const LEAVE_EVENT_QUESTION = 'This event has unsaved changes. Leave it without saving them?';

export const openEvent = (deps: EventsDeps, id: string): Promise<void> => editor.open(deps, id);

/** Reads the open event again, the person's unsaved changes kept on top (but those of `drop`). */
const reloadEvent = (deps: EventsDeps, drop: readonly EventField[] = []): Promise<boolean> =>
	editor.reload(deps, drop);

export function newEvent(timeZone: string, day: string): void {
	editor.startNew(emptyEvent(timeZone, day), {});
}

export function closeEvent(): void {
	editor.close();
}

/** Every edit goes through here: a new draft, never a mutated one. */
export function editEvent(update: (draft: EventValues) => void): void {
	editor.edit(update);
}

export function setEventField<F extends EventField>(field: F, value: EventValues[F]): void {
	editor.setField(field, value);
}

/**
 * Saves the open event's changes (PATCH from the version it was loaded at; `version` overrides
 * it when the person keeps their values after a conflict) or adds the new event (POST).
 */
export async function saveEvent(deps: EventsDeps, version?: number): Promise<SaveOutcome> {
	const current = $editor.get();
	if ($saving.get() || (current.kind !== 'open' && current.kind !== 'new')) return 'failed';
	const changes = $eventChanges.get();
	if (current.kind === 'open' && Object.keys(changes).length === 0) return 'unchanged';
	const missingName = current.kind === 'new' && current.draft.name.trim() === '';
	if ($issues.get().length > 0 || missingName) {
		editor.resetMessages();
		if (missingName) {
			$serverIssues.set([{ path: 'name', field: 'name', message: 'An event needs a title' }]);
		}
		$notice.set({ kind: 'error', text: 'Some fields need attention before saving.' });
		return 'invalid';
	}
	return editor.whileSaving(async () => {
		if (current.kind === 'new') {
			const answer = await eventsApi<Saved>(
				deps,
				'POST',
				'/api/admin/events',
				{
					...changes,
					name: current.draft.name,
					time_zone: current.draft.time_zone,
					starts_local: current.draft.starts_local,
					ends_local: current.draft.ends_local,
				},
				'Failed to add the event',
			);
			if (!answer.ok) return editor.failed(answer);
			$editor.set({ kind: 'loading', id: answer.data.id });
			await openEvent(deps, answer.data.id);
			$notice.set({ kind: 'success', text: liveText(current.draft, 'added') });
			return 'saved';
		}
		return editor.saveOpen(deps, changes, {
			version,
			failure: 'Failed to save the event',
			savedText: liveText({ ...current.draft }, 'saved'),
		});
	});
}

/** What a save says: where the change shows now. */
function liveText(event: EventValues, what: 'added' | 'saved'): string {
	const done = what === 'added' ? `${event.name.trim()} was added.` : 'Changes saved.';
	if (event.status === 'draft') return `${done} It is a draft: visitors do not see it.`;
	return `${done} The calendars, the event's page and its calendar file show it now.`;
}

/**
 * The person's choice for one field of the conflict dialog. Once every field is decided the event
 * is read again (their values in, the person's other changes kept) and, if they kept any of
 * theirs, saved from the version the conflict was judged at.
 */
export function resolveConflict(
	deps: EventsDeps,
	field: string,
	choice: 'mine' | 'theirs',
): Promise<SaveOutcome | null> {
	return editor.resolveConflict(deps, field, choice, {
		save: (version) => saveEvent(deps, version),
		theirsText: () => 'Their values are in.',
	});
}

/** Delete, duplicate, a feed's value back, or one date of a series: then the event is read again. */
export async function eventAction(
	deps: EventsDeps,
	action:
		| 'delete'
		| 'duplicate'
		| { override: EventField }
		| { date: string; changes: Partial<Record<DateField, string>>; cancelled: boolean },
): Promise<boolean> {
	const current = $editor.get();
	if (current.kind !== 'open' || $saving.get()) return false;
	const { id, version } = current.detail;
	return editor.whileSaving(async () => {
		if (action === 'delete') {
			const answer = await eventsApi(
				deps,
				'DELETE',
				eventPath(id),
				undefined,
				'Failed to delete the event',
			);
			if (!answer.ok) {
				$notice.set({ kind: 'error', text: answer.error });
				return false;
			}
			$editor.set({ kind: 'closed' });
			$notice.set({ kind: 'success', text: `${current.detail.event.name} was deleted.` });
			return true;
		}
		if (action === 'duplicate') {
			const answer = await eventsApi<Saved>(
				deps,
				'POST',
				eventPath(id, '/duplicate'),
				undefined,
				'Failed to duplicate the event',
			);
			if (!answer.ok) {
				$notice.set({ kind: 'error', text: answer.error });
				return false;
			}
			await openEvent(deps, answer.data.id);
			$notice.set({
				kind: 'success',
				text: 'This is the copy, a draft: change what differs, set it to Published and save.',
			});
			return true;
		}
		const call =
			'override' in action
				? {
						method: 'DELETE' as const,
						path: eventPath(id, `/overrides/${action.override}`),
						body: undefined,
						failure: 'Failed to take the feed’s value',
						success: 'The calendar feed’s value is back.',
					}
				: {
						method: 'PATCH' as const,
						path: eventPath(id, `/dates/${action.date}`),
						body: { version, changes: action.changes, cancelled: action.cancelled },
						failure: 'Failed to change the date',
						success: action.cancelled
							? 'That date is cancelled; the others stay.'
							: 'That date is saved; the others stay as they are.',
					};
		const answer = await eventsApi(deps, call.method, call.path, call.body, call.failure);
		if (!answer.ok) {
			$notice.set({
				kind: 'error',
				text:
					answer.status === 409
						? `${answer.error}. Open the event again to see their change.`
						: answer.error,
			});
			return false;
		}
		await reloadEvent(deps, 'override' in action ? [action.override] : []);
		$notice.set({ kind: 'success', text: call.success });
		return true;
	});
}

export function loadHistory(
	deps: EventsDeps,
	id: string,
): Promise<Answer<{ history: HistoryEntry[] }>> {
	return eventsApi(deps, 'GET', eventPath(id, '/history'), undefined, 'Failed to load the history');
}
