import { useId, useState, type SubmitEvent } from 'react';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import { SIGN_IN_SENT } from './self-service.ts';
import './self-service.css';

type Status =
	| { kind: 'ready' }
	| { kind: 'sending' }
	| { kind: 'sent'; message: string }
	| { kind: 'error'; message: string };

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /members/sign-in?business={id}: a member business asks for a sign-in link, which goes to the
 * address the chamber has on file for it. Nothing is typed and nothing about the address is
 * shown: every business gets the same answer.
 */
function SignInRequest({ chamberName }: { chamberName: string }) {
	const ids = useId();
	// Rendered in the browser only (client:only): the business is in the address.
	const [business] = useState(() => {
		const id = new URLSearchParams(window.location.search).get('business');
		return id && GUID.test(id) ? id : '';
	});
	const [status, setStatus] = useState<Status>({ kind: 'ready' });

	async function onSubmit(event: SubmitEvent) {
		event.preventDefault();
		setStatus({ kind: 'sending' });
		try {
			const response = await fetch('/api/members/sign-in', {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ business }),
			});
			const body = (await response.json().catch(() => ({}))) as {
				message?: string;
				error?: string;
			};
			setStatus(
				response.ok
					? { kind: 'sent', message: body.message ?? SIGN_IN_SENT }
					: { kind: 'error', message: body.error ?? 'Something went wrong. Please try again.' },
			);
		} catch {
			setStatus({ kind: 'error', message: 'Network error. Please try again.' });
		}
	}

	return (
		<section className="member-page" aria-labelledby={`${ids}-title`}>
			<h1 id={`${ids}-title`}>Update your listing</h1>
			{business === '' ? (
				<p>
					Open this page from your business's profile in the {chamberName} directory: its 'Update
					this listing' link says which listing it is.
				</p>
			) : status.kind === 'sent' ? (
				<p className="member-status" role="status">
					{status.message}
				</p>
			) : (
				<form onSubmit={(e) => void onSubmit(e)}>
					<p>
						We will e-mail a sign-in link to the address the {chamberName} has on file for this
						business. The link works once, for one hour.
					</p>
					<button className="member-button" type="submit" disabled={status.kind === 'sending'}>
						{status.kind === 'sending' ? 'Sending…' : 'E-mail me a sign-in link'}
					</button>
					{status.kind === 'error' && (
						<p className="member-field__error" role="alert">
							{status.message}
						</p>
					)}
				</form>
			)}
		</section>
	);
}

export default withErrorBoundary('SignInRequest', SignInRequest);
