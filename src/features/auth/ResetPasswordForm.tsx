import type { Session } from '@supabase/supabase-js';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import {
	AuthForm,
	ErrorAlert,
	NewPasswordFields,
	SubmitButton,
	useNewPassword,
} from './AuthForm.tsx';
import { browserClient, clearSession, currentSession, type PublicSupabase } from './browser.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import './auth.css';

/** The recovery session is looked for 500 ms; success goes to login after 3 s. */
const RECOVERY_CHECK_MS = 500;
const REDIRECT_AFTER_RESET_MS = 3000;

const INVALID_LINK = 'Invalid or expired reset link. Please request a new one from the login page.';
const NO_SESSION = 'Session not established. Please click the reset link from your email again.';

type Status =
	| { kind: 'checking' }
	| { kind: 'invalid' }
	| { kind: 'ready' }
	| { kind: 'saving' }
	| { kind: 'error'; message: string }
	| { kind: 'done' };

/**
 * A session that came from an e-mailed reset link (its token's authentication method): GoTrue
 * signs a link's session in with `otp` (verify.go, implicit flow, what this page receives) and
 * `recovery` only through the PKCE code exchange. Sign-up and magic links, the other `otp`
 * sessions, are off for this site.
 */
function isRecovery(session: Session | null): boolean {
	if (!session) return false;
	try {
		const claims = JSON.parse(
			atob(session.access_token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')),
		) as { amr?: { method?: string }[] };
		return (
			claims.amr?.some((entry) => entry.method === 'otp' || entry.method === 'recovery') ?? false
		);
	} catch {
		return false;
	}
}

interface Props {
	supabase: PublicSupabase;
}

/** /reset-password: the e-mailed link lands here with the recovery session in the URL fragment. */
function ResetPasswordForm({ supabase }: Props) {
	const ids = useId();
	const [status, setStatus] = useState<Status>({ kind: 'checking' });
	const newPassword = useNewPassword();
	const headingRef = useRef<HTMLHeadingElement>(null);

	useEffect(() => {
		let live = true;
		const started = Date.now();
		// supabase-js reads the link's fragment when the client starts, then forgets it.
		const client = browserClient(supabase, { detectSessionInUrl: true });
		void currentSession(client).then(async (session) => {
			const left = RECOVERY_CHECK_MS - (Date.now() - started);
			if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
			if (!live) return;
			setStatus(isRecovery(session) ? { kind: 'ready' } : { kind: 'invalid' });
		});
		return () => {
			live = false;
		};
	}, [supabase]);

	useEffect(() => {
		if (status.kind !== 'done') return;
		headingRef.current?.focus();
		const timer = setTimeout(
			() => window.location.assign('/chamber-login-v2'),
			REDIRECT_AFTER_RESET_MS,
		);
		return () => clearTimeout(timer);
	}, [status]);

	async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
		event.preventDefault();
		if (newPassword.problem) return;
		setStatus({ kind: 'saving' });
		const client = browserClient(supabase, { detectSessionInUrl: true });
		if (!isRecovery(await currentSession(client))) {
			setStatus({ kind: 'error', message: NO_SESSION });
			return;
		}
		const { error } = await client.auth.updateUser({ password: newPassword.password });
		if (error) {
			const explained = error.code === 'same_password' || error.code === 'weak_password';
			setStatus({
				kind: 'error',
				message: explained ? error.message : 'Failed to reset password',
			});
			return;
		}
		await clearSession(client);
		setStatus({ kind: 'done' });
	}

	if (status.kind === 'checking') {
		return (
			<section className="auth-card" aria-busy="true">
				<h1>Reset Password</h1>
				<p role="status">Checking your reset link...</p>
			</section>
		);
	}
	if (status.kind === 'invalid') {
		return (
			<section className="auth-card">
				<h1>Reset Password</h1>
				<ErrorAlert message={INVALID_LINK} />
				<p className="auth-card__links">
					<a href="/forgot-password">Request a new link</a> ·{' '}
					<a href="/chamber-login-v2">Sign in</a>
				</p>
			</section>
		);
	}
	if (status.kind === 'done') {
		return (
			<section className="auth-card" aria-labelledby={`${ids}-done`}>
				<h1 id={`${ids}-done`} tabIndex={-1} ref={headingRef}>
					Password updated
				</h1>
				<p role="status">Your password has been changed. Taking you to the sign-in page…</p>
				<p className="auth-card__links">
					<a href="/chamber-login-v2">Sign in now</a>
				</p>
			</section>
		);
	}
	return (
		<AuthForm
			id={ids}
			title="Reset Password"
			lead="Choose a new password for your admin account."
			onSubmit={onSubmit}
		>
			{status.kind === 'error' && <ErrorAlert message={status.message} />}
			<NewPasswordFields id={ids} confirmLabel="Confirm password" {...newPassword.fields} />
			<SubmitButton
				label="Update Password"
				busyLabel="Updating..."
				busy={status.kind === 'saving'}
				disabled={newPassword.problem !== null}
			/>
		</AuthForm>
	);
}

export default withErrorBoundary('ResetPasswordForm', ResetPasswordForm);
