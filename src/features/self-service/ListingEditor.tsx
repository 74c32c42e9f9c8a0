import { useId, useState, type SubmitEvent } from 'react';
import type { PublicSupabase } from '../auth/browser.ts';
import { formatHoursText, isOpeningHours, openingHoursSchema } from '../business/hours/hours.ts';
import { sanitizeDescription } from '../directory/sanitize.ts';
import type { BusinessChanges } from '../members/members.ts';
import type { Listing, SocialMediaEntry } from '../tenants/tenant-file.ts';
import {
	CategoriesField,
	DescriptionFields,
	HoursField,
	LogoField,
	Problem,
	RowsField,
	TextField,
	type Draft,
	type FieldProps,
} from './ListingFields.tsx';
import { accessToken } from './member-client.ts';
import {
	fieldLabel,
	parseMemberChanges,
	type MemberField,
	type MemberListing,
	type SubmitResult,
} from './self-service.ts';

/** Hours are edited in their text form, a line per days (the schema reads it back). */
const hoursText = (value: unknown) =>
	isOpeningHours(value) ? formatHoursText(value).replaceAll('; ', '\n') : '';

/** The values the editor starts from: the live listing with the member's pending request on top. */
function startingDraft(listing: MemberListing): Draft {
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

function changed(listing: MemberListing, draft: Draft): BusinessChanges {
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

/** Sends the member's changes for review: what became of them, or what to tell the member. */
async function sendChanges(
	supabase: PublicSupabase,
	listing: MemberListing,
	changes: BusinessChanges,
): Promise<{ saved: SubmitResult } | { error: string }> {
	const token = await accessToken(supabase);
	const response = await fetch(
		`/api/members/listing?business=${encodeURIComponent(listing.business.id)}`,
		{
			method: 'POST',
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ version: listing.version, changes }),
		},
	).catch(() => null);
	const body = (await response?.json().catch(() => ({}))) as SubmitResult & {
		error?: string;
		conflicts?: { field: string }[];
	};
	if (response?.ok) return { saved: body };
	if (response?.status === 409 && body.conflicts) {
		return {
			error: `The chamber changed ${body.conflicts.map((c) => fieldLabel(c.field).toLowerCase()).join(', ')} since you opened this page. Reload it to see the new values.`,
		};
	}
	return { error: body?.error ?? 'Your changes could not be sent. Please try again.' };
}

/** The member's editor: the fields its chamber lets it change, sent for review, and a preview. */
export function Editor({
	listing,
	supabase,
	onSaved,
}: {
	listing: MemberListing;
	supabase: PublicSupabase;
	onSaved(result: SubmitResult): void;
}) {
	const ids = useId();
	const [draft, setDraft] = useState<Draft>(() => startingDraft(listing));
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const fields = new Set(listing.settings.fields);
	const changes = changed(listing, draft);
	const parsed = parseMemberChanges(
		changes,
		listing.settings,
		listing.categoryChoices,
		(listing.business.categories as string[] | undefined) ?? [],
	);
	const issues = parsed.ok ? [] : parsed.issues;
	const unchanged = Object.keys(changes).length === 0;
	const field: FieldProps = {
		ids,
		draft,
		set: (name, value) => setDraft((d) => ({ ...d, [name]: value })),
		issues,
	};

	async function onSubmit(event: SubmitEvent) {
		event.preventDefault();
		if (!parsed.ok || unchanged) return;
		setBusy(true);
		setError(null);
		const sent = await sendChanges(supabase, listing, parsed.changes);
		setBusy(false);
		if ('saved' in sent) onSaved(sent.saved);
		else setError(sent.error);
	}

	return (
		<div className="member-columns">
			<form onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${ids}-edit`}>
				<h2 id={`${ids}-edit`}>Your listing</h2>
				{fields.has('listings') && <DescriptionFields {...field} />}
				<Problem issues={issues} field="listings" />
				{(['work_phone', 'website'] as const)
					.filter((f) => fields.has(f))
					.map((name) => (
						<TextField key={name} {...field} field={name} />
					))}
				{fields.has('hours') && <HoursField {...field} />}
				{fields.has('categories') && <CategoriesField {...field} listing={listing} />}
				{(['social_media', 'web_content'] as const)
					.filter((f) => fields.has(f))
					.map((name) => (
						<RowsField key={name} {...field} field={name} />
					))}
				{fields.has('logo_url') && (
					<LogoField {...field} supabase={supabase} businessId={listing.business.id} />
				)}
				{error && (
					<p className="member-field__error" role="alert">
						{error}
					</p>
				)}
				<button className="member-button" type="submit" disabled={busy || !parsed.ok || unchanged}>
					{busy ? 'Sending…' : 'Submit for review'}
				</button>
				{listing.settings.liveFields.length > 0 && (
					<p className="admin-field__hint">
						{listing.settings.liveFields.map((f) => fieldLabel(f)).join(', ')}{' '}
						{listing.settings.liveFields.length === 1 ? 'goes' : 'go'} live without review.
					</p>
				)}
			</form>
			<ListingPreview ids={ids} name={listing.business.report_name} draft={draft} />
		</div>
	);
}

/** The listing as the draft would show it: logo, name, categories, texts and links. */
function ListingPreview({ ids, name, draft }: { ids: string; name: string; draft: Draft }) {
	const listings = (draft.listings as Listing[] | undefined) ?? [];
	const social = (draft.social_media as SocialMediaEntry[] | undefined) ?? [];
	const categories = (draft.categories as string[] | undefined) ?? [];
	const preview = listings.find((l) => l.primary_listing) ?? listings[0];
	return (
		<aside className="member-preview" aria-labelledby={`${ids}-preview`}>
			<h2 id={`${ids}-preview`}>Preview</h2>
			{typeof draft.logo_url === 'string' && draft.logo_url !== '' && (
				<img src={draft.logo_url} alt={`${name} logo`} />
			)}
			<h3>{name}</h3>
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
	);
}
