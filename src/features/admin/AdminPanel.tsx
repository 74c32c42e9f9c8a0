import { useStore } from '@nanostores/react';
import type { SupabaseClient } from '../../lib/database.ts';
import {
	useCallback,
	useEffect,
	useId,
	useRef,
	useState,
	type KeyboardEvent,
	type ReactNode,
} from 'react';
import type { AdminContext } from '../auth/AdminShell.tsx';
import { can } from '../auth/auth.ts';
import {
	ConfigError,
	repairConfig,
	rowToConfigInput,
	type ChamberConfig,
	type ConfigIssue,
} from '../config/config.ts';
import { chamberTimeZone } from '../config/time-zone.ts';
import PublishHistory from '../publish/PublishHistory.tsx';
import PublishAt from './PublishAt.tsx';
import {
	showsRequestsTab,
	tabsFor,
	type AdminTabProps,
	type PanelChamber,
	type TabName,
} from './admin.ts';
import { NavTab } from './config/NavTab.tsx';
import { ColorsTab } from './config/ColorsTab.tsx';
import { ContactTab } from './config/ContactTab.tsx';
import { ContentTab } from './config/ContentTab.tsx';
import { FontsTab } from './config/FontsTab.tsx';
import { HomepageTab } from './config/HomepageTab.tsx';
import { IdentityTab } from './config/IdentityTab.tsx';
import { SearchTab } from './config/SearchTab.tsx';
import { UrlsTab } from './config/UrlsTab.tsx';
import type { ConfigTabProps } from './config/config-tabs.tsx';
import { $banner, $changes, $draft, $saved, configLoaded } from './store.ts';
import { configVersionsSchema, type ConfigVersions } from './update-config.ts';
import './admin.css';
import ErrorBanner from './ErrorBanner.tsx';

interface LoadedChamber {
	chamber: PanelChamber;
	config: ChamberConfig;
	/** The version of each section the configuration is at (read with it, in one statement). */
	versions: ConfigVersions;
	/**
	 * Values stored that do not validate (written before the database checked them, or by hand):
	 * `config` holds their defaults, and `stored` the configuration as saved with those values
	 * in it, so each shows as an unsaved change that 'Save Changes' replaces.
	 */
	invalid: readonly ConfigIssue[];
	stored: ChamberConfig;
}

