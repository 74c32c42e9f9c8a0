import { useStore } from '@nanostores/react';
import {
	useEffect,
	useRef,
	useState,
	type SubmitEvent,
	type MouseEvent,
	type ReactNode,
} from 'react';
import { paginationModel, type SortValue } from '../directory/rules.ts';
import { BusinessCard, BusinessCardSkeleton } from '../business/BusinessCard.tsx';
import type { CardSettings } from '../business/business.ts';
import {
	byDistance,
	EMPTY_FILTERS,
	FILTER_LABELS,
	FILTER_OPTION_TYPES,
	locationsApiUrl,
	searchUrl,
	type PanelFilter,
	type SearchState,
	type SortOption,
} from './search.ts';
import { RADIUS_CHOICES, unitWords, type DistanceUnit } from '../geo/rules.ts';
import type { MapMessage, MapView } from './map/directory-map.ts';
import type { Located } from '../geo/near-me.ts';
import { createSearchStore, type ResultsPage, type SearchStore } from './store.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import './SearchDirectory.css';

export interface SearchDirectoryProps {
	/** content.directoryTitle */
	title: string;
	categories: string[];
	/** The filters of the 'More Filters' panel; empty when searchPage.showFilters is false. */
	filters: PanelFilter[];
	/** The 'Sort by' options; empty when searchPage.showSortDropdown is false. */
	sorts: SortOption[];
	defaultSort: SortValue;
	availableSorts: SortValue[];
	showNewMembersFilter: boolean;
	settings: CardSettings;
	/**
	 * The default listing's first page as counts only: its cards arrive as `children`, static
	 * HTML rendered at build time that React shows as it is and never hydrates.
	 */
	initialPage: ResultsPage;
	pageSize: number;
	/** Miles or km: the chamber's country's. */
	unit: DistanceUnit;
	/** features.showMap: the List | Map switch. */
	showMap: boolean;
	/** features.showNearMe: the Near me button. */
	showNearMe: boolean;
	/** Where the map's tiles come from, with their attribution. */
	tiles: MapView['tiles'];
	/**
	 * The map's module (src/features/search/map/directory-map.ts built on its own): imported when
	 * the map is first shown, never with the list.
	 */
	mapScript: string;
	/** 'Near me''s module (src/features/geo/near-me.ts built on its own), imported on the press. */
	nearScript: string;
	/** The cards of `initialPage`, pre-rendered. */
	children?: ReactNode;
}

type FilterOption = { name: string; count: number };

/**
 * Set on <html> by search.astro's inline script, before the first paint, when the address asks
 * for results other than the pre-rendered default listing: the CSS then shows skeletons instead
 * of those cards until the island has the address's own results.
 */
const EARLY_ATTRIBUTE = 'data-search-early';

const skeletons = Array.from({ length: 6 }, (_, i) => <BusinessCardSkeleton key={i} />);

const countText = (total: number) => `${total} ${total === 1 ? 'business' : 'businesses'} found`;

/** Options of the enabled panel filters, each fetched once, when the panel first opens. */
function useFilterOptions(filters: PanelFilter[], open: boolean) {
	const [options, setOptions] = useState<Partial<Record<PanelFilter, FilterOption[]>>>({});
	const requested = useRef(false);
	useEffect(() => {
		if (!open || requested.current) return;
		requested.current = true;
		for (const filter of filters) {
			const type = FILTER_OPTION_TYPES[filter];
			fetch(`/api/filter-options?type=${type}`)
				.then(async (response) => {
					if (!response.ok) throw new Error(`Failed to fetch ${type}: ${response.status}`);
					const list = (await response.json()) as FilterOption[];
					setOptions((current) => ({ ...current, [filter]: list }));
				})
				.catch((error: unknown) => console.error(error));
		}
	}, [filters, open]);
	return options;
}

function isPlainClick(event: MouseEvent): boolean {
	return !(event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);
}

