import { createClient } from '@supabase/supabase-js';
import { format } from 'date-fns/format';
import { useCallback, useEffect, useId, useMemo, useState, type SubmitEvent } from 'react';
import type { Database, SupabaseClient } from '../../lib/database.ts';
import type { PublicSupabase } from '../auth/browser.ts';
import { sanitizeDescription } from '../directory/sanitize.ts';
import type { BusinessChanges, FieldIssue } from '../members/members.ts';
import RowList, { type RowColumn, type RowListClasses } from '../members/RowList.tsx';
import { MemberReport } from '../reports/ReportsTab.tsx';
import { formatHoursText, isOpeningHours, openingHoursSchema } from '../business/hours/hours.ts';
import type { Listing, SocialMediaEntry, WebContent } from '../tenants/tenant-file.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import { liveByText } from '../publish/policy.ts';
import { signInPath } from './paths.ts';
import {
	describeSaved,
	describeSubmission,
	fieldLabel,
	MEMBER_SESSION_KEY,
	parseMemberChanges,
	type MemberField,
	type MemberListing as Listing_,
	type SubmitResult,
} from './self-service.ts';
import './self-service.css';

const when = (iso: string) => format(new Date(iso), 'MMM d, yyyy HH:mm');
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Draft = Partial<Record<MemberField, unknown>>;

type State =
	| { kind: 'loading' }
	| { kind: 'signed-out'; reason: string }
	| { kind: 'failed'; error: string }
	| { kind: 'ready'; listing: Listing_ };

let memberClient: SupabaseClient | undefined;

/** The member's session: its own storage key, so a staff session in the same browser stays. */
function client(supabase: PublicSupabase): SupabaseClient {
	memberClient ??= createClient<Database>(supabase.url, supabase.anonKey, {
		auth: {
			storageKey: MEMBER_SESSION_KEY,
			persistSession: true,
			autoRefreshToken: true,
			// The e-mailed link lands here with the session in the URL fragment (GoTrue's verify).
			detectSessionInUrl: true,
		},
	});
	return memberClient;
}

async function accessToken(supabase: PublicSupabase): Promise<string | null> {
	const { data } = await client(supabase).auth.getSession();
	return data.session?.access_token ?? null;
}

/** Hours are edited in their text form, a line per days (the schema reads it back). */
const hoursText = (value: unknown) =>
	isOpeningHours(value) ? formatHoursText(value).replaceAll('; ', '\n') : '';

/** The values the editor starts from: the live listing with the member's pending request on top. */
function startingDraft(listing: Listing_): Draft {
	const draft: Draft = {};
	for (const field of listing.settings.fields) {
		draft[field] = (listing.business as Record<string, unknown>)[field];
	}
	const open = listing.submission;
	if (open?.status === 'pending') {
		for (const [field, value] of Object.entries(open.changes)) {
			if (field in draft) draft[field as MemberField] = value;
		}
	}
	if ('hours' in draft) draft.hours = hoursText(draft.hours);
	return draft;
}

function changed(listing: Listing_, draft: Draft): BusinessChanges {
	const changes: Record<string, unknown> = {};
	for (const field of listing.settings.fields) {
		const live = (listing.business as Record<string, unknown>)[field];
		let value = draft[field];
		if (field === 'hours') {
			const read = openingHoursSchema.safeParse(value);
			if (read.success) value = read.data;
		}
		if (JSON.stringify(live ?? null) !== JSON.stringify(value)) changes[field] = draft[field];
	}
	return changes as BusinessChanges;
}

const MEMBER_ROWS: RowListClasses = {
	field: 'member-field',
	error: 'member-field__error',
	button: 'member-button member-button--secondary',
};

type Row = Record<string, unknown>;

/** The member's lists, edited as rows: their columns, a new row, and the Add button's text. */
const MEMBER_LISTS: Record<
	'social_media' | 'web_content',
	{ columns: RowColumn<Row>[]; blank: () => Row; add: string }
> = {
	social_media: {
		columns: [
			{ key: 'platform', label: () => 'Network' },
			{ key: 'url', label: () => 'Link' },
		],
		blank: (): SocialMediaEntry => ({ platform: '', url: '' }),
		add: 'Add a social link',
	},
	web_content: {
		columns: [
			{ key: 'content_type', label: () => 'Kind' },
			{ key: 'content_title', label: () => 'Title' },
			{ key: 'full_url', label: () => 'Link' },
		],
		blank: (): WebContent => ({ content_type: '', content_title: '', full_url: '', rel_url: '' }),
		add: 'Add web content',
	},
};

