import { format } from 'date-fns/format';
import { useCallback, useEffect, useId, useState } from 'react';
import type { PublicSupabase } from '../auth/browser.ts';
import { MemberReport } from '../reports/ReportsTab.tsx';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import { liveByText } from '../publish/policy.ts';
import { Editor } from './ListingEditor.tsx';
import { accessToken, client } from './member-client.ts';
import { signInPath } from './paths.ts';
import {
	describeSaved,
	describeSubmission,
	type MemberListing as Listing_,
} from './self-service.ts';
import './self-service.css';

const when = (iso: string) => format(new Date(iso), 'MMM d, yyyy HH:mm');
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type State =
	| { kind: 'loading' }
	| { kind: 'signed-out'; reason: string }
	| { kind: 'failed'; error: string }
	| { kind: 'ready'; listing: Listing_ };

const EXPIRED = 'Your sign-in link has expired or was used already. Ask for a new one.';

/** The member's listing, or why it cannot be shown. */
async function fetchListing(supabase: PublicSupabase, id: string): Promise<State> {
	const token = await accessToken(supabase);
	if (!token) return { kind: 'signed-out', reason: EXPIRED };
	const response = await fetch(`/api/members/listing?business=${encodeURIComponent(id)}`, {
		headers: { Authorization: `Bearer ${token}` },
	}).catch(() => null);
	const body = (await response?.json().catch(() => ({}))) as Listing_ & { error?: string };
	if (response?.ok) return { kind: 'ready', listing: body };
	if (response?.status === 401 || response?.status === 403) {
		return { kind: 'signed-out', reason: body.error ?? 'Please sign in again.' };
	}
	return { kind: 'failed', error: body?.error ?? 'Your listing could not be loaded.' };
}

/**
 * /members/listing?business={id}: where the e-mailed link lands. The member's own listing, the
 * fields its chamber lets it change, a preview, what became of its latest request, and its
 * statistics (the report staff see in the Reports tab, for this business only).
 */
function MemberListing({
	supabase,
	tenantId,
	timeZone,
}: {
	supabase: PublicSupabase;
	/** The chamber's id: the statistics are read per chamber and business. */
	tenantId: string;
	/** The chamber's time zone: statistics count its days. */
	timeZone: string;
}) {
	const ids = useId();
	// Rendered in the browser only (client:only): the business is in the address, and an expired
	// link's error in its fragment.
	const [business] = useState(
		() => new URLSearchParams(window.location.search).get('business') ?? '',
	);
	const [state, setState] = useState<State>(() => {
		if (!GUID.test(business)) {
			return { kind: 'failed', error: 'Open this page from the link in your sign-in e-mail.' };
		}
		if (new URLSearchParams(window.location.hash.slice(1)).get('error_code')) {
			return { kind: 'signed-out', reason: EXPIRED };
		}
		return { kind: 'loading' };
	});
	const [message, setMessage] = useState<string | null>(null);
	const [generation, setGeneration] = useState(0);
	/** 'Live on the site by 14:00', on the chamber's clock. */
	const liveBy = useCallback((iso: string) => liveByText(iso, timeZone, new Date()), [timeZone]);

	const load = useCallback(
		(id: string) =>
			fetchListing(supabase, id).then((next) => {
				setState(next);
				setGeneration((g) => g + 1);
			}),
		[supabase],
	);

	useEffect(() => {
		if (state.kind !== 'loading') return;
		let live = true;
		fetchListing(supabase, business).then((next) => {
			if (live) setState(next);
		});
		return () => {
			live = false;
		};
	}, [supabase, business, state.kind]);

	async function signOut() {
		await client(supabase)
			.auth.signOut({ scope: 'local' })
			.catch(() => {});
		setState({ kind: 'signed-out', reason: 'You are signed out.' });
	}

	return (
		<section className="member-page" aria-labelledby={`${ids}-title`}>
			<h1 id={`${ids}-title`}>
				{state.kind === 'ready' ? state.listing.business.report_name : 'Update your listing'}
			</h1>
			{state.kind === 'loading' && <p role="status">Loading your listing…</p>}
			{state.kind === 'failed' && <p role="alert">{state.error}</p>}
			{state.kind === 'signed-out' && (
				<>
					<p role="status">{state.reason}</p>
					{GUID.test(business) && <a href={signInPath(business)}>Get a new sign-in link</a>}
				</>
			)}
			{state.kind === 'ready' && (
				<>
					{message && (
						<p className="member-status" role="status">
							{message}
						</p>
					)}
					{!message && state.listing.waiting && (
						<p>
							Your saved changes: {liveBy(state.listing.waiting.dueAt).replace(/^Live/, 'live')}.
						</p>
					)}
					{state.listing.submission && (
						<div
							className={`member-status${state.listing.submission.status === 'returned' ? ' member-status--returned' : ''}`}
						>
							<p>{describeSubmission(state.listing.submission, when)}</p>
							{state.listing.submission.status === 'returned' && (
								<p>Note from the chamber: {state.listing.submission.note}</p>
							)}
						</div>
					)}
					<Editor
						key={generation}
						listing={state.listing}
						supabase={supabase}
						onSaved={(result) => {
							setMessage(describeSaved(result, liveBy));
							void load(state.listing.business.id);
						}}
					/>
					<section className="member-report" aria-labelledby={`${ids}-report`}>
						<h2 id={`${ids}-report`}>Your listing&apos;s numbers</h2>
						<MemberReport
							client={client(supabase)}
							tenantId={tenantId}
							business={{
								id: state.listing.business.id,
								name: state.listing.business.report_name,
							}}
							timeZone={timeZone}
						/>
					</section>
					<button
						type="button"
						className="member-button member-button--secondary"
						onClick={() => void signOut()}
					>
						Sign out
					</button>
				</>
			)}
		</section>
	);
}

export default withErrorBoundary('MemberListing', MemberListing);
