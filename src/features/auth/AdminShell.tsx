import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
	ACCESS_DENIED_MESSAGE,
	mayAccessChamber,
	ROLE_LABELS,
	ROLE_NAMES,
	USER_INFO_KEY,
	type AdminUser,
} from './auth.ts';
import {
	browserClient,
	clearSession,
	currentSession,
	loginUrl,
	storeUserInfo,
	verifyWithServer,
	type PublicSupabase,
} from './browser.ts';
import ChangePassword from './ChangePassword.tsx';
import './auth.css';

/** 'Access Denied' shows 5 s before the credentials go and login follows. */
const ACCESS_DENIED_MS = 5000;

/**
 * What the panel inside the shell gets: the signed-in user (role and chamber from the server's
 * record), a fresh access token for each call (supabase-js refreshes it before it expires), and
 * sign-out.
 */
export interface AdminContext {
	user: AdminUser;
	/** The chamber this deployment serves (TENANT). */
	chamber: { key: string; name: string };
	getAccessToken(): Promise<string>;
	signOut(): Promise<void>;
}

interface Props {
	supabase: PublicSupabase;
	chamber: { key: string; name: string };
	/** Where to come back after signing in (this page's path). */
	returnTo: string;
	children: (context: AdminContext) => ReactNode;
	/** Controls for the header between the chamber's name and the user (the panel's Save). */
	actions?: (context: AdminContext) => ReactNode;
	/** Asked before 'Logout' signs out; false keeps the user here (unsaved changes). */
	confirmLeave?: () => boolean;
}

/** Set once the page is on its way to the login (one shell per page), so a second path there does nothing. */
const leaving = { current: false };

type State = { kind: 'checking' } | { kind: 'denied' } | { kind: 'ready'; user: AdminUser };

/**
 * The guarded shell of the admin panel: verifies the session with the server
 * on load; without a valid one → login (coming back here); an admin or editor of another chamber
 * → 'Access Denied' for 5 s, then signed out and sent to login; a super_admin may open any
 * chamber's panel. Sign-out, or a session the identity service ends, returns to login.
 */
export default function AdminShell({
	supabase,
	chamber,
	returnTo,
	children,
	actions,
	confirmLeave,
}: Props) {
	const client = useMemo(() => browserClient(supabase), [supabase]);
	const [state, setState] = useState<State>({ kind: 'checking' });

	useEffect(() => {
		let live = true;
		const toLogin = () => {
			if (leaving.current) return;
			leaving.current = true;
			window.location.replace(loginUrl(returnTo));
		};
		void (async () => {
			const session = await currentSession(client);
			if (!session) return toLogin();
			const verified = await verifyWithServer(session.access_token);
			if (!live) return;
			if (!verified.ok) {
				await clearSession(client);
				return toLogin();
			}
			storeUserInfo(verified.user);
			if (!mayAccessChamber(verified.user, chamber.key)) {
				setState({ kind: 'denied' });
				setTimeout(() => {
					void clearSession(client).then(toLogin);
				}, ACCESS_DENIED_MS);
				return;
			}
			setState({ kind: 'ready', user: verified.user });
		})();
		// A session ended elsewhere (sign-out in another tab, a refresh the server refused).
		const { data } = client.auth.onAuthStateChange((event) => {
			if (event === 'SIGNED_OUT') {
				localStorage.removeItem(USER_INFO_KEY);
				toLogin();
			}
		});
		return () => {
			live = false;
			data.subscription.unsubscribe();
		};
	}, [client, chamber.key, returnTo]);

	const context = useMemo<AdminContext | null>(() => {
		if (state.kind !== 'ready') return null;
		return {
			user: state.user,
			chamber,
			async getAccessToken() {
				const session = await currentSession(client);
				if (!session) throw new Error('Your session has ended. Please sign in again.');
				return session.access_token;
			},
			async signOut() {
				leaving.current = true;
				await clearSession(client);
				window.location.assign(loginUrl(returnTo));
			},
		};
	}, [state, chamber, client, returnTo]);

	if (state.kind === 'checking') {
		return (
			<main id="main" tabIndex={-1}>
				<p className="admin-status" role="status">
					Checking your session...
				</p>
			</main>
		);
	}
	if (state.kind === 'denied') {
		return (
			<main id="main" tabIndex={-1} className="auth-page">
				<section className="auth-card">
					<h1>Admin Panel</h1>
					<p className="auth-alert auth-alert--error" role="alert">
						{ACCESS_DENIED_MESSAGE}
					</p>
					<p>You will be signed out and taken to the sign-in page.</p>
				</section>
			</main>
		);
	}
	return (
		<div className="admin-shell">
			<header className="admin-shell__header">
				<p className="admin-shell__chamber">{chamber.name}</p>
				<div className="admin-shell__user">
					<span>
						<span className="sr-only">Signed in as </span>
						{state.user.email}
					</span>
					<span className="admin-shell__role" title={ROLE_LABELS[state.user.role]}>
						{ROLE_NAMES[state.user.role]}
					</span>
					<ChangePassword client={client} />
					<button
						type="button"
						className="auth-button auth-button--small"
						onClick={() => {
							if (confirmLeave && !confirmLeave()) return;
							void context?.signOut();
						}}
					>
						Logout
					</button>
				</div>
				{/* Last: what it shows changes as publishes come and go, and below it nothing moves. */}
				{context && actions && <div className="admin-shell__actions">{actions(context)}</div>}
			</header>
			<main id="main" tabIndex={-1}>
				{context && children(context)}
			</main>
		</div>
	);
}