/** Reads the chamber and its configuration as the signed-in user (RLS applies). */
export async function loadChamber(client: SupabaseClient, key: string): Promise<LoadedChamber> {
	const { data: tenant, error } = await client
		.from('tenants')
		.select('id, slug, name')
		.eq('slug', key)
		.maybeSingle();
	if (error) throw new Error('Failed to load the chamber', { cause: error });
	if (!tenant) throw new Error(`There is no chamber "${key}".`);
	const { data: row, error: configError } = await client
		.from('chamber_config')
		.select('*, config_versions')
		.eq('tenant_id', tenant.id)
		.single();
	if (configError) throw new Error('Failed to load the configuration', { cause: configError });
	const versions = configVersionsSchema.safeParse(row.config_versions);
	const chamber = { id: tenant.id, key: tenant.slug, name: tenant.name };
	const input = rowToConfigInput(row);
	const { config, issues } = repairConfig(input, `the configuration of ${tenant.slug}`);
	const stored = structuredClone(config);
	for (const issue of issues) {
		// The section's field (or the top-level field) as stored: the unit update-config saves.
		const [section, field] = issue.path.split(/[.[]/);
		const target = stored as unknown as Record<string, Record<string, unknown>>;
		const source = input as Record<string, Record<string, unknown> | undefined>;
		if (field !== undefined && target[section!] && typeof target[section!] === 'object') {
			target[section!]![field] = source[section!]?.[field];
		} else (target as Record<string, unknown>)[section!] = source[section!];
	}
	return {
		chamber,
		config,
		versions: versions.success ? versions.data : {},
		invalid: issues,
		stored,
	};
}

/** The Members, Logos, Cache and Users tabs act at once (no pending changes); they plug in here. */
export type ActionTabs = Partial<Record<TabName, (props: AdminTabProps) => ReactNode>>;

interface Props {
	context: AdminContext;
	client: SupabaseClient;
	/** The chamber to edit: this deployment's, or another one a super_admin opened. */
	chamberKey: string;
	actionTabs?: ActionTabs;
	/** Shown on a tab beside its name (the Requests tab's count of waiting requests). */
	tabBadges?: Partial<Record<TabName, ReactNode>>;
}

type Load =
	{ kind: 'loading' } | { kind: 'failed'; error: string } | ({ kind: 'ready' } & LoadedChamber);

/**
 * The admin panel: the tabs the signed-in role may use, editing one draft of the
 * configuration that the header's 'Save Changes' writes.
 */
export default function AdminPanel({
	context,
	client,
	chamberKey,
	actionTabs = {},
	tabBadges = {},
}: Props) {
	const { user, getAccessToken } = context;
	const [load, setLoad] = useState<Load>({ kind: 'loading' });
	const draft = useStore($draft);
	const saved = useStore($saved);
	const changes = useStore($changes);
	const banner = useStore($banner);
	const ids = useId();

	const reload = useCallback(async () => {
		const loaded = await loadChamber(client, chamberKey);
		configLoaded(loaded.config, loaded.stored, loaded.versions);
		setLoad({ kind: 'ready', ...loaded });
	}, [client, chamberKey]);

	useEffect(() => {
		let live = true;
		loadChamber(client, chamberKey).then(
			(loaded) => {
				if (!live) return;
				configLoaded(loaded.config, loaded.stored, loaded.versions);
				setLoad({ kind: 'ready', ...loaded });
			},
			(error: unknown) => {
				if (!live) return;
				setLoad({
					kind: 'failed',
					error:
						error instanceof ConfigError
							? `The configuration cannot be opened: ${error.issues.map((i) => `${i.path || 'the configuration'}: ${i.message}`).join('; ')}. Restore a published one from the History tab of another session, or ask a super admin.`
							: error instanceof Error
								? error.message
								: 'Failed to load the configuration',
				});
			},
		);
		return () => {
			live = false;
		};
	}, [client, chamberKey]);

	const features = (saved ?? (load.kind === 'ready' ? load.config : null))?.features;
	const tabs = tabsFor(user.role).filter(
		(tab) =>
			(tab === 'History' ||
				!['Members', 'Events', 'Requests', 'Logos', 'Cache', 'Reports', 'Users'].includes(tab) ||
				actionTabs[tab]) &&
			(tab !== 'Requests' || showsRequestsTab(user.role, features)),
	);
	const [active, setActive] = useState<TabName>(tabs[0]!);
	const tabRefs = useRef(new Map<TabName, HTMLButtonElement>());

	function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
		const index = tabs.indexOf(active);
		const to =
			event.key === 'ArrowRight'
				? (index + 1) % tabs.length
				: event.key === 'ArrowLeft'
					? (index - 1 + tabs.length) % tabs.length
					: event.key === 'Home'
						? 0
						: event.key === 'End'
							? tabs.length - 1
							: -1;
		if (to < 0) return;
		event.preventDefault();
		setActive(tabs[to]!);
		tabRefs.current.get(tabs[to]!)?.focus();
	}

	if (load.kind === 'loading' || (load.kind === 'ready' && !draft)) {
		return (
			<p className="admin-status" role="status">
				Loading the configuration...
			</p>
		);
	}
	if (load.kind === 'failed') {
		return (
			<div className="admin-panel">
				<ErrorBanner error={load.error} />
				<button type="button" className="admin-button" onClick={() => window.location.reload()}>
					Try again
				</button>
			</div>
		);
	}

	// Invalid values still stored: those whose field is still an unsaved change.
	const invalid = load.invalid.filter((issue) =>
		changes.some(
			(change) =>
				issue.path === change.path ||
				issue.path.startsWith(`${change.path}.`) ||
				issue.path.startsWith(`${change.path}[`),
		),
	);
	const props: ConfigTabProps = { draft: draft!, role: user.role };
	const timeZone = chamberTimeZone(saved ?? load.config);
	const tabProps: AdminTabProps = {
		user,
		chamber: load.chamber,
		config: saved ?? load.config,
		client,
		getAccessToken,
		reloadConfig: reload,
	};
	const panels: Record<TabName, () => ReactNode> = {
		Identity: () => <IdentityTab {...props} />,
		Contact: () => <ContactTab {...props} />,
		URLs: () => <UrlsTab {...props} />,
		Colors: () => <ColorsTab {...props} />,
		Fonts: () => <FontsTab {...props} />,
		Content: () => <ContentTab {...props} />,
		Homepage: () => <HomepageTab {...props} client={client} chamberId={load.chamber.id} />,
		Search: () => <SearchTab {...props} />,
		Nav: () => <NavTab {...props} />,
		History: () => (
			<PublishHistory
				getAccessToken={getAccessToken}
				onRestored={() => void reload()}
				timeZone={timeZone}
				restoreAt={(entry, schedule) => (
					<PublishAt
						timeZone={timeZone}
						what="this configuration"
						label="Restore at…"
						className="publish-history__restore"
						onSchedule={schedule}
						key={entry.id}
					/>
				)}
			/>
		),
		Members: () => actionTabs.Members?.(tabProps),
		Events: () => actionTabs.Events?.(tabProps),
		Requests: () => actionTabs.Requests?.(tabProps),
		Logos: () => actionTabs.Logos?.(tabProps),
		Cache: () => actionTabs.Cache?.(tabProps),
		Reports: () => actionTabs.Reports?.(tabProps),
		Users: () => actionTabs.Users?.(tabProps),
	};

	return (
		<div className="admin-panel">
			<h1 className="admin-panel__title">
				{load.chamber.name} <span className="admin-panel__subtitle">Admin Panel</span>
			</h1>
			{load.chamber.key !== context.chamber.key && can(user.role, 'View All Chambers') && (
				<p className="admin-banner admin-banner--info">
					You are editing {load.chamber.name}. Its site publishes from its own deployment.
				</p>
			)}
			{invalid.length > 0 && (
				<div className="admin-banner admin-banner--error" role="alert">
					<p>
						Some saved values are not valid. They are shown with their defaults: save to replace
						them, or restore a published configuration in History.
					</p>
					<ul>
						{invalid.map((issue) => (
							<li key={issue.path}>
								{issue.path}: {issue.message}
							</li>
						))}
					</ul>
				</div>
			)}
			{banner?.kind === 'error' && (
				<div className="admin-banner admin-banner--error" role="alert">
					{banner.lines.map((line) => (
						<p key={line}>{line}</p>
					))}
				</div>
			)}
			{banner?.kind === 'success' && (
				<p className="admin-banner admin-banner--success" role="status">
					{banner.text}
				</p>
			)}
			<div className="admin-tabs" role="tablist" aria-label="Settings" onKeyDown={onTabKey}>
				{tabs.map((tab) => (
					<button
						key={tab}
						ref={(node) => {
							if (node) tabRefs.current.set(tab, node);
						}}
						type="button"
						role="tab"
						id={`${ids}-tab-${tab}`}
						aria-selected={tab === active}
						aria-controls={`${ids}-panel`}
						tabIndex={tab === active ? 0 : -1}
						onClick={() => setActive(tab)}
					>
						{tab}
						{tabBadges[tab]}
					</button>
				))}
			</div>
			<div
				className="admin-tabpanel"
				role="tabpanel"
				id={`${ids}-panel`}
				aria-labelledby={`${ids}-tab-${active}`}
				tabIndex={0}
			>
				<h2>{active}</h2>
				{panels[active]()}
			</div>
		</div>
	);
}
