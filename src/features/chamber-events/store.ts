import { atom, computed } from 'nanostores';
import { conflictAnswerSchema, type EditConflict } from '../conflicts/conflicts.ts';
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
	type EventValues,
	type FieldIssue,
	type HistoryEntry,
	type Saved,
	type When,
	type EventSource,
} from './chamber-events.ts';

/**
 * The Events tab's state: the list (its query and page), and the event open in the editor, as
 * loaded and as a draft the form edits. The draft lives here, not in a component, so it
 * survives switching tabs; the panel asks before unsaved changes are lost.
 */

export interface EventsDeps {
	/** The chamber's slug (`?chamber=`). */
	chamber: string;
	getAccessToken(): Promise<string>;
	/** The browser's, unless a test serves the API itself. */
	fetch?: typeof fetch;
}

export type Answer<T> =
	{ ok: true; data: T } | { ok: false; status: number; body: unknown; error: string };

/** A bearer call of the tab's API, with the chamber named; `{error}` or `fallback` when it fails. */
export async function eventsApi<T>(
	deps: EventsDeps,
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
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
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

export type ListState =
	| { kind: 'loading'; previous: ListResult | null }
	| { kind: 'failed'; error: string }
	| { kind: 'ready'; result: ListResult };

export const $filters = atom<ListFilters>(DEFAULT_FILTERS);
export const $list = atom<ListState>({ kind: 'loading', previous: null });

function listPath(filters: ListFilters): string {
	const params = new URLSearchParams();
	if (filters.q.trim()) params.set('q', filters.q.trim());
	if (filters.when) params.set('when', filters.when);
	if (filters.type.trim()) params.set('type', filters.type.trim());
	if (filters.source) params.set('source', filters.source);
	params.set('page', String(filters.page));
	params.set('pageSize', String(filters.pageSize));
	return `/api/admin/events?${params}`;
}

let listRequest = 0;

/** Loads the page the filters name; an answer that arrives after a newer request is dropped. */
export async function loadList(deps: EventsDeps, filters: ListFilters = $filters.get()) {
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
	const answer = await eventsApi<ListResult>(
		deps,
		'GET',
		listPath(filters),
		undefined,
		'Failed to load the events',
	);
	if (request !== listRequest) return;
	$list.set(
		answer.ok ? { kind: 'ready', result: answer.data } : { kind: 'failed', error: answer.error },
	);
}

// --- The open event ------------------------------------------------------------------------------

export type EditorState =
	| { kind: 'closed' }
	| { kind: 'loading'; id: string }
	| { kind: 'failed'; id: string; error: string }
	| { kind: 'new'; draft: EventValues; blank: EventValues }
	| { kind: 'open'; detail: EventDetail; draft: EventValues };

export const $editor = atom<EditorState>({ kind: 'closed' });

export type Notice = { kind: 'error' | 'success'; text: string } | null;
export const $notice = atom<Notice>(null);
/** Problems the server named for a field on the last save: shown at that field. */
export const $serverIssues = atom<FieldIssue[]>([]);
export const $saving = atom(false);

/** A field someone else saved since the event was opened, against this person's value. */
export interface EventConflict extends EditConflict {
	field: EventField;
	mine: unknown;
}

export const $conflict = atom<{ version: number; conflicts: EventConflict[] } | null>(null);
let decided: { field: EventField; choice: 'mine' | 'theirs' }[] = [];

/** The open event's unsaved changes. */
export const $eventChanges = computed($editor, (editor): EventChanges => {
	if (editor.kind === 'open') return changedFields(editor.detail.event, editor.draft);
	if (editor.kind === 'new') return changedFields(editor.blank, editor.draft);
	return {};
});

/** The draft's problems, at their fields: each changed field's, and the whole event's. */
export const $issues = computed([$editor, $eventChanges], (editor, changes): FieldIssue[] => {
	if (editor.kind !== 'open' && editor.kind !== 'new') return [];
	const parsed = parseEventChanges(changes);
	return [...(parsed.ok ? [] : parsed.issues), ...eventIssues(editor.draft)];
});

export function hasUnsavedEventChanges(): boolean {
	return Object.keys($eventChanges.get()).length > 0;
}

export const LEAVE_EVENT_QUESTION = 'This event has unsaved changes. Leave it without saving them?';

function resetMessages() {
	$notice.set(null);
	$serverIssues.set([]);
	$conflict.set(null);
	decided = [];
}

async function whileSaving<T>(write: () => Promise<T>): Promise<T> {
	$saving.set(true);
	resetMessages();
	try {
		return await write();
	} finally {
		$saving.set(false);
	}
}

export async function openEvent(deps: EventsDeps, id: string): Promise<void> {
	resetMessages();
	$editor.set({ kind: 'loading', id });
	const answer = await eventsApi<EventDetail>(
		deps,
		'GET',
		eventPath(id),
		undefined,
		'Failed to load the event',
	);
	const editor = $editor.get();
	if (editor.kind !== 'loading' || editor.id !== id) return;
	$editor.set(
		answer.ok
			? { kind: 'open', detail: answer.data, draft: structuredClone(answer.data.event) }
			: { kind: 'failed', id, error: answer.error },
	);
}

/** Reads the open event again, the person's unsaved changes kept on top (but those of `drop`). */
async function reloadEvent(deps: EventsDeps, drop: readonly EventField[] = []): Promise<boolean> {
	const editor = $editor.get();
	if (editor.kind !== 'open') return false;
	const { id } = editor.detail;
	const answer = await eventsApi<EventDetail>(
		deps,
		'GET',
		eventPath(id),
		undefined,
		'Failed to load the event',
	);
	if (!answer.ok) {
		$notice.set({ kind: 'error', text: answer.error });
		return false;
	}
	const now = $editor.get();
	if (now.kind !== 'open' || now.detail.id !== id) return false;
	const unsaved = changedFields(now.detail.event, now.draft);
	const draft = structuredClone(answer.data.event);
	for (const field of EVENT_FIELDS) {
		if (field in unsaved && !drop.includes(field)) {
			(draft as unknown as Record<string, unknown>)[field] = unsaved[field];
		}
	}
	$editor.set({ kind: 'open', detail: answer.data, draft });
	return true;
}

export function newEvent(timeZone: string, day: string): void {
	resetMessages();
	const blank = emptyEvent(timeZone, day);
	$editor.set({ kind: 'new', draft: structuredClone(blank), blank });
}

export function closeEvent(): void {
	resetMessages();
	$editor.set({ kind: 'closed' });
}

/** Every edit goes through here: a new draft, never a mutated one. */
export function editEvent(update: (draft: EventValues) => void): void {
	const editor = $editor.get();
	if (editor.kind !== 'open' && editor.kind !== 'new') return;
	const draft = structuredClone(editor.draft);
	update(draft);
	$editor.set({ ...editor, draft });
}

export function setEventField<F extends EventField>(field: F, value: EventValues[F]): void {
	editEvent((draft) => {
		draft[field] = value;
	});
}

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

export type SaveOutcome = 'saved' | 'invalid' | 'conflict' | 'failed' | 'unchanged';

function failed(answer: { status: number; error: string }): SaveOutcome {
	if (answer.status === 400) $serverIssues.set(serverIssues(answer.error).filter((i) => i.field));
	$notice.set({ kind: 'error', text: answer.error });
	return answer.status === 400 ? 'invalid' : 'failed';
}

/** A 409: the dialog opens with each field someone else saved against the draft's value. */
function showConflict(answer: { status: number; body: unknown }, version: number): boolean {
	const editor = $editor.get();
	if (answer.status !== 409 || editor.kind !== 'open') return false;
	const parsed = conflictAnswerSchema.safeParse(answer.body);
	const fields = parsed.success
		? parsed.data.conflicts.filter((c) => (EVENT_FIELDS as readonly string[]).includes(c.field))
		: [];
	if (!parsed.success || !fields.length) return false;
	decided = [];
	$conflict.set({
		version: parsed.data.version ?? version,
		conflicts: fields.map((c) => {
			const field = c.field as EventField;
			return { ...c, field, mine: editor.draft[field] };
		}),
	});
	return true;
}

/**
 * Saves the open event's changes (PATCH from the version it was loaded at; `version` overrides
 * it when the person keeps their values after a conflict) or adds the new event (POST).
 */
export async function saveEvent(deps: EventsDeps, version?: number): Promise<SaveOutcome> {
	const editor = $editor.get();
	if ($saving.get() || (editor.kind !== 'open' && editor.kind !== 'new')) return 'failed';
	const changes = $eventChanges.get();
	if (editor.kind === 'open' && Object.keys(changes).length === 0) return 'unchanged';
	const missingName = editor.kind === 'new' && editor.draft.name.trim() === '';
	if ($issues.get().length > 0 || missingName) {
		resetMessages();
		if (missingName) {
			$serverIssues.set([{ path: 'name', field: 'name', message: 'An event needs a title' }]);
		}
		$notice.set({ kind: 'error', text: 'Some fields need attention before saving.' });
		return 'invalid';
	}
	return whileSaving(async () => {
		if (editor.kind === 'new') {
			const answer = await eventsApi<Saved>(
				deps,
				'POST',
				'/api/admin/events',
				{
					...changes,
					name: editor.draft.name,
					time_zone: editor.draft.time_zone,
					starts_local: editor.draft.starts_local,
					ends_local: editor.draft.ends_local,
				},
				'Failed to add the event',
			);
			if (!answer.ok) return failed(answer);
			$editor.set({ kind: 'loading', id: answer.data.id });
			await openEvent(deps, answer.data.id);
			$notice.set({ kind: 'success', text: liveText(editor.draft, 'added') });
			return 'saved';
		}
		const stated = version ?? editor.detail.version;
		const answer = await eventsApi<Saved>(
			deps,
			'PATCH',
			eventPath(editor.detail.id),
			{ version: stated, changes },
			'Failed to save the event',
		);
		if (!answer.ok) {
			if (showConflict(answer, stated)) return 'conflict';
			return failed(answer);
		}
		const now = $editor.get();
		if (now.kind === 'open' && now.detail.id === editor.detail.id) {
			$editor.set({
				...now,
				detail: {
					...now.detail,
					version: answer.data.version,
					event: { ...now.detail.event, ...changes },
				},
			});
		}
		await reloadEvent(deps);
		$notice.set({ kind: 'success', text: liveText({ ...editor.draft }, 'saved') });
		return 'saved';
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
export async function resolveConflict(
	deps: EventsDeps,
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
	if (!(await reloadEvent(deps, theirs))) return 'failed';
	if (choices.some((c) => c.choice === 'mine')) return saveEvent(deps, conflict.version);
	$notice.set({ kind: 'success', text: 'Their values are in.' });
	return 'unchanged';
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
	const editor = $editor.get();
	if (editor.kind !== 'open' || $saving.get()) return false;
	const { id, version } = editor.detail;
	return whileSaving(async () => {
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
			$notice.set({ kind: 'success', text: `${editor.detail.event.name} was deleted.` });
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
