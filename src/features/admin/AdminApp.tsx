import { useMemo } from 'react';
import AdminShell from '../auth/AdminShell.tsx';
import { can, ROLE_SETS } from '../auth/auth.ts';
import { browserClient, type PublicSupabase } from '../auth/browser.ts';
import AdminPanel, { loadChamber, type ActionTabs } from './AdminPanel.tsx';
import CacheTab from './cache/CacheTab.tsx';
import LogosTab from './logos/LogosTab.tsx';
import UsersTab from './users/UsersTab.tsx';
import MembersTab from '../members/MembersTab.tsx';
import EventsTab from '../chamber-events/EventsTab.tsx';
import FeedsPanel, { FeedAlerts } from '../chamber-events/FeedsPanel.tsx';
import SubmissionsPanel from '../chamber-events/SubmissionsPanel.tsx';
import { hasUnsavedEventChanges } from '../chamber-events/store.ts';
import { hasUnsavedMemberChanges } from '../members/store.ts';
import ImportPanel from '../members/import/ImportPanel.tsx';
import SyncPanel from '../members/sync/SyncPanel.tsx';
import ReportsTab from '../reports/ReportsTab.tsx';
import RequestsTab, { RequestCountBadge } from '../self-service/RequestsTab.tsx';
import PanelActions, { hasUnsavedChanges, LEAVE_QUESTION } from './PanelActions.tsx';
import { configLoaded } from './store.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import type { MapTiles } from '../geo/tiles.ts';

interface Props {
	supabase: PublicSupabase;
	chamber: { key: string; name: string };
	/** The deployment's map tiles (MAP_TILE_URL, else OpenStreetMap's) for the Members tab's pin. */
	tiles: MapTiles;
}

/** The tabs that act at once instead of through Save Changes. */
const actionTabs = (tiles: MapTiles): ActionTabs => ({
	// 'Import members' opens the file import and the membership system's sync.
	Members: (props) => (
		<MembersTab {...props} ImportPanel={ImportPanel} SyncPanel={SyncPanel} tiles={tiles} />
	),
	// 'Calendar feeds' (admins) and the community's submissions waiting for review.
	Events: (props) => (
		<EventsTab
			{...props}
			FeedsPanel={FeedsPanel}
			FeedAlerts={FeedAlerts}
			SubmissionsPanel={SubmissionsPanel}
		/>
	),
	Requests: (props) => <RequestsTab {...props} />,
	Logos: (props) => <LogosTab {...props} />,
	Cache: (props) => <CacheTab {...props} />,
	Reports: (props) => <ReportsTab {...props} />,
	Users: (props) => <UsersTab {...props} />,
});

/** `?chamber=` names another chamber; only a super_admin (View All Chambers) may open one. */
function requestedChamber(): string | null {
	const key = new URLSearchParams(window.location.search).get('chamber');
	return key && /^[a-z0-9-]{1,80}$/.test(key) ? key : null;
}

/** /chamber-config-v2: the guarded shell, the panel's header controls and the panel. */
function AdminApp({ supabase, chamber, tiles }: Props) {
	const client = useMemo(() => browserClient(supabase), [supabase]);
	const tabs = useMemo(() => actionTabs(tiles), [tiles]);
	const chamberFor = (role: Parameters<typeof can>[0]) => {
		const requested = requestedChamber();
		return requested && can(role, 'View All Chambers') ? requested : chamber.key;
	};
	return (
		<AdminShell
			supabase={supabase}
			chamber={chamber}
			returnTo="/chamber-config-v2"
			confirmLeave={() =>
				!(hasUnsavedChanges() || hasUnsavedMemberChanges() || hasUnsavedEventChanges()) ||
				window.confirm(LEAVE_QUESTION)
			}
			actions={({ user, getAccessToken }) => {
				const key = chamberFor(user.role);
				return (
					<PanelActions
						chamber={key}
						ownChamber={key === chamber.key}
						readsMessages={(ROLE_SETS.admins as readonly string[]).includes(user.role)}
						getAccessToken={getAccessToken}
						reload={async () => {
							const loaded = await loadChamber(client, key);
							configLoaded(loaded.config, loaded.stored, loaded.versions);
						}}
					/>
				);
			}}
		>
			{(context) => (
				<AdminPanel
					context={context}
					client={client}
					chamberKey={chamberFor(context.user.role)}
					actionTabs={tabs}
					tabBadges={{
						Requests: (
							<RequestCountBadge
								getAccessToken={context.getAccessToken}
								chamber={chamberFor(context.user.role)}
							/>
						),
					}}
				/>
			)}
		</AdminShell>
	);
}

export default withErrorBoundary('AdminApp', AdminApp);
