import { atom, type WritableAtom } from 'nanostores';
import { recordApi, type RecordDeps } from './api.ts';

// A staff tab's server-paged list (the Members and Events tabs): its filters and page, the page
// loaded, and the one before it kept while the next one loads. Part of the versioned-record kit.

export interface PagedFilters {
	page: number;
	pageSize: number;
}

type ListState<R> =
	| { kind: 'loading'; previous: R | null }
	| { kind: 'failed'; error: string }
	| { kind: 'ready'; result: R };

export interface ListStore<F extends PagedFilters, R> {
	$filters: WritableAtom<F>;
	$list: WritableAtom<ListState<R>>;
	/** Loads the page the filters name; an answer that arrives after a newer request is dropped. */
	loadList(deps: RecordDeps, filters?: F): Promise<void>;
}

export function createListStore<F extends PagedFilters, R>(options: {
	defaults: F;
	/** The list's address for the filters. */
	path(filters: F): string;
	failure: string;
}): ListStore<F, R> {
	const $filters = atom<F>(options.defaults);
	const $list = atom<ListState<R>>({ kind: 'loading', previous: null });
	let request = 0;
	return {
		$filters,
		$list,
		async loadList(deps, filters = $filters.get()) {
			$filters.set(filters);
			const mine = ++request;
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
			const answer = await recordApi<R>(
				deps,
				'GET',
				options.path(filters),
				undefined,
				options.failure,
			);
			if (mine !== request) return;
			$list.set(
				answer.ok
					? { kind: 'ready', result: answer.data }
					: { kind: 'failed', error: answer.error },
			);
		},
	};
}

/** The query of a list's address: the filters that are set, then the page and its size. */
export function listQuery(filters: PagedFilters & Record<string, unknown>): URLSearchParams {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(filters)) {
		if (key === 'page' || key === 'pageSize') continue;
		if (typeof value === 'string' && value.trim()) params.set(key, value.trim());
	}
	params.set('page', String(filters.page));
	params.set('pageSize', String(filters.pageSize));
	return params;
}
