import { atom, computed, type ReadableAtom, type WritableAtom } from 'nanostores';
import { conflictAnswerSchema, type EditConflict } from '../conflicts/conflicts.ts';
import { recordApi, type Answer, type RecordDeps } from './api.ts';

/**
 * A staff tab's versioned record open in its editor (a member's listing, an event): as loaded and
 * as the draft the form edits, kept in a store so it survives switching tabs; the unsaved changes
 * are the fields where the two differ. A save states the version the record was opened at; the
 * server's 409 names the fields someone else saved since, and the conflict dialog lets the
 * person keep theirs (saved from the version the conflict was judged at) or take the stored
 * value, field by field, their other unsaved changes kept. Part of the versioned-record kit,
 * which the Members and Events tabs share; each tab's store.ts adds what is its own (what a new
 * record needs, its texts, its actions).
 */

/** A problem of one field: `path` is where inside it (tickets[0].UnitPrice). */
interface FieldIssue<F extends string> {
	path: string;
	field: F | null;
	message: string;
}

type EditorState<V, D, N extends object> =
	| { kind: 'closed' }
	| { kind: 'loading'; id: string }
	| { kind: 'failed'; id: string; error: string }
	/** A new record, nothing saved yet: `blank` is what its changes are measured from. */
	| ({ kind: 'new'; draft: V; blank: V } & N)
	| { kind: 'open'; detail: D; draft: V };

type Notice = { kind: 'error' | 'success'; text: string } | null;

export type SaveOutcome = 'saved' | 'invalid' | 'conflict' | 'failed' | 'unchanged';

/** A field someone else saved since the record was opened, against this person's value. */
interface RecordConflict<F extends string> extends EditConflict {
	field: F;
	/** This person's value (the draft's). */
	mine: unknown;
}

export interface EditorConfig<V extends object, D, F extends string & keyof V> {
	fields: readonly F[];
	/** The record's values in what the API answers for it. */
	valuesOf(detail: D): V;
	idOf(detail: D): string;
	versionOf(detail: D): number;
	/** What the API answered, after a save of `changes` that made `version`. */
	withSaved(detail: D, version: number, changes: Partial<V>): D;
	changedFields(loaded: V, draft: V): Partial<V>;
	/** A record's address (with `rest`, one of its sub-addresses). */
	path(id: string, rest?: string): string;
	loadFailure: string;
	/** The server's 400 ('path: message') at the fields it names. */
	serverIssues(error: string): FieldIssue<F>[];
}

export interface RecordEditor<V extends object, D, F extends string & keyof V, N extends object> {
	$editor: WritableAtom<EditorState<V, D, N>>;
	$notice: WritableAtom<Notice>;
	/** Problems the server named for a field on the last save: shown at that field. */
	$serverIssues: WritableAtom<FieldIssue<F>[]>;
	$saving: WritableAtom<boolean>;
	/** The conflict dialog: the fields still to decide, and the version the record is at now. */
	$conflict: WritableAtom<{ version: number; conflicts: RecordConflict<F>[] } | null>;
	/** The open record's unsaved changes (every changed field, valid or not). */
	$changes: ReadableAtom<Partial<V>>;
	resetMessages(): void;
	/** A write of the open record: one at a time, the messages of the one before cleared. */
	whileSaving<T>(write: () => Promise<T>): Promise<T>;
	open(deps: RecordDeps, id: string): Promise<void>;
	/** Reads the open record again, the person's unsaved changes on top (but those of `drop`). */
	reload(deps: RecordDeps, drop?: readonly F[]): Promise<boolean>;
	startNew(blank: V, extra: N): void;
	close(): void;
	/** Every edit goes through here: a new draft, never a mutated one. */
	edit(update: (draft: V) => void): void;
	setField<K extends F>(field: K, value: V[K]): void;
	/** A failed save's answer told: the 400's fields, the notice. */
	failed(answer: { status: number; error: string }): SaveOutcome;
	/**
	 * A 409 naming fields someone else saved: the dialog opens with each of them against the
	 * draft's value (`restoring`, an earlier value being put back, goes into the draft first).
	 */
	showConflict(
		answer: { status: number; body: unknown },
		version: number,
		restoring?: Partial<V>,
	): boolean;
	/** PATCH of the record's changes made from `version`. */
	patch<S extends { version: number }>(
		deps: RecordDeps,
		id: string,
		body: { version: number; changes: Partial<V> },
		failure: string,
	): Promise<Answer<S>>;
	/**
	 * Saves the open record's changes from `version`: a conflict opens the dialog, a refusal is
	 * told, a save becomes the new baseline (what was typed meanwhile stays a change) and the
	 * record is read again with `savedText` as the notice.
	 */
	saveOpen(
		deps: RecordDeps,
		changes: Partial<V>,
		options: { version?: number; failure: string; savedText: string },
	): Promise<SaveOutcome>;
	/**
	 * The person's choice for one field of the conflict dialog. Once every field is decided the
	 * record is read again (their values in, the person's other changes kept) and, if they kept
	 * any of theirs, saved again (`save`, from the version the conflict was judged at); answers
	 * null while fields are left.
	 */
	resolveConflict(
		deps: RecordDeps,
		field: string,
		choice: 'mine' | 'theirs',
		options: {
			save(version: number): Promise<SaveOutcome>;
			/** The notice when only their values were taken; `unsaved`: changes left unsaved. */
			theirsText(unsaved: number): string;
		},
	): Promise<SaveOutcome | null>;
}

export function createRecordEditor<
	V extends object,
	D,
	F extends string & keyof V,
	N extends object = Record<never, never>,
