import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { AuthForm, EmailField, ErrorAlert, SubmitButton } from './AuthForm.tsx';
import { useHydrated } from './hydrated.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import './auth.css';

type Status =
	{ kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'error'; message: string };

/**
 * /forgot-password: the e-mail, then 'Check Your Email' — the same for known and
 * unknown addresses; 'Failed to send reset email' only when the site could not take the request.
 */
function ForgotPasswordForm() {
	const ids = useId();
	const [email, setEmail] = useState('');
	const [status, setStatus] = useState<Status>({ kind: 'idle' });
	const headingRef = useRef<HTMLHeadingElement>(null);
	const hydrated = useHydrated();

	useEffect(() => {
		if (status.kind === 'sent') headingRef.current?.focus();
	}, [status]);

	async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
		event.preventDefault();
		if (!email.trim()) {
			setStatus({ kind: 'error', message: 'Please enter your email address' });
			return;
		}
		setStatus({ kind: 'sending' });
		try {
			const response = await fetch('/api/auth/forgot-password', {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ email: email.trim() }),
			});
			const body = (await response.json().catch(() => null)) as { error?: string } | null;
			if (response.ok) setStatus({ kind: 'sent' });
			else if (response.status === 400 && body?.error) {
				setStatus({ kind: 'error', message: body.error });
			} else setStatus({ kind: 'error', message: 'Failed to send reset email' });
		} catch {
			setStatus({ kind: 'error', message: 'Failed to send reset email' });
		}
	}

	if (status.kind === 'sent') {
		return (
			<section className="auth-card" aria-labelledby={`${ids}-sent`}>
				<h1 id={`${ids}-sent`} tabIndex={-1} ref={headingRef}>
					Check Your Email
				</h1>
				<p>
					If an account exists for <strong>{email.trim()}</strong>, we sent a link to reset its
					password. The link works once and expires in 1 hour.
				</p>
				<button
					type="button"
					className="auth-button auth-button--outline"
					onClick={() => setStatus({ kind: 'idle' })}
				>
					Try Again
				</button>
				<p className="auth-card__links">
					<a href="/chamber-login-v2">Back to sign in</a>
				</p>
			</section>
		);
	}

	return (
		<AuthForm
			id={ids}
			title="Forgot Password"
			lead={
				<>
					Enter the email address of your admin account and we&rsquo;ll send you a link to reset
					your password.
				</>
			}
			onSubmit={onSubmit}
		>
			{status.kind === 'error' && <ErrorAlert message={status.message} />}
			<EmailField id={`${ids}-email`} disabled={!hydrated} value={email} onValue={setEmail} />
			<SubmitButton
				label="Send Reset Link"
				busyLabel="Sending..."
				busy={status.kind === 'sending'}
				disabled={!hydrated}
			/>
			<p className="auth-card__links">
				<a href="/chamber-login-v2">Back to sign in</a>
			</p>
		</AuthForm>
	);
}

export default withErrorBoundary('ForgotPasswordForm', ForgotPasswordForm);
