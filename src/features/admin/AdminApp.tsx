import { useMemo } from 'react';
import AdminShell from '../auth/AdminShell.tsx';
import { can } from '../auth/auth.ts';
import { MESSAGE_READER_ROLES } from '../contact/contact.ts';
import { browserClient, type PublicSupabase } from '../auth/browser.ts';
import AdminPanel, { loadChamber, type ActionTabs } from './AdminPanel.tsx';
import CacheTab from './cache/CacheTab.tsx';
import LogosTab from './logos/LogosTab.tsx';
import UsersTab from './users/UsersTab.tsx';
import PanelActions, { hasUnsavedChanges, LEAVE_QUESTION } from './PanelActions.tsx';
import { configLoaded } from './store.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';

interface Props {
	supabase: PublicSupabase;
	chamber: { key: string; name: string };
}

/** The tabs that act at once instead of through Save Changes. */
const ACTION_TABS: ActionTabs = {
	Logos: (props) => <LogosTab {...props} />,
	Cache: (props) => <CacheTab {...props} />,
	Users: (props) => <UsersTab {...props} />,
};

/** `?chamber=` names another chamber; only a super_admin (View All Chambers) may open one. */
function requestedChamber(): string | null {
	const key = new URLSearchParams(window.location.search).get('chamber');
	return key && /^[a-z0-9-]{1,80}$/.test(key) ? key : null;
}

/** /chamber-config-v2: the guarded shell, the panel's header controls and the panel. */
function AdminApp({ supabase, chamber }: Props) {
	const client = useMemo(() => browserClient(supabase), [supabase]);
	const chamberFor = (role: Parameters<typeof can>[0]) => {
		const requested = requestedChamber();
		return requested && can(role, 'View All Chambers') ? requested : chamber.key;
	};
	return (
		<AdminShell
			supabase={supabase}
			chamber={chamber}
			returnTo="/chamber-config-v2"
			confirmLeave={() => !hasUnsavedChanges() || window.confirm(LEAVE_QUESTION)}
			actions={({ user, getAccessToken }) => {
				const key = chamberFor(user.role);
				return (
					<PanelActions
						chamber={key}
						ownChamber={key === chamber.key}
						readsMessages={(MESSAGE_READER_ROLES as readonly string[]).includes(user.role)}
						getAccessToken={getAccessToken}
						reload={async () => {
							const loaded = await loadChamber(client, key);
							configLoaded(loaded.config, loaded.stored);
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
					actionTabs={ACTION_TABS}
				/>
			)}
		</AdminShell>
	);
}

export default withErrorBoundary('AdminApp', AdminApp);
