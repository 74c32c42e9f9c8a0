import type { SupabaseClient } from '../../../lib/database.ts';
import { useCallback, useEffect, useState } from 'react';
import { can } from '../../auth/auth.ts';
import { publishRequested } from '../../publish/store.ts';
import type { AdminTabProps } from '../admin.ts';
import { Section } from '../fields.tsx';
import { at, callApi, expiresIn } from '../../ui/api.ts';
import '../../ui/ui.css';
import {
	CACHE_DURATION_TEXT,
	CACHE_ERROR_MS,
	CACHE_HISTORY_SIZE,
	CACHE_LABELS,
	CACHE_REFRESH_FAILED,
	CACHE_SUCCESS_MS,
	purgeTypeLabel,
	type CachePurgeLogRow,
} from './cache.ts';
import { REFRESHABLE_CACHE_TYPES, type RefreshableCacheType } from '../../../lib/cache-versions.ts';
import { ColumnHeads } from '../../ui/ColumnHeads.tsx';

type Versions = Partial<Record<RefreshableCacheType, number>>;
type Message = { kind: 'success' | 'error'; text: string; until: number };
type History =
	{ kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; rows: CachePurgeLogRow[] };

/** The chamber's current versions of the four types (anyone may read cache_versions). */
async function readVersions(client: SupabaseClient, tenantId: string): Promise<Versions> {
	const { data } = await client
		.from('cache_versions')
		.select('type, version')
		.eq('tenant_id', tenantId);
	const versions: Versions = {};
	for (const row of data ?? []) {
		if ((REFRESHABLE_CACHE_TYPES as readonly string[]).includes(row.type)) {
			versions[row.type as RefreshableCacheType] = row.version;
		}
	}
	return versions;
}

/** The newest refreshes, with the user's token: RLS shows them to super_admins only. */
async function readHistory(client: SupabaseClient, tenantId: string): Promise<History> {
	const { data, error } = await client
		.from('cache_purge_log')
		.select('id, user_email, purge_type, created_at')
		.eq('tenant_id', tenantId)
		.order('created_at', { ascending: false })
		.order('id', { ascending: false })
		.limit(CACHE_HISTORY_SIZE);
	return error ? { kind: 'failed' } : { kind: 'ready', rows: data };
}

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The Cache tab: a card per resource with its current version and a refresh
 * button (all disabled while one refreshes), the outcome for 5 s (success) or 8 s (failure), and
 * for super_admins the last 15 refreshes, read with the user's token (RLS: super_admins only).
 */
export default function CacheTab({ user, chamber, client, getAccessToken }: AdminTabProps) {
	const [versions, setVersions] = useState<Versions>({});
	const [refreshing, setRefreshing] = useState<RefreshableCacheType | null>(null);
	const [message, setMessage] = useState<Message | null>(null);
	const [history, setHistory] = useState<History>({ kind: 'loading' });
	const showHistory = user.role === 'super_admin';

	const loadHistory = useCallback(
		() => readHistory(client, chamber.id).then(setHistory),
		[client, chamber.id],
	);

	useEffect(() => {
		let live = true;
		void readVersions(client, chamber.id).then((next) => live && setVersions(next));
		if (showHistory) {
			void readHistory(client, chamber.id).then((next) => live && setHistory(next));
		}
		return () => {
			live = false;
		};
	}, [client, chamber.id, showHistory]);

	useEffect(() => {
		if (!message) return;
		return at(message.until, () => setMessage(null));
	}, [message]);

	async function refresh(type: RefreshableCacheType) {
		setRefreshing(type);
		setMessage(null);
		const result = await callApi<{ newVersion: number; publish: unknown }>(
			'/api/admin/increment-cache-version',
			getAccessToken,
			{ json: { resourceType: type, chamber: chamber.key }, fallback: CACHE_REFRESH_FAILED },
		);
		setRefreshing(null);
		if (!result.ok) {
			setMessage({ kind: 'error', text: result.error, until: expiresIn(CACHE_ERROR_MS) });
			return;
		}
		setVersions((current) => ({ ...current, [type]: result.data.newVersion }));
		setMessage({
			kind: 'success',
			text: `${CACHE_LABELS[type]} cache refreshed (now version ${result.data.newVersion})`,
			until: expiresIn(CACHE_SUCCESS_MS),
		});
		if (result.data.publish) publishRequested();
		if (showHistory) void loadHistory();
	}

	if (!can(user.role, 'Purge Cache')) return null;
	return (
		<div>
			<Section title="Cache">
				<p>
					Visitors get cached answers for speed. Refresh one when a change made elsewhere (for
					example in the events calendar) should show at once.
				</p>
			</Section>
			<div role="status" aria-live="polite">
				{message?.kind === 'success' && (
					<p className="admin-banner admin-banner--success">{message.text}</p>
				)}
			</div>
			<div role="alert">
				{message?.kind === 'error' && (
					<p className="admin-banner admin-banner--error">{message.text}</p>
				)}
			</div>
			<div className="ops-cards">
				{REFRESHABLE_CACHE_TYPES.map((type) => (
					<section key={type} className="ops-card" aria-labelledby={`cache-${type}`}>
						<h4 id={`cache-${type}`}>{CACHE_LABELS[type]}</h4>
						<p>Current version: {versions[type] ?? '—'}</p>
						<p className="admin-field__hint">{CACHE_DURATION_TEXT}</p>
						<button
							type="button"
							className="admin-button"
							disabled={refreshing !== null}
							aria-label={`Refresh ${CACHE_LABELS[type]} cache`}
							onClick={() => void refresh(type)}
						>
							{refreshing === type ? 'Refreshing...' : 'Refresh'}
						</button>
					</section>
				))}
			</div>
			{showHistory && (
				<section className="admin-section" aria-labelledby="cache-history">
					<h3 id="cache-history">Cache Refresh History</h3>
					{history.kind === 'loading' && <p>Loading the history...</p>}
					{history.kind === 'failed' && <p>The history could not be loaded.</p>}
					{history.kind === 'ready' && history.rows.length === 0 && <p>No refreshes yet.</p>}
					{history.kind === 'ready' && history.rows.length > 0 && (
						<div className="ops-table-wrap">
							<table className="ops-table">
								<ColumnHeads names={['When', 'Who', 'Cache']} />
								<tbody>
									{history.rows.map((row) => (
										<tr key={row.id}>
											<td>{timeFormat.format(new Date(row.created_at))}</td>
											<td>{row.user_email}</td>
											<td>{purgeTypeLabel(row.purge_type)}</td>
										</tr>
									))}
								</tbody>
							</table>
						</div>
					)}
				</section>
			)}
		</div>
	);
}
