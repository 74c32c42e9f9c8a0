import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { safeRedirect, type AdminUser } from './auth.ts';
import { AuthForm, EmailField, ErrorAlert, PasswordField, SubmitButton } from './AuthForm.tsx';
import {
	browserClient,
	currentSession,
	storeUserInfo,
	verifyWithServer,
	type PublicSupabase,
} from './browser.ts';
import { useHydrated } from './hydrated.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import './auth.css';

interface Props {
	supabase: PublicSupabase;
}

type Status = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'error'; message: string };

interface LoginAnswer {
	session?: { access_token: string; refresh_token: string };
	user?: AdminUser;
	error?: string;
}

/** /chamber-login-v2 (docs/behaviour.md#sign-in-and-passwords). */
function LoginForm({ supabase }: Props) {
	const ids = useId();
	const [email, setEmail] = useState('');
	const [password, setPassword] = useState('');
	const [status, setStatus] = useState<Status>({ kind: 'idle' });
	const errorRef = useRef<HTMLParagraphElement>(null);
	const hydrated = useHydrated();

	const destination = () =>
		safeRedirect(new URLSearchParams(window.location.search).get('redirect'));

	// A visit with a session the server still accepts goes straight on.
	useEffect(() => {
		let live = true;
		const client = browserClient(supabase);
		void currentSession(client).then(async (session) => {
			if (!session || !live) return;
			const verified = await verifyWithServer(session.access_token);
			if (live && verified.ok) window.location.replace(destination());
		});
		return () => {
			live = false;
		};
	}, [supabase]);

	useEffect(() => {
		if (status.kind === 'error') errorRef.current?.focus();
	}, [status]);

	async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
		event.preventDefault();
		if (!email.trim() || !password) {
			setStatus({ kind: 'error', message: 'Email and password are required' });
			return;
		}
		setStatus({ kind: 'submitting' });
		let response: Response;
		try {
			response = await fetch('/api/auth/supabase-login', {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ email: email.trim(), password }),
			});
		} catch {
			setStatus({ kind: 'error', message: 'Network error. Please try again.' });
			return;
		}
		const answer = (await response.json().catch(() => null)) as LoginAnswer | null;
		if (!response.ok || !answer?.session || !answer.user) {
			setStatus({ kind: 'error', message: answer?.error || 'Login failed' });
			return;
		}
		const { error } = await browserClient(supabase).auth.setSession(answer.session);
		if (error) {
			setStatus({ kind: 'error', message: 'Login failed' });
			return;
		}
		storeUserInfo(answer.user);
		window.location.assign(destination());
	}

	return (
		<AuthForm
			id={ids}
			title="Admin Sign In"
			lead={<>Sign in to manage your chamber&rsquo;s website.</>}
			onSubmit={onSubmit}
		>
			{status.kind === 'error' && <ErrorAlert message={status.message} ref={errorRef} />}
			<EmailField id={`${ids}-email`} disabled={!hydrated} value={email} onValue={setEmail} />
			<PasswordField
				id={`${ids}-password`}
				label="Password"
				name="password"
				autoComplete="current-password"
				revealable
				disabled={!hydrated}
				value={password}
				onValue={setPassword}
			/>
			<SubmitButton
				label="Sign In"
				busyLabel="Signing in..."
				busy={status.kind === 'submitting'}
				disabled={!hydrated}
			/>
			<p className="auth-card__links">
				<a href="/forgot-password">Forgot password?</a>
			</p>
		</AuthForm>
	);
}

export default withErrorBoundary('LoginForm', LoginForm);
