import { useMemo, useState } from 'react';
import type { PublicSupabase } from '../auth/browser.ts';
import type { FieldIssue } from '../members/members.ts';
import RowList, { type RowColumn, type RowListClasses } from '../members/RowList.tsx';
import type { Listing, SocialMediaEntry, WebContent } from '../tenants/tenant-file.ts';
import { accessToken } from './member-client.ts';
import { fieldLabel, type MemberField, type MemberListing } from './self-service.ts';

/** The editor's values, field by field (hours as their text). */
export type Draft = Partial<Record<MemberField, unknown>>;

/** What every field of the member's editor is given. */
export interface FieldProps {
	/** The editor's useId: each control's id starts with it. */
	ids: string;
	draft: Draft;
	set(field: MemberField, value: unknown): void;
	issues: FieldIssue[];
}

export function Problem({ issues, field }: { issues: FieldIssue[]; field: string }) {
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

/** Each of the listing's descriptions: its short and its full text. */
export function DescriptionFields({ ids, draft, set }: FieldProps) {
	const listings = (draft.listings as Listing[] | undefined) ?? [];
	const edit = (index: number, change: Partial<Listing>) =>
		set(
			'listings',
			listings.map((l, i) => (i === index ? { ...l, ...change } : l)),
		);
	return listings.map((entry, index) => (
		<fieldset key={index} className="member-field">
			<legend>{listings.length > 1 ? `Description ${index + 1}` : fieldLabel('listings')}</legend>
			<label htmlFor={`${ids}-short-${index}`}>Short description</label>
			<input
				id={`${ids}-short-${index}`}
				value={entry.short_description}
				maxLength={1000}
				onChange={(e) => edit(index, { short_description: e.target.value })}
			/>
			<label htmlFor={`${ids}-description-${index}`}>Description</label>
			<textarea
				id={`${ids}-description-${index}`}
				rows={8}
				value={entry.description}
				onChange={(e) => edit(index, { description: e.target.value })}
			/>
		</fieldset>
	));
}

/** A one-line field: the phone number or the website. */
export function TextField({
	ids,
	draft,
	set,
	issues,
	field,
}: FieldProps & { field: 'work_phone' | 'website' }) {
	return (
		<div className="member-field">
			<label htmlFor={`${ids}-${field}`}>{fieldLabel(field)}</label>
			<input
				id={`${ids}-${field}`}
				value={String(draft[field] ?? '')}
				onChange={(e) => set(field, e.target.value)}
			/>
			<Problem issues={issues} field={field} />
		</div>
	);
}

export function HoursField({ ids, draft, set, issues }: FieldProps) {
	return (
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
				A line per days and times, e.g. Mon-Fri 9:00-17:00 or Sat 10:00-12:00, 13:00-16:00; days not
				named are closed. A line that names no day is a note, e.g. By appointment.
			</p>
			<Problem issues={issues} field="hours" />
		</div>
	);
}

/** The chamber's categories to tick, with any the business has that are no longer offered. */
export function CategoriesField({
	draft,
	set,
	issues,
	listing,
}: FieldProps & { listing: MemberListing }) {
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
	return (
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
								e.target.checked ? [...categories, name] : categories.filter((c) => c !== name),
							)
						}
					/>{' '}
					{name}
				</label>
			))}
			<Problem issues={issues} field="categories" />
		</fieldset>
	);
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

/** A list edited as rows: the social links or the web content. */
export function RowsField({
	draft,
	set,
	issues,
	field,
}: FieldProps & { field: keyof typeof MEMBER_LISTS }) {
	return (
		<fieldset className="member-field">
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
	);
}

/** The logo: uploaded when chosen, its address then in the draft. */
export function LogoField({
	ids,
	set,
	supabase,
	businessId,
}: FieldProps & { supabase: PublicSupabase; businessId: string }) {
	const [logoState, setLogoState] = useState<string | null>(null);

	async function upload(file: File) {
		setLogoState('Uploading…');
		const token = await accessToken(supabase);
		const form = new FormData();
		form.set('logo', file);
		const response = await fetch(`/api/members/logo?business=${encodeURIComponent(businessId)}`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}` },
			body: form,
		}).catch(() => null);
		const body = (await response?.json().catch(() => ({}))) as { url?: string; error?: string };
		if (response?.ok && body.url) {
			set('logo_url', body.url);
			setLogoState(null);
		} else setLogoState(body?.error ?? 'The logo could not be uploaded.');
	}

	return (
		<div className="member-field">
			<label htmlFor={`${ids}-logo`}>{fieldLabel('logo_url')}</label>
			<input
				id={`${ids}-logo`}
				type="file"
				accept="image/png,image/jpeg,image/svg+xml,image/webp"
				onChange={(e) => {
					const file = e.target.files?.[0];
					if (file) void upload(file);
				}}
			/>
			{logoState && (
				<p className="member-field__error" role="status">
					{logoState}
				</p>
			)}
		</div>
	);
}