function Pagination(props: {
	page: number;
	totalPages: number;
	hrefFor: (page: number) => string;
	onSelect: (page: number) => void;
}) {
	const { page, totalPages, hrefFor, onSelect } = props;
	if (totalPages <= 1) return null;
	const link = (target: number, label: string, text: string, current = false) => (
		<a
			className="search__page"
			href={hrefFor(target)}
			aria-label={label}
			aria-current={current ? 'page' : undefined}
			onClick={(event) => {
				if (!isPlainClick(event)) return;
				event.preventDefault();
				onSelect(target);
			}}
		>
			{text}
		</a>
	);
	return (
		<nav className="search__pagination" aria-label="Pagination">
			<ul>
				<li>
					{page > 1 ? (
						link(page - 1, 'Previous page', '‹ Previous')
					) : (
						<span className="search__page search__page--off">‹ Previous</span>
					)}
				</li>
				{paginationModel(page, totalPages).map((item, index) =>
					item === 'ellipsis' ? (
						<li key={`gap-${index}`} className="search__gap">
							…
						</li>
					) : (
						<li key={item}>{link(item, `Page ${item}`, String(item), item === page)}</li>
					),
				)}
				<li>
					{page < totalPages ? (
						link(page + 1, 'Next page', 'Next ›')
					) : (
						<span className="search__page search__page--off">Next ›</span>
					)}
				</li>
			</ul>
		</nav>
	);
}

function ErrorScreen({ message }: { message: string }) {
	return (
		<section className="search__error" aria-labelledby="search-error-title">
			<h2 id="search-error-title">Unable to Load Business Directory</h2>
			<p>{message}</p>
			<p>
				This might be due to a temporary issue or a recent update. Please refresh the page to try
				again.
			</p>
			<button type="button" className="search__button" onClick={() => window.location.reload()}>
				Refresh Page
			</button>
		</section>
	);
}

/**
 * The map view: the map's own file, imported when the map is first shown, draws in here, told by
 * the `search:map` event what to show.
 */
