import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useState, type ComponentType, type SubmitEvent } from 'react';
import type { AdminTabProps } from '../admin/admin.ts';
import { SelectField } from '../admin/fields.tsx';
import '../ui/ui.css';
import MemberEditor, { formatWhen } from './MemberEditor.tsx';
import { mapTiles, type MapTiles } from '../geo/tiles.ts';
import {
	actorLabel,
	MEMBER_STATUSES,
	mayManageMembers,
	PAGE_SIZES,
	STATUS_LABELS,
	type MemberStatus,
} from './members.ts';
import {
	$editor,
	$filters,
	closeMember,
	DEFAULT_FILTERS,
	hasUnsavedMemberChanges,
	LEAVE_LISTING_QUESTION,
	list,
	loadList,
	newMember,
	openMember,
	type ListFilters,
	type MembersDeps,
} from './store.ts';
import './members.css';
import PagedList from '../versioned/PagedList.tsx';

export interface MembersTabProps extends AdminTabProps {
	/**
	 * The import's view (CSV, XLSX or a tenant file, with its dry run), shown under 'Import
	 * members'; and the membership system's sync beside it. Left out, the button is not offered.
	 */
	ImportPanel?: ComponentType<AdminTabProps>;
	SyncPanel?: ComponentType<AdminTabProps>;
	/** The deployment's map tiles; a chamber's own (services.mapTileUrl) win. */
	tiles?: MapTiles;
}

/** The chamber's levels and categories, as offered in the filters (published businesses'). */
function useOptions(props: AdminTabProps) {
	const [options, setOptions] = useState<{ levels: string[]; categories: string[] }>({
		levels: [],
		categories: [],
	});
	const { client, chamber } = props;
	useEffect(() => {
		let live = true;
		void Promise.all([
			client.rpc('get_membership_levels', { p_tenant_id: chamber.id }),
			client.rpc('list_categories', { p_tenant_id: chamber.id }),
		]).then(([levels, categories]) => {
			if (!live) return;
			const names = (rows: unknown, key: string) =>
				Array.isArray(rows)
					? rows
							.map((row) => (typeof row === 'string' ? row : (row as Record<string, unknown>)[key]))
							.filter((v): v is string => typeof v === 'string' && v !== '')
					: [];
			setOptions({
				levels: names(levels.data, 'name'),
				categories: names(categories.data, 'name'),
			});
		});
		return () => {
			live = false;
		};
	}, [client, chamber.id]);
	return options;
}

const STATUS_OPTIONS: { value: MemberStatus | ''; label: string }[] = [
	{ value: '', label: 'All' },
	...MEMBER_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
];

/** A filter's text input offering the chamber's own values as the person types. */
function SuggestingInput({
	label,
	value,
	suggestions,
	onChange,
}: {
	label: string;
	value: string;
	suggestions: readonly string[];
	onChange(value: string): void;
}) {
	const id = useId();
	return (
		<div className="admin-field">
			<label htmlFor={id}>{label}</label>
			<input
				id={id}
				list={`${id}-suggestions`}
				value={value}
				maxLength={200}
				onChange={(e) => onChange(e.target.value)}
			/>
			<datalist id={`${id}-suggestions`}>
				{suggestions.map((suggestion) => (
					<option key={suggestion} value={suggestion} />
				))}
			</datalist>
		</div>
	);
}

function Filters({
	deps,
	options,
}: {
	deps: MembersDeps;
	options: { levels: string[]; categories: string[] };
}) {
	// What the person types; the list follows on Search (the store keeps the page's filters).
	const [form, setForm] = useState<ListFilters>(() => $filters.get());
	const id = useId();
	const submit = (event: SubmitEvent) => {
		event.preventDefault();
		void loadList(deps, { ...form, page: 1, pageSize: $filters.get().pageSize });
	};
	const set = (patch: Partial<ListFilters>) => setForm((f) => ({ ...f, ...patch }));
	return (
		<form className="members-filters" role="search" aria-label="Find members" onSubmit={submit}>
			<div className="admin-field">
				<label htmlFor={`${id}-q`}>Name</label>
				<input
					id={`${id}-q`}
					type="search"
					value={form.q}
					maxLength={200}
					onChange={(e) => set({ q: e.target.value })}
				/>
			</div>
			<SelectField
				label="Status"
				value={form.status}
				options={STATUS_OPTIONS}
				onChange={(status) => set({ status })}
			/>
			<SuggestingInput
				label="Level"
				value={form.level}
				suggestions={options.levels}
				onChange={(level) => set({ level })}
			/>
			<SuggestingInput
				label="Category"
				value={form.category}
				suggestions={options.categories}
				onChange={(category) => set({ category })}
			/>
			<div className="members-filters__actions">
				<button type="submit" className="admin-button">
					Search
				</button>
				<button
					type="button"
					className="admin-button admin-button--secondary"
					onClick={() => {
						const cleared = { ...DEFAULT_FILTERS, pageSize: $filters.get().pageSize };
						setForm(cleared);
						void loadList(deps, cleared);
					}}
				>
					Clear
				</button>
			</div>
		</form>
	);
}