function Problem({ issues, field }: { issues: FieldIssue[]; field: string }) {
	const issue = issues.find(
		(i) => i.path === field || i.path.startsWith(`${field}[`) || i.path.startsWith(`${field}.`),
	);
	if (!issue) return null;
	return (
		<p className="member-field__error" role="alert">
			{issue.path !== field ? `${issue.path}: ` : ''}
			{issue.message}
		</p>
	);
}

function Editor({
	listing,
	supabase,
	onSaved,
}: {
	listing: Listing_;
	supabase: PublicSupabase;
	onSaved(result: SubmitResult): void;
}) {
	const ids = useId();
	const [draft, setDraft] = useState<Draft>(() => startingDraft(listing));
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const [logoState, setLogoState] = useState<string | null>(null);
	const fields = new Set(listing.settings.fields);
	const changes = changed(listing, draft);
	const parsed = parseMemberChanges(
		changes,
		listing.settings,
		listing.categoryChoices,
		(listing.business.categories as string[] | undefined) ?? [],
	);
	const issues = parsed.ok ? [] : parsed.issues;
	const set = (field: MemberField, value: unknown) => setDraft((d) => ({ ...d, [field]: value }));
	const listings = (draft.listings as Listing[] | undefined) ?? [];
	const social = (draft.social_media as SocialMediaEntry[] | undefined) ?? [];
	const categories = (draft.categories as string[] | undefined) ?? [];
	const choices = useMemo(
		() =>
			[
				...new Set([
					...listing.categoryChoices,
					...((listing.business.categories as string[] | undefined) ?? []),
				]),
			].sort(),
		[listing],
	);

	async function uploadLogo(file: File) {
		setLogoState('Uploading…');
		const token = await accessToken(supabase);
		const form = new FormData();
		form.set('logo', file);
		const response = await fetch(
			`/api/members/logo?business=${encodeURIComponent(listing.business.id)}`,
			{ method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form },
		).catch(() => null);
		const body = (await response?.json().catch(() => ({}))) as { url?: string; error?: string };
		if (response?.ok && body.url) {
			set('logo_url', body.url);
			setLogoState(null);
		} else setLogoState(body?.error ?? 'The logo could not be uploaded.');
	}

	async function onSubmit(event: SubmitEvent) {
		event.preventDefault();
		if (!parsed.ok || Object.keys(changes).length === 0) return;
		setBusy(true);
		setError(null);
		const token = await accessToken(supabase);
		const response = await fetch(
			`/api/members/listing?business=${encodeURIComponent(listing.business.id)}`,
			{
				method: 'POST',
				headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({ version: listing.version, changes: parsed.changes }),
			},
		).catch(() => null);
		const body = (await response?.json().catch(() => ({}))) as SubmitResult & {
			error?: string;
			conflicts?: { field: string }[];
		};
		setBusy(false);
		if (response?.ok) onSaved(body);
		else if (response?.status === 409 && body.conflicts) {
			setError(
				`The chamber changed ${body.conflicts.map((c) => fieldLabel(c.field).toLowerCase()).join(', ')} since you opened this page. Reload it to see the new values.`,
			);
		} else setError(body?.error ?? 'Your changes could not be sent. Please try again.');
	}

	const preview = listings.find((l) => l.primary_listing) ?? listings[0];
	return (
		<div className="member-columns">
			<form onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${ids}-edit`}>
				<h2 id={`${ids}-edit`}>Your listing</h2>
				{fields.has('listings') &&
					listings.map((entry, index) => (
						<fieldset key={index} className="member-field">
							<legend>
								{listings.length > 1 ? `Description ${index + 1}` : fieldLabel('listings')}
							</legend>
							<label htmlFor={`${ids}-short-${index}`}>Short description</label>
							<input
								id={`${ids}-short-${index}`}
								value={entry.short_description}
								maxLength={1000}
								onChange={(e) =>
									set(
										'listings',
										listings.map((l, i) =>
											i === index ? { ...l, short_description: e.target.value } : l,
										),
									)
								}
							/>
							<label htmlFor={`${ids}-description-${index}`}>Description</label>
							<textarea
								id={`${ids}-description-${index}`}
								rows={8}
								value={entry.description}
								onChange={(e) =>
									set(
										'listings',
										listings.map((l, i) =>
											i === index ? { ...l, description: e.target.value } : l,
										),
									)
								}
							/>
						</fieldset>
					))}
				<Problem issues={issues} field="listings" />
				{(['work_phone', 'website'] as const)
					.filter((f) => fields.has(f))
					.map((field) => (
						<div className="member-field" key={field}>
							<label htmlFor={`${ids}-${field}`}>{fieldLabel(field)}</label>
							<input
								id={`${ids}-${field}`}
								value={String(draft[field] ?? '')}
								onChange={(e) => set(field, e.target.value)}
							/>
							<Problem issues={issues} field={field} />
						</div>
					))}
				{fields.has('hours') && (
					<div className="member-field">
						<label htmlFor={`${ids}-hours`}>{fieldLabel('hours')}</label>
						<textarea
							id={`${ids}-hours`}
							rows={4}
							value={String(draft.hours ?? '')}
							aria-describedby={`${ids}-hours-hint`}
							onChange={(e) => set('hours', e.target.value)}
						/>
						<p id={`${ids}-hours-hint`} className="admin-field__hint">
							A line per days and times, e.g. Mon-Fri 9:00-17:00 or Sat 10:00-12:00, 13:00-16:00;
							days not named are closed. A line that names no day is a note, e.g. By appointment.
						</p>
						<Problem issues={issues} field="hours" />
					</div>
				)}
				{fields.has('categories') && (
					<fieldset className="member-field">
						<legend>
							{fieldLabel('categories')} (at most {listing.settings.maxCategories})
						</legend>
						{choices.map((name) => (
							<label key={name}>
								<input
									type="checkbox"
									checked={categories.includes(name)}
									onChange={(e) =>
										set(
											'categories',
											e.target.checked
												? [...categories, name]
												: categories.filter((c) => c !== name),
										)
									}
								/>{' '}
								{name}
							</label>
						))}
						<Problem issues={issues} field="categories" />
					</fieldset>
				)}
				{(['social_media', 'web_content'] as const)
					.filter((field) => fields.has(field))
					.map((field) => (
						<fieldset className="member-field" key={field}>
							<legend>{fieldLabel(field)}</legend>
							<RowList
								{...MEMBER_LISTS[field]}
								items={(draft[field] as Row[] | undefined) ?? []}
								onChange={(rows) => set(field, rows)}
								remove={() => 'Remove'}
								classes={MEMBER_ROWS}
							/>
							<Problem issues={issues} field={field} />
						</fieldset>
					))}
				{fields.has('logo_url') && (
					<div className="member-field">
						<label htmlFor={`${ids}-logo`}>{fieldLabel('logo_url')}</label>
						<input
							id={`${ids}-logo`}
							type="file"
							accept="image/png,image/jpeg,image/svg+xml,image/webp"
							onChange={(e) => {
								const file = e.target.files?.[0];
								if (file) void uploadLogo(file);
							}}
						/>
						{logoState && (
							<p className="member-field__error" role="status">
								{logoState}
							</p>
						)}
					</div>
				)}
				{error && (
					<p className="member-field__error" role="alert">
						{error}
					</p>
				)}
				<button
					className="member-button"
					type="submit"
					disabled={busy || !parsed.ok || Object.keys(changes).length === 0}
				>
					{busy ? 'Sending…' : 'Submit for review'}
				</button>
				{listing.settings.liveFields.length > 0 && (
					<p className="admin-field__hint">
						{listing.settings.liveFields.map((f) => fieldLabel(f)).join(', ')}{' '}
						{listing.settings.liveFields.length === 1 ? 'goes' : 'go'} live without review.
					</p>
				)}
			</form>
			<aside className="member-preview" aria-labelledby={`${ids}-preview`}>
				<h2 id={`${ids}-preview`}>Preview</h2>
				{typeof draft.logo_url === 'string' && draft.logo_url !== '' && (
					<img src={draft.logo_url} alt={`${listing.business.report_name} logo`} />
				)}
				<h3>{listing.business.report_name}</h3>
				{categories.length > 0 && <p>{categories.join(' · ')}</p>}
				{preview?.short_description && <p>{preview.short_description}</p>}
				{typeof draft.work_phone === 'string' && draft.work_phone && <p>{draft.work_phone}</p>}
				{typeof draft.website === 'string' && draft.website && <p>{draft.website}</p>}
				{typeof draft.hours === 'string' && draft.hours.trim() && (
					<p className="member-preview__hours">{draft.hours}</p>
				)}
				{preview && (
					<div
						className="member-preview__description"
						// The profile's own sanitiser: the preview shows what the profile will.
						dangerouslySetInnerHTML={{ __html: sanitizeDescription(preview.description) }}
					/>
				)}
				{social.length > 0 && (
					<ul>
						{social.map((l, i) => (
							<li key={i}>
								{l.platform}: {l.url}
							</li>
						))}
					</ul>
				)}
			</aside>
		</div>
	);
}

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
