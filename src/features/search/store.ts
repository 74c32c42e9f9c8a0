import { atom } from 'nanostores';
import type { SortValue } from '../directory/rules.ts';
import { toCardBusiness, type CardBusiness } from '../business/business.ts';
import type { Business } from '../directory/directory.ts';
import type { DistanceUnit } from '../geo/rules.ts';
import type { Position } from '../geo/position.ts';
import {
	businessesApiUrl,
	isRandomSort,
	parseSearchParams,
	sameSearch,
	searchUrl,
	sessionSeed,
	type PanelFilter,
	type SearchState,
} from './search.ts';

/** One page of results as the search page shows it. */
export interface ResultsPage {
	businesses: CardBusiness[];
	total: number;
	totalPages: number;
	/** The build rendered this page's cards (the island's children); `businesses` is empty. */
	prerendered?: boolean;
	/** A search by distance: the unit of each card's distance. */
	distanceUnit?: DistanceUnit;
}

export type Results =
	| { status: 'ready'; page: ResultsPage }
	| { status: 'loading'; page: ResultsPage | null }
	| { status: 'error'; message: string };

export interface SearchStoreOptions {
	/** The state the pre-rendered page shows (the default listing). */
	initialState: SearchState;
	/** Its first page, rendered at build time. */
	initialPage: ResultsPage;
	defaultSort: SortValue;
	availableSorts: readonly SortValue[];
	/** The filters of the 'More Filters' panel; the panel opens when the URL sets one. */
	panelFilters: readonly PanelFilter[];
	pageSize: number;
	/** 3 retries, 1 second apart. */
	retries?: number;
	retryDelayMs?: number;
	/** Results stay fresh for 5 minutes. */
	freshMs?: number;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchPage(url: string, signal: AbortSignal): Promise<ResultsPage> {
	const response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
	const body = (await response.json().catch(() => null)) as {
		businesses?: Business[];
		total?: number;
		totalPages?: number;
		distanceUnit?: DistanceUnit;
		error?: string;
	} | null;
	if (!response.ok || !body || !Array.isArray(body.businesses)) {
		throw new Error(body?.error || `Failed to fetch businesses: ${response.status}`);
	}
	return {
		businesses: body.businesses.map(toCardBusiness),
		total: Number(body.total) || 0,
		totalPages: Number(body.totalPages) || 0,
		...(body.distanceUnit && { distanceUnit: body.distanceUnit }),
	};
}

/**
 * The search page's state (nanostores) kept in step with the address bar: user changes push a
 * history entry, back/forward restore the state, and every state change loads its page of
 * results (cached, retried, stale answers dropped).
 */
export function createSearchStore(options: SearchStoreOptions) {
	const { defaultSort, pageSize, retries = 3, retryDelayMs = 1000, freshMs = 300_000 } = options;
	const $state = atom<SearchState>(options.initialState);
	const $results = atom<Results>({ status: 'ready', page: options.initialPage });
	const $filtersOpen = atom(false);
	/** False until connect(): the pre-rendered controls wait for the island. */
	const $ready = atom(false);
	const cache = new Map<string, { at: number; page: ResultsPage }>();
	let controller: AbortController | undefined;
	let seed: number | undefined;
	if (!isRandomSort(options.initialState.sort)) {
		const url = businessesApiUrl(options.initialState, pageSize, 0);
		cache.set(url, { at: Date.now(), page: options.initialPage });
	}

	const randomSeed = () =>
		(seed ??= sessionSeed(typeof sessionStorage === 'undefined' ? undefined : sessionStorage));

	async function load(state: SearchState): Promise<void> {
		controller?.abort();
		const url = businessesApiUrl(state, pageSize, isRandomSort(state.sort) ? randomSeed() : 0);
		const cached = cache.get(url);
		if (cached && Date.now() - cached.at < freshMs) {
			$results.set({ status: 'ready', page: cached.page });
			return;
		}
		const current = $results.get();
		$results.set({ status: 'loading', page: current.status === 'error' ? null : current.page });
		const own = (controller = new AbortController());
		for (let attempt = 0; ; attempt++) {
			try {
				const page = await fetchPage(url, own.signal);
				cache.set(url, { at: Date.now(), page });
				if (!own.signal.aborted) $results.set({ status: 'ready', page });
				return;
			} catch (error) {
				if (own.signal.aborted) return;
				if (attempt >= retries) {
					const message = error instanceof Error ? error.message : String(error);
					$results.set({ status: 'error', message });
					return;
				}
				await wait(retryDelayMs);
				if (own.signal.aborted) return;
			}
		}
	}

	function show(next: SearchState, push: boolean): void {
		if (sameSearch(next, $state.get())) return;
		$state.set(next);
		if (push) window.history.pushState(null, '', searchUrl(next, defaultSort));
		void load(next);
	}

	// The visitor's position is not in the address: back and forward keep it as it is.
	const fromLocation = (): SearchState => {
		const { near, radius } = $state.get();
		return {
			...parseSearchParams(new URLSearchParams(window.location.search), {
				defaultSort,
				available: options.availableSorts,
			}),
			near,
			radius,
		};
	};

	return {
		$state,
		$results,
		$filtersOpen,
		$ready,
		toggleFilters(): void {
			$filtersOpen.set(!$filtersOpen.get());
		},
		/** A filter, query or sort change: back to page 1. */
		update(patch: Partial<Omit<SearchState, 'page'>>): void {
			show({ ...$state.get(), ...patch, page: 1 }, true);
		},
		goToPage(page: number): void {
			show({ ...$state.get(), page }, true);
		},
		/**
		 * 'Near me' (a position, rounded) or back to the listing (null): back to page 1, and no
		 * history entry, since the address does not change, unless a map's area gives way to it.
		 */
		setNear(near: Position | null, radius: number = $state.get().radius): void {
			const state = $state.get();
			const area = near ? '' : state.area;
			show({ ...state, near, radius, area, page: 1 }, area !== state.area);
		},
		/** The list or the map; the results stay as they are (the page's cached answer). */
		setView(view: SearchState['view']): void {
			show({ ...$state.get(), view }, true);
		},
		/**
		 * Reads the address bar once the island runs (the pre-rendered page is the default
		 * listing) and follows back/forward from then on. Returns the unsubscribe function.
		 */
		connect(): () => void {
			const initial = fromLocation();
			if (options.panelFilters.some((filter) => initial[filter])) $filtersOpen.set(true);
			// Random orders use the visitor's seed, so the build's first page cannot stand in.
			if (isRandomSort(initial.sort)) {
				$state.set(initial);
				void load(initial);
			} else show(initial, false);
			const onPopState = () => show(fromLocation(), false);
			window.addEventListener('popstate', onPopState);
			$ready.set(true);
			return () => {
				window.removeEventListener('popstate', onPopState);
				controller?.abort();
			};
		},
	};
}

export type SearchStore = ReturnType<typeof createSearchStore>;