function MemberList({ deps, onOpen }: { deps: MembersDeps; onOpen(id: string): void }) {
	return (
		<PagedList
			store={list}
			deps={deps}
			rows={(result) => result.businesses.length}
			total={(result) => result.total}
			nouns={['member', 'members']}
			pageSizes={PAGE_SIZES}
			loadingText="Loading the members..."
			emptyText="No member matches."
			pagesLabel="Member pages"
			caption="Members"
			head={
				<tr>
					<th scope="col">Name</th>
					<th scope="col">Level</th>
					<th scope="col">Categories</th>
					<th scope="col">City</th>
					<th scope="col">Status</th>
					<th scope="col">Last change</th>
				</tr>
			}
		>
			{(result) =>
				result.businesses.map((b) => (
					<tr key={b.id}>
						<th scope="row">
							<button type="button" className="members-link" onClick={() => onOpen(b.id)}>
								{b.name}
							</button>
						</th>
						<td>{b.level}</td>
						<td>{b.categories.join(', ')}</td>
						<td>{b.city}</td>
						<td>
							<span className={`members-status members-status--${b.status}`}>
								{STATUS_LABELS[b.status]}
							</span>
						</td>
						<td>
							{actorLabel(b.updatedBy)}
							<br />
							<small>{formatWhen(b.updatedAt)}</small>
						</td>
					</tr>
				))
			}
		</PagedList>
	);
}

/**
 * The Members tab: every listing of the chamber (paged, searched and filtered on the server),
 * 'Add member', a listing's editor, and the import's view. Its own Save: listings are saved one
 * at a time, each with the version it was opened at.
 */
export default function MembersTab(props: MembersTabProps) {
	const { user, chamber, getAccessToken, ImportPanel, SyncPanel } = props;
	const deps = useMemo<MembersDeps>(
		() => ({ chamber: chamber.key, getAccessToken }),
		[chamber.key, getAccessToken],
	);
	const editor = useStore($editor);
	const [view, setView] = useState<'list' | 'import'>('list');
	const options = useOptions(props);
	const admin = mayManageMembers(user.role);

	useEffect(() => {
		if ($editor.get().kind === 'closed') void loadList(deps);
	}, [deps]);

	const leaveListing = () => {
		if (hasUnsavedMemberChanges() && !window.confirm(LEAVE_LISTING_QUESTION)) return;
		closeMember();
		void loadList(deps);
	};

	if (editor.kind !== 'closed') {
		return (
			<MemberEditor
				deps={deps}
				role={user.role}
				onClose={leaveListing}
				tiles={
					props.config.services.mapTileUrl || !props.tiles
						? mapTiles(props.config, {})
						: props.tiles
				}
			/>
		);
	}
	if (view === 'import' && ImportPanel) {
		return (
			<div className="members-import">
				<button
					type="button"
					className="admin-button admin-button--secondary"
					onClick={() => {
						setView('list');
						void loadList(deps);
					}}
				>
					Back to members
				</button>
				<ImportPanel {...props} />
				{SyncPanel && <SyncPanel {...props} />}
			</div>
		);
	}
	return (
		<div className="members-tab">
			<div className="ops-toolbar">
				{admin && (
					<button type="button" className="admin-button" onClick={newMember}>
						Add member
					</button>
				)}
				{admin && ImportPanel && (
					<button
						type="button"
						className="admin-button admin-button--secondary"
						onClick={() => setView('import')}
					>
						Import members
					</button>
				)}
			</div>
			<Filters deps={deps} options={options} />
			<MemberList deps={deps} onOpen={(id) => void openMember(deps, id)} />
		</div>
	);
}