function MapHost({ script, ...view }: MapView & { script: string }) {
	const host = useRef<HTMLElement>(null);
	const send = (detail: MapMessage) =>
		import(/* @vite-ignore */ script).then(() =>
			document.dispatchEvent(new CustomEvent('search:map', { detail })),
		);
	// Each render's view, then (once) none: in this order even while the file is still coming.
	useEffect(() => void send({ host: host.current!, view }));
	useEffect(() => {
		const element = host.current!;
		return () => void send({ host: element, view: null });
		// Once: the map goes when the view does.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, []);
	return <section ref={host} className="search-map" aria-label="Map" />;
}

function Chips({ state, store }: { state: SearchState; store: SearchStore }) {
	const chips = (['category', ...Object.keys(FILTER_LABELS)] as ('category' | PanelFilter)[])
		.filter((key) => state[key])
		.map((key) => {
			const name = key === 'category' ? 'Category' : FILTER_LABELS[key].chip;
			return [key, `${name}: ${state[key]}`, `Remove ${name} filter ${state[key]}`];
		});
	// A search by distance ends with its chip's ×: near the visitor, or in a map's area.
	if (state.near) chips.push(['near', 'Near you', 'Stop searching near you']);
	if (state.area) chips.push(['area', 'In the map’s area', 'Stop searching in the map’s area']);
	if (chips.length === 0) return null;
	return (
		<ul className="search__chips" aria-label="Active filters">
			{chips.map(([key, text, label]) => (
				<li key={key} className="search__chip">
					<span>{text}</span>
					<button
						type="button"
						aria-label={label}
						onClick={() => (key === 'near' ? store.setNear(null) : store.update({ [key!]: '' }))}
					>
						×
					</button>
				</li>
			))}
		</ul>
	);
}

/*
 * The directory's parts below are functions of its render, given what they show as arguments,
 * rather than components with props: the search page's script budget has no room for the props'
 * names a component would carry.
 */

/**
 * The island's start: connects the store to the address, taking over text typed or a category
 * chosen before the island ran, then lifts the pre-rendered listing's skeletons. The box edits a
 * draft (`setDraft`); a new query from elsewhere (back/forward) replaces it.
 */
function useIsland(store: SearchStore, state: SearchState, ready: boolean) {
	const [draft, setDraft] = useState({ for: state.q, text: state.q });
	if (draft.for !== state.q) setDraft({ for: state.q, text: state.q });
	const queryField = useRef<HTMLInputElement>(null);
	const categoryField = useRef<HTMLSelectElement>(null);
	useEffect(() => {
		// Text typed or a category chosen before the island ran is in the fields, not in the state
		// (hydration keeps what the visitor did): read it before the next render resets the fields.
		const typed = queryField.current?.value ?? '';
		const chosen = categoryField.current?.value ?? '';
		const disconnect = store.connect();
		const state = store.$state.get();
		if (typed && typed !== state.q) setDraft({ for: state.q, text: typed });
		if (chosen && chosen !== state.category) store.update({ category: chosen });
		return disconnect;
	}, [store]);
	// search.astro's inline check hid the pre-rendered cards for an address with other results;
	// once the island shows that address's own state, it takes over.
	useEffect(() => {
		if (ready) document.documentElement.removeAttribute(EARLY_ATTRIBUTE);
	}, [ready]);
	return [draft.text, setDraft, queryField, categoryField] as const;
}

/**
 * Near me: asks the browser for the position only when the visitor presses the button; near-me.ts
 * rounds it before the store (and so the request) ever sees it. Whether it is locating, its
 * sentence (shown while the search is, true, or is not, false, near the visitor: what becomes of
 * the position, or why the list stays as it was), and the button's action.
 */
function useNearMe(store: SearchStore, state: SearchState, script: string) {
	const [locating, setLocating] = useState(false);
	const [note, setNote] = useState<[boolean, string]>([false, '']);
	const nearMe = () => {
		setNote([false, '']);
		if (state.near) return store.setNear(null);
		setLocating(true);
		import(/* @vite-ignore */ script)
			.then(
				() =>
					new Promise<Located>((answer) =>
						document.dispatchEvent(new CustomEvent('search:locate', { detail: answer })),
					),
			)
			.then(
				({ position, note }) => {
					setNote([!!position, note]);
					if (position) store.setNear(position);
				},
				() => setNote([false, 'Near me could not start.']),
			)
			.finally(() => setLocating(false));
	};
	return [locating, note, nearMe] as const;
}

/**
 * The search box, the category and the Near me and More Filters buttons: a plain GET form before
 * the island runs (a search then loads /search?q=…), which the island takes over. The other
 * controls act on change, which only the island can do: they stay disabled until it runs, so no
 * choice is silently lost.
 */
function searchBar(
	props: SearchDirectoryProps,
	store: SearchStore,
	state: SearchState,
	ready: boolean,
	panelOpen: boolean,
	[text, setDraft, queryField, categoryField]: ReturnType<typeof useIsland>,
	[locating, , nearMe]: ReturnType<typeof useNearMe>,
) {
	const { categories } = props;
	// Read from the form, not the state: text typed or a category chosen before the island ran is
	// in the fields but not in the state.
	const submit = (event: SubmitEvent<HTMLFormElement>) => {
		event.preventDefault();
		const form = new FormData(event.currentTarget);
		const field = (name: string) => String(form.get(name) ?? '').trim();
		setDraft({ for: state.q, text: field('q') });
		store.update({ q: field('q'), category: field('category') });
	};
	return (
		<form className="search__bar" role="search" action="/search" method="get" onSubmit={submit}>
			<label className="search__hidden" htmlFor="search-q">
				Search businesses
			</label>
			<input
				id="search-q"
				ref={queryField}
				name="q"
				type="search"
				className="search__input"
				placeholder="Search for business name or keywords..."
				value={text}
				onChange={(event) => setDraft({ for: state.q, text: event.target.value })}
			/>
			<label className="search__hidden" htmlFor="search-category">
				Category
			</label>
			<select
				id="search-category"
				ref={categoryField}
				name="category"
				className="search__select"
				value={state.category}
				onChange={(event) => store.update({ category: event.target.value })}
			>
				<option value="">All Categories</option>
				{state.category && !categories.includes(state.category) && (
					<option value={state.category}>{state.category}</option>
				)}
				{categories.map((name) => (
					<option key={name} value={name}>
						{name}
					</option>
				))}
			</select>
			<button type="submit" className="search__button">
				Search
			</button>
			{props.showNearMe && (
				<button
					type="button"
					className="search__toggle"
					disabled={!ready || locating}
					aria-pressed={state.near !== null}
					onClick={nearMe}
				>
					{locating ? 'Finding you…' : 'Near me'}
				</button>
			)}
			{props.filters.length > 0 && (
				<button
					type="button"
					className="search__toggle"
					disabled={!ready}
					aria-expanded={panelOpen}
					aria-controls="search-filters"
					onClick={store.toggleFilters}
				>
					{panelOpen ? 'Hide Filters' : 'More Filters'}
				</button>
			)}
		</form>
	);
}

/** The More Filters panel: a list per enabled filter, its options fetched when it first opens. */
function filterPanel(
	filters: PanelFilter[],
	store: SearchStore,
	state: SearchState,
	panelOpen: boolean,
	options: ReturnType<typeof useFilterOptions>,
) {
	return (
		<div id="search-filters" className="search__filters" hidden={!panelOpen}>
			{filters.map((filter) => {
				const list = options[filter] ?? [];
				const value = state[filter];
				return (
					<div key={filter} className="search__filter">
						<label htmlFor={`search-${filter}`}>{FILTER_LABELS[filter].label}</label>
						<select
							id={`search-${filter}`}
							className="search__select"
							value={value}
							onChange={(event) => store.update({ [filter]: event.target.value })}
						>
							<option value="">{FILTER_LABELS[filter].all}</option>
							{value && !list.some((o) => o.name === value) && (
								<option value={value}>{value}</option>
							)}
							{list.map((option) => (
								<option key={option.name} value={option.name}>
									{filter === 'affiliation' ? `${option.name} (${option.count})` : option.name}
								</option>
							))}
						</select>
					</div>
				);
			})}
		</div>
	);
}

/** What the results are ordered and shown by: new members, the radius, the sort, list or map. */
function resultOptions(
	props: SearchDirectoryProps,
	store: SearchStore,
	state: SearchState,
	ready: boolean,
) {
	const { sorts } = props;
	return (
		<div className="search__options">
			{props.showNewMembersFilter && (
				<label className="search__check">
					<input
						type="checkbox"
						disabled={!ready}
						checked={state.newMembers}
						onChange={(event) => store.update({ newMembers: event.target.checked })}
					/>
					New Members Only
				</label>
			)}
			{state.near && (
				<div className="search__sort">
					<label htmlFor="search-radius">Within</label>
					<select
						id="search-radius"
						className="search__select"
						value={state.radius}
						onChange={(event) => store.setNear(state.near, Number(event.target.value))}
					>
						{RADIUS_CHOICES.map((radius) => (
							<option key={radius} value={radius}>
								{radius} {unitWords(props.unit, radius)}
							</option>
						))}
					</select>
				</div>
			)}
			{byDistance(state) ? (
				<span>Nearest first</span>
			) : (
				sorts.length > 0 && (
					<div className="search__sort">
						<label htmlFor="search-sort">Sort by</label>
						<select
							id="search-sort"
							className="search__select"
							disabled={!ready}
							value={state.sort}
							onChange={(event) => store.update({ sort: event.target.value as SortValue })}
						>
							{sorts.map((sort) => (
								<option key={sort.value} value={sort.value}>
									{sort.label}
								</option>
							))}
						</select>
					</div>
				)
			)}
			{props.showMap && (
				<div className="search__views" role="group" aria-label="Show the results as">
					{(['list', 'map'] as const).map((view) => (
						<button
							key={view}
							type="button"
							className="search__view"
							disabled={!ready}
							aria-pressed={state.view === view}
							onClick={() => store.setView(view)}
						>
							{view === 'list' ? 'List' : 'Map'}
						</button>
					))}
				</div>
			)}
		</div>
	);
}

/**
 * The cards: skeletons while loading, the pre-rendered first page as it came (skeletons over it
 * while the address asks for other results), none found, or the page fetched.
 */
function resultCards(
	props: SearchDirectoryProps,
	state: SearchState,
	ready: boolean,
	page: ResultsPage | null,
	loading: boolean,
) {
	return loading || !page ? (
		<div className="search__grid" aria-busy="true">
			{skeletons}
		</div>
	) : page.prerendered ? (
		<>
			<div className="search__grid search__grid--static">{props.children}</div>
			{!ready && (
				<div className="search__grid search__grid--early" aria-busy="true">
					{skeletons}
				</div>
			)}
		</>
	) : page.businesses.length === 0 ? (
		<div className="search__empty">
			<p className="search__empty-title">No businesses found</p>
			<p>Try a different search term, or remove a filter.</p>
		</div>
	) : (
		<div className="search__grid">
			{page.businesses.map((business) => (
				<BusinessCard
					key={business.id}
					business={business}
					settings={props.settings}
					category={state.category || undefined}
					distanceUnit={page.distanceUnit}
				/>
			))}
		</div>
	);
}

/**
 * The business directory (/search): search box, category and optional filters, chips, sort,
 * results and pagination. The first page of the default listing arrives pre-rendered; any
 * other state in the address bar is fetched from GET /api/businesses.
 */
function SearchDirectory(props: SearchDirectoryProps) {
	const { title, filters, defaultSort } = props;
	const [store] = useState(() =>
		createSearchStore({
			initialState: { ...EMPTY_FILTERS, sort: defaultSort },
			initialPage: props.initialPage,
			defaultSort,
			availableSorts: props.availableSorts,
			panelFilters: filters,
			pageSize: props.pageSize,
		}),
	);
	const state = useStore(store.$state);
	const results = useStore(store.$results);
	const panelOpen = useStore(store.$filtersOpen);
	const ready = useStore(store.$ready);
	const options = useFilterOptions(filters, panelOpen);
	const box = useIsland(store, state, ready);
	const near = useNearMe(store, state, props.nearScript);
	const [, note] = near;
	const resultsHeading = useRef<HTMLHeadingElement>(null);

	const goToPage = (page: number) => {
		store.goToPage(page);
		window.scrollTo({ top: 0 });
		resultsHeading.current?.focus({ preventScroll: true });
	};

	const page = results.status === 'error' ? null : results.page;
	const loading = results.status === 'loading';

	return (
		<div className="search">
			<nav className="search__breadcrumb" aria-label="Breadcrumb">
				<ol>
					<li>
						<a href="/">Home</a>
					</li>
					{state.category ? (
						<>
							<li>
								<a href="/search">{title}</a>
							</li>
							<li aria-current="page">{state.category}</li>
						</>
					) : (
						<li aria-current="page">{title}</li>
					)}
				</ol>
			</nav>
			<h1 className="search__title">{state.category || title}</h1>

			{results.status === 'error' ? (
				<ErrorScreen message={results.message} />
			) : (
				<>
					<div className="search__controls">
						{searchBar(props, store, state, ready, panelOpen, box, near)}
						{filters.length > 0 && filterPanel(filters, store, state, panelOpen, options)}
						<div className="search__summary">
							<p className="search__count" role="status">
								{loading || !page ? (
									'Searching…'
								) : ready ? (
									countText(page.total)
								) : (
									<>
										<span className="search__count-static">{countText(page.total)}</span>
										<span className="search__count-early">Searching…</span>
									</>
								)}
							</p>
							<Chips state={state} store={store} />
							{resultOptions(props, store, state, ready)}
						</div>
						<p className="search__note" aria-live="polite">
							{note[0] === (state.near !== null) && note[1]}
						</p>
					</div>

					{state.view === 'map' && ready && (
						<MapHost
							script={props.mapScript}
							url={locationsApiUrl(state)}
							near={state.near}
							tiles={props.tiles}
							category={state.category}
							onSearchArea={(area) => store.update({ area, near: null })}
						/>
					)}

					<h2 className="search__hidden" tabIndex={-1} ref={resultsHeading}>
						Results
					</h2>
					{resultCards(props, state, ready, page, loading)}

					{page && !loading && (
						<Pagination
							page={state.page}
							totalPages={page.totalPages}
							hrefFor={(target) => searchUrl({ ...state, page: target }, defaultSort)}
							onSelect={goToPage}
						/>
					)}
				</>
			)}
		</div>
	);
}

export default withErrorBoundary('SearchDirectory', SearchDirectory);