>(config: EditorConfig<V, D, F>): RecordEditor<V, D, F, N> {
	const $editor = atom<EditorState<V, D, N>>({ kind: 'closed' });
	const $notice = atom<Notice>(null);
	const $serverIssues = atom<FieldIssue<F>[]>([]);
	const $saving = atom(false);
	const $conflict = atom<{ version: number; conflicts: RecordConflict<F>[] } | null>(null);
	let decided: { field: F; choice: 'mine' | 'theirs' }[] = [];

	const $changes = computed($editor, (editor): Partial<V> => {
		if (editor.kind === 'open')
			return config.changedFields(config.valuesOf(editor.detail), editor.draft);
		if (editor.kind === 'new') return config.changedFields(editor.blank, editor.draft);
		return {};
	});

	const resetMessages = () => {
		$notice.set(null);
		$serverIssues.set([]);
		$conflict.set(null);
		decided = [];
	};

	const fetchDetail = (deps: RecordDeps, id: string) =>
		recordApi<D>(deps, 'GET', config.path(id), undefined, config.loadFailure);

	const isField = (field: string): field is F =>
		(config.fields as readonly string[]).includes(field);

	const editor: RecordEditor<V, D, F, N> = {
		$editor,
		$notice,
		$serverIssues,
		$saving,
		$conflict,
		$changes,
		resetMessages,

		async whileSaving(write) {
			$saving.set(true);
			resetMessages();
			try {
				return await write();
			} finally {
				$saving.set(false);
			}
		},

		async open(deps, id) {
			resetMessages();
			$editor.set({ kind: 'loading', id });
			const answer = await fetchDetail(deps, id);
			const now = $editor.get();
			if (now.kind !== 'loading' || now.id !== id) return;
			$editor.set(
				answer.ok
					? {
							kind: 'open',
							detail: answer.data,
							draft: structuredClone(config.valuesOf(answer.data)),
						}
					: { kind: 'failed', id, error: answer.error },
			);
		},

		async reload(deps, drop = []) {
			const current = $editor.get();
			if (current.kind !== 'open') return false;
			const id = config.idOf(current.detail);
			const answer = await fetchDetail(deps, id);
			if (!answer.ok) {
				$notice.set({ kind: 'error', text: answer.error });
				return false;
			}
			const now = $editor.get();
			if (now.kind !== 'open' || config.idOf(now.detail) !== id) return false;
			const unsaved = config.changedFields(config.valuesOf(now.detail), now.draft);
			const draft = structuredClone(config.valuesOf(answer.data));
			for (const field of config.fields) {
				if (field in unsaved && !drop.includes(field)) draft[field] = unsaved[field] as V[F];
			}
			$editor.set({ kind: 'open', detail: answer.data, draft });
			return true;
		},

		startNew(blank, extra) {
			resetMessages();
			$editor.set({ kind: 'new', draft: structuredClone(blank), blank, ...extra });
		},

		close() {
			resetMessages();
			$editor.set({ kind: 'closed' });
		},

		edit(update) {
			const current = $editor.get();
			if (current.kind !== 'open' && current.kind !== 'new') return;
			const draft = structuredClone(current.draft);
			update(draft);
			$editor.set({ ...current, draft });
		},

		setField(field, value) {
			editor.edit((draft) => {
				draft[field] = value;
			});
		},

		failed(answer) {
			if (answer.status === 400) {
				$serverIssues.set(config.serverIssues(answer.error).filter((i) => i.field));
			}
			$notice.set({ kind: 'error', text: answer.error });
			return answer.status === 400 ? 'invalid' : 'failed';
		},

		showConflict(answer, version, restoring = {}) {
			if (answer.status !== 409 || $editor.get().kind !== 'open') return false;
			const parsed = conflictAnswerSchema.safeParse(answer.body);
			const fields = parsed.success ? parsed.data.conflicts.filter((c) => isField(c.field)) : [];
			if (!parsed.success || !fields.length) return false;
			editor.edit((draft) => Object.assign(draft, restoring));
			const draft = ($editor.get() as { draft: V }).draft;
			decided = [];
			$conflict.set({
				version: parsed.data.version ?? version,
				conflicts: fields.map((c) => {
					const field = c.field as F;
					return { ...c, field, mine: draft[field] };
				}),
			});
			return true;
		},

		patch(deps, id, body, failure) {
			return recordApi(deps, 'PATCH', config.path(id), body, failure);
		},

		async saveOpen(deps, changes, options) {
			const current = $editor.get();
			if (current.kind !== 'open') return 'failed';
			const id = config.idOf(current.detail);
			const version = options.version ?? config.versionOf(current.detail);
			const answer = await editor.patch<{ version: number }>(
				deps,
				id,
				{ version, changes },
				options.failure,
			);
			if (!answer.ok) {
				if (editor.showConflict(answer, version)) return 'conflict';
				return editor.failed(answer);
			}
			// What was saved is the new baseline; anything typed meanwhile stays a change.
			const now = $editor.get();
			if (now.kind === 'open' && config.idOf(now.detail) === id) {
				$editor.set({ ...now, detail: config.withSaved(now.detail, answer.data.version, changes) });
			}
			await editor.reload(deps);
			$notice.set({ kind: 'success', text: options.savedText });
			return 'saved';
		},

		async resolveConflict(deps, field, choice, options) {
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
			if (!(await editor.reload(deps, theirs))) return 'failed';
			if (choices.some((c) => c.choice === 'mine')) return options.save(conflict.version);
			$notice.set({
				kind: 'success',
				text: options.theirsText(Object.keys($changes.get()).length),
			});
			return 'unchanged';
		},
	};
	return editor;
}
