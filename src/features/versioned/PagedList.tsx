import { useStore } from '@nanostores/react';
import { useId, type ReactNode } from 'react';
import ErrorBanner from '../admin/ErrorBanner.tsx';
import type { ListStore, PagedFilters } from './list-store.ts';
import type { RecordDeps } from './api.ts';

/**
 * A staff tab's server-paged list (the Members and Events tabs): how many match (read out as it
 * changes), the page's table under a caption, what is shown while nothing matches, and the
 * pager with the page size. The tab gives its columns and rows. Part of the versioned-record kit.
 */
export default function PagedList<F extends PagedFilters, R>({
	store,
	deps,
	rows,
	total,
	nouns,
	pageSizes,
	loadingText,
	emptyText,
	pagesLabel,
	caption,
	notes,
	head,
	children,
}: {
	store: ListStore<F, R>;
	deps: RecordDeps;
	/** How many rows the page has. */
	rows(result: R): number;
	/** How many match, on every page. */
	total(result: R): number;
	/** 'member', 'members'. */
	nouns: [string, string];
	pageSizes: readonly number[];
	loadingText: string;
	emptyText: string;
	/** The pager's name: 'Member pages'. */
	pagesLabel: string;
	/** The table's caption, before ', page 1 of 3'. */
	caption: string;
	/** What the answer says besides its rows (a source that failed). */
	notes?(result: R): ReactNode;
	head: ReactNode;
	children(result: R): ReactNode;
}) {
	const list = useStore(store.$list);
	const filters = useStore(store.$filters);
	const captionId = useId();
	const pageSizeId = useId();
	const result =
		list.kind === 'ready' ? list.result : list.kind === 'loading' ? list.previous : null;
	const count = result ? total(result) : 0;
	const pages = result ? Math.max(1, Math.ceil(count / filters.pageSize)) : 1;
	const go = (page: number) => void store.loadList(deps, { ...filters, page });
	return (
		<div className="members-list" aria-busy={list.kind === 'loading'}>
			<div role="status" aria-live="polite" className="members-list__count">
				{list.kind === 'loading' && !result && loadingText}
				{result && `${count.toLocaleString('en-US')} ${count === 1 ? nouns[0] : nouns[1]}`}
			</div>
			{list.kind === 'failed' && <ErrorBanner error={list.error} />}
			{result && notes?.(result)}
			{result && rows(result) > 0 && (
				<div className="ops-table-wrap">
					<table className="ops-table" aria-labelledby={captionId}>
						<caption id={captionId} className="sr-only">
							{caption}, page {filters.page} of {pages}
						</caption>
						<thead>{head}</thead>
						<tbody>{children(result)}</tbody>
					</table>
				</div>
			)}
			{result && rows(result) === 0 && <p>{emptyText}</p>}
			{result && (
				<nav className="members-pager" aria-label={pagesLabel}>
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={filters.page <= 1}
						onClick={() => go(filters.page - 1)}
					>
						Previous page
					</button>
					<span>
						Page {filters.page} of {pages}
					</span>
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={filters.page >= pages}
						onClick={() => go(filters.page + 1)}
					>
						Next page
					</button>
					<label htmlFor={pageSizeId}>Per page</label>
					<select
						id={pageSizeId}
						value={filters.pageSize}
						onChange={(e) =>
							void store.loadList(deps, { ...filters, page: 1, pageSize: Number(e.target.value) })
						}
					>
						{pageSizes.map((size) => (
							<option key={size} value={size}>
								{size}
							</option>
						))}
					</select>
				</nav>
			)}
		</div>
	);
}
