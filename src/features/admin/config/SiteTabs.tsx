import type { SupabaseClient } from '../../../lib/database.ts';
import { useEffect, useId, useState } from 'react';
import type { AdminRole } from '../../auth/auth.ts';
import {
	CATEGORY_COUNT,
	EDITOR_FEATURE_KEYS,
	EVENTS_CALENDARS,
	FEATURED_COUNT,
	FILTER_VALUES,
	FONT_CHOICES,
	MEMBER_CATEGORY_COUNT,
	MEMBER_FIELD_CHOICES,
	PUBLISH_WINDOWS,
	TIME_ZONES,
	type ChamberConfig,
	type Colors,
	type Contact,
	type Features,
	type FilterValue,
	type FontChoice,
	type MemberFieldChoice,
	type Social,
	type Fonts,
	type TextColors,
} from '../../config/config.ts';
import { chamberTimeZone } from '../../config/time-zone.ts';
import { SORT_LABELS, SORT_VALUES, type SortValue } from '../../directory/rules.ts';
import { countOrFallback, DEFAULT_MEMBERSHIP_LEVELS, move, rerank } from '../admin.ts';
import {
	CheckboxList,
	ColorField,
	Section,
	SelectField,
	TextArea,
	TextField,
	Toggle,
} from '../fields.tsx';
import { edit, setField } from '../store.ts';
import { PUBLISH_WINDOW_LABELS } from '../../publish/policy.ts';
import { ThemeContrast, themeOrNull } from '../../config/ThemeContrast.tsx';
import {
	COLOR_LABELS,
	fieldLabel,
	CONTACT_LABELS,
	CONTENT_LABELS,
	CORE_URLS,
	FEATURE_LABELS,
	FONT_LABELS,
	FOOTER_RESOURCES,
	IDENTITY_LABELS,
	LIBRARY_URLS,
	OTHER_FOOTER_URLS,
	SOCIAL_LABELS,
	TEXT_COLOR_LABELS,
	URL_LABELS,
} from './labels.ts';

// The configuration tabs that edit the panel's draft: nothing here saves; 'Save
// Changes' sends what differs from the saved configuration.

export interface ConfigTabProps {
	draft: ChamberConfig;
	role: AdminRole;
}

const upper2 = (value: string) =>
	value
		.toUpperCase()
		.replace(/[^A-Z]/g, '')
		.slice(0, 2);

export function IdentityTab({ draft }: ConfigTabProps) {
	return (
		<Section title="Chamber identity">
			<TextField
				label={IDENTITY_LABELS.name}
				value={draft.name}
				onChange={(v) => edit((d) => void (d.name = v))}
			/>
			<TextField
				label={IDENTITY_LABELS.slug}
				value={draft.slug}
				disabled
				hint="Set when the chamber was created; the site's addresses depend on it."
				onChange={() => {}}
			/>
			<TextField
				label={IDENTITY_LABELS.city}
				value={draft.city}
				onChange={(v) => edit((d) => void (d.city = v))}
			/>
			<TextField
				label={IDENTITY_LABELS.state}
				value={draft.state}
				maxLength={2}
				transform={upper2}
				hint="Two letters"
				onChange={(v) => edit((d) => void (d.state = v))}
			/>
			<TextField
				label={IDENTITY_LABELS.foundedYear}
				value={draft.foundedYear === null ? '' : String(draft.foundedYear)}
				maxLength={4}
				hint="Leave empty if unknown"
				transform={(v) => v.replace(/\D/g, '')}
				onChange={(v) => edit((d) => void (d.foundedYear = v === '' ? null : Number(v)))}
			/>
		</Section>
	);
}

export function ContactTab({ draft }: ConfigTabProps) {
	return (
		<>
			<Section title="Contact information">
				{(Object.keys(CONTACT_LABELS) as (keyof Contact)[])
					.filter((field) => field !== 'timeZone')
					.map((field) => (
						<TextField
							key={field}
							label={CONTACT_LABELS[field]}
							type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
							value={draft.contact[field]}
							maxLength={field === 'state' || field === 'country' ? 2 : undefined}
							transform={field === 'state' || field === 'country' ? upper2 : undefined}
							hint={
								field === 'country'
									? 'Two letters, such as US: distances on the search page are in miles or km by it.'
									: undefined
							}
							onChange={(v) => setField('contact', field, v)}
						/>
					))}
				<SelectField
					label={CONTACT_LABELS.timeZone}
					value={draft.contact.timeZone}
					hint="Dates you enter in this panel, such as Publish at, are in this time zone."
					options={[
						{
							value: '',
							label: `The usual one of the state (${chamberTimeZone({ ...draft, contact: { ...draft.contact, timeZone: '' } })})`,
						},
						...TIME_ZONES.map((zone) => ({ value: zone, label: zone })),
					]}
					onChange={(v) => setField('contact', 'timeZone', v)}
				/>
			</Section>
			<Section title="Social media links">
				{(Object.keys(SOCIAL_LABELS) as (keyof Social)[]).map((field) => (
					<TextField
						key={field}
						label={SOCIAL_LABELS[field]}
						type="url"
						placeholder="https://"
						value={draft.social[field]}
						hint="The icon shows in the footer only when set."
						onChange={(v) => setField('social', field, v)}
					/>
				))}
			</Section>
		</>
	);
}

export function UrlsTab({ draft }: ConfigTabProps) {
	const url = (key: keyof ChamberConfig['urls']) => (
		<TextField
			key={key}
			label={URL_LABELS[key]}
			type="url"
			placeholder="https://"
			value={draft.urls[key]}
			onChange={(v) => setField('urls', key, v)}
		/>
	);
	return (
		<>
			<Section title="Core URLs">{CORE_URLS.map(url)}</Section>
			<Section title="Footer resources">
				{FOOTER_RESOURCES.map(([key, labelKey]) => (
					<div className="admin-pair" key={key}>
						<TextField
							label={`${URL_LABELS[key]}: label`}
							value={draft.footerLabels[labelKey]}
							onChange={(v) => setField('footerLabels', labelKey, v)}
						/>
						{url(key)}
					</div>
				))}
			</Section>
			<Section title="Other footer links">{OTHER_FOOTER_URLS.map(url)}</Section>
			<Section title="Navigation URL library">
				<p className="admin-section__note">
					Menu items in the Nav tab can point at any of these by name.
				</p>
				{LIBRARY_URLS.map(url)}
			</Section>
		</>
	);
}

export function ColorsTab({ draft }: ConfigTabProps) {
	const c = draft.colors;
	// The preview shows what the site will use, which may differ from the choice (ThemeContrast).
	const used = themeOrNull(draft)?.colours;
	return (
		<>
			<Section title="Brand colours">
				{(Object.keys(COLOR_LABELS) as (keyof Colors)[]).map((field) => (
					<ColorField
						key={field}
						label={COLOR_LABELS[field]}
						value={c[field]}
						onChange={(v) => edit((d) => void (d.colors[field] = v))}
					/>
				))}
			</Section>
			<section className="admin-section" aria-labelledby="colors-preview">
				<h3 id="colors-preview">Preview</h3>
				{used && (
					<div className="admin-preview" style={{ background: used['--color-primary-dark'] }}>
						<div className="admin-preview__bar" style={{ background: used['--color-primary'] }}>
							<span style={{ color: used['--text-on-dark-heading'] }}>{draft.name}</span>
							<span
								className="admin-preview__button"
								style={{
									background: used['--color-secondary-light'],
									color: used['--text-on-accent'],
								}}
							>
								Join Today
							</span>
						</div>
						<div className="admin-preview__swatches" aria-hidden="true">
							{(Object.keys(COLOR_LABELS) as (keyof Colors)[]).map((field) => (
								<span key={field} style={{ background: c[field] }} title={COLOR_LABELS[field]} />
							))}
						</div>
					</div>
				)}
				<ThemeContrast source={draft} fieldLabel={fieldLabel} />
			</section>
		</>
	);
}

const fontOptions = FONT_CHOICES.map((font) => ({ value: font, label: font }));

export function FontsTab({ draft }: ConfigTabProps) {
	const t = draft.textColors;
	const font = (name: FontChoice) => `'${name}', system-ui, sans-serif`;
	// The preview shows what the site will use, which may differ from the choice (ThemeContrast).
	const used = themeOrNull(draft)?.colours;
	return (
		<>
			<Section title="Fonts">
				{(Object.keys(FONT_LABELS) as (keyof Fonts)[]).map((field) => (
					<SelectField
						key={field}
						label={FONT_LABELS[field]}
						value={draft.fonts[field]}
						options={fontOptions}
						onChange={(v) => setField('fonts', field, v)}
					/>
				))}
			</Section>
			<Section title="Text colours">
				{(Object.keys(TEXT_COLOR_LABELS) as (keyof TextColors)[]).map((field) => (
					<ColorField
						key={field}
						label={TEXT_COLOR_LABELS[field]}
						value={t[field]}
						onChange={(v) => setField('textColors', field, v)}
					/>
				))}
			</Section>
			<section className="admin-section" aria-labelledby="fonts-preview">
				<h3 id="fonts-preview">Preview</h3>
				<p className="admin-section__note">Changes show here at once and go live when saved.</p>
				{used && (
					<div className="admin-type-preview">
						<div>
							<div
								className="admin-type-preview__heading"
								style={{ fontFamily: font(draft.fonts.heading), color: used['--text-heading'] }}
							>
								{draft.content.heroTitle}
							</div>
							<p style={{ fontFamily: font(draft.fonts.body), color: used['--text-body'] }}>
								{draft.content.heroSubtitle}{' '}
								<span className="admin-type-preview__link" style={{ color: used['--text-link'] }}>
									A link
								</span>{' '}
								<span
									className="admin-type-preview__link"
									style={{ color: used['--text-link-hover'] }}
								>
									A link on hover
								</span>
							</p>
						</div>
						<div style={{ background: used['--color-primary-dark'] }}>
							<div
								className="admin-type-preview__heading"
								style={{
									fontFamily: font(draft.fonts.heading),
									color: used['--text-on-dark-heading'],
								}}
							>
								{draft.content.whyJoinTitle}
							</div>
							<p style={{ fontFamily: font(draft.fonts.body), color: used['--text-on-dark-body'] }}>
								{draft.content.footerTagline}
							</p>
						</div>
					</div>
				)}
				<ThemeContrast source={draft} fieldLabel={fieldLabel} />
			</section>
		</>
	);
}

const TEXTS: (keyof ChamberConfig['content'])[] = [
	'heroTitle',
	'heroSubtitle',
	'directoryTitle',
	'featuredTitle',
	'categoriesTitle',
	'whyJoinTitle',
	'whyJoinText',
	'whyJoinButtonText',
	'footerTagline',
	'copyrightText',
	'sidebarTitle',
	'sidebarTagline',
	'sidebarButtonText',
];
const LONG_TEXTS = new Set(['heroSubtitle', 'whyJoinText', 'sidebarTagline']);
const CALENDAR_LABELS: Record<(typeof EVENTS_CALENDARS)[number], string> = {
	events: 'Events (calendar)',
	'community-events': 'Community events',
	'events-list': 'Events list',
};

/** A meta description is cut at 160 characters. */
const META_DESCRIPTION_MAX = 160;

/** How each field a member may be let change is named in the Member updates settings. */
const MEMBER_FIELD_LABELS: Record<MemberFieldChoice, string> = {
	listings: 'Descriptions',
	web_content: 'Web content',
	work_phone: 'Phone',
	hours: 'Opening hours',
	website: 'Website',
	social_media: 'Social links',
	logo_url: 'Logo',
	categories: 'Categories',
};

/** The member-update switches have their own section, not the Display toggles. */
const MEMBER_UPDATE_KEYS: ReadonlySet<keyof Features> = new Set([
	'memberUpdates',
	'memberEditorsApprove',
]);

export function ContentTab({ draft, role }: ConfigTabProps) {
	const content = draft.content;
	const editorOnly = role === 'editor';
	const toggles = (Object.keys(FEATURE_LABELS) as (keyof Features)[]).filter(
		(key) =>
			typeof draft.features[key] === 'boolean' &&
			!MEMBER_UPDATE_KEYS.has(key) &&
			(!editorOnly || (EDITOR_FEATURE_KEYS as readonly string[]).includes(key)),
	);
	const memberOptions = MEMBER_FIELD_CHOICES.map((value) => ({
		value,
		label: MEMBER_FIELD_LABELS[value],
	}));
	return (
		<>
			<Section title="Page texts">
				{TEXTS.map((field) =>
					LONG_TEXTS.has(field) ? (
						<TextArea
							key={field}
							label={CONTENT_LABELS[field]}
							value={content[field]}
							onChange={(v) => setField('content', field, v)}
						/>
					) : (
						<TextField
							key={field}
							label={CONTENT_LABELS[field]}
							value={content[field]}
							onChange={(v) => setField('content', field, v)}
						/>
					),
				)}
			</Section>
			<Section title="Events">
				<TextField
					label={CONTENT_LABELS.eventsTabLabel}
					value={content.eventsTabLabel}
					onChange={(v) => setField('content', 'eventsTabLabel', v)}
				/>
				<TextField
					label={CONTENT_LABELS.communityEventsTabLabel}
					value={content.communityEventsTabLabel}
					onChange={(v) => setField('content', 'communityEventsTabLabel', v)}
				/>
				<SelectField
					label={CONTENT_LABELS.defaultEventsCalendar}
					value={content.defaultEventsCalendar}
					options={EVENTS_CALENDARS.map((value) => ({ value, label: CALENDAR_LABELS[value] }))}
					hint="Where the site's Events links lead."
					onChange={(v) => setField('content', 'defaultEventsCalendar', v)}
				/>
			</Section>
			<Section title="Search engines">
				<TextArea
					label={CONTENT_LABELS.metaDescription}
					value={content.metaDescription}
					maxLength={META_DESCRIPTION_MAX}
					counter
					onChange={(v) => setField('content', 'metaDescription', v)}
				/>
				<TextField
					label={CONTENT_LABELS.metaKeywords}
					value={content.metaKeywords}
					hint="Separated by commas"
					onChange={(v) => setField('content', 'metaKeywords', v)}
				/>
			</Section>
			<Section title="Display">
				{toggles.map((key) => (
					<Toggle
						key={key}
						label={FEATURE_LABELS[key]}
						checked={draft.features[key] as boolean}
						onChange={(v) => setField('features', key, v)}
					/>
				))}
				<TextField
					label={FEATURE_LABELS.featuredEventId}
					value={
						draft.features.featuredEventId === null ? '' : String(draft.features.featuredEventId)
					}
					hint="The event's number from the events system; empty for none."
					transform={(v) => v.replace(/\D/g, '')}
					onChange={(v) => setField('features', 'featuredEventId', v === '' ? null : Number(v))}
				/>
				{!editorOnly && (
					<>
						<SelectField
							label={FEATURE_LABELS.memberBadgeDisplay}
							value={draft.features.memberBadgeDisplay}
							options={[
								{ value: 'level', label: 'Membership level' },
								{ value: 'year', label: "'Member Since' year" },
							]}
							onChange={(v) => setField('features', 'memberBadgeDisplay', v)}
						/>
						<SelectField
							label={FEATURE_LABELS.businessDetailLayout}
							value={draft.features.businessDetailLayout}
							options={[
								{ value: 'classic', label: 'Classic' },
								{ value: 'modern', label: 'Modern' },
							]}
							onChange={(v) => setField('features', 'businessDetailLayout', v)}
						/>
					</>
				)}
			</Section>
			{!editorOnly && (
				<Section title="Member updates">
					<Toggle
						label={FEATURE_LABELS.memberUpdates}
						checked={draft.features.memberUpdates}
						onChange={(v) => setField('features', 'memberUpdates', v)}
					/>
					<CheckboxList<MemberFieldChoice>
						legend={FEATURE_LABELS.memberFields}
						values={draft.features.memberFields}
						options={memberOptions}
						onChange={(v) =>
							setField(
								'features',
								'memberFields',
								MEMBER_FIELD_CHOICES.filter((x) => v.includes(x)),
							)
						}
					/>
					<CheckboxList<MemberFieldChoice>
						legend={FEATURE_LABELS.memberLiveFields}
						values={draft.features.memberLiveFields}
						options={memberOptions}
						onChange={(v) =>
							setField(
								'features',
								'memberLiveFields',
								MEMBER_FIELD_CHOICES.filter((x) => v.includes(x)),
							)
						}
					/>
					<CountField
						label={FEATURE_LABELS.memberMaxCategories}
						value={draft.features.memberMaxCategories}
						range={MEMBER_CATEGORY_COUNT}
						onChange={(v) => setField('features', 'memberMaxCategories', v)}
					/>
					<Toggle
						label={FEATURE_LABELS.memberEditorsApprove}
						checked={draft.features.memberEditorsApprove}
						onChange={(v) => setField('features', 'memberEditorsApprove', v)}
					/>
					<SelectField
						label={FEATURE_LABELS.publishWindow}
						value={draft.features.publishWindow}
						options={PUBLISH_WINDOWS.map((value) => ({
							value,
							label: PUBLISH_WINDOW_LABELS[value],
						}))}
						hint="Changes members make themselves, the membership system's sync and imports are published together, at most once in this time. Staff saves publish at once and take them along."
						onChange={(v) => setField('features', 'publishWindow', v)}
					/>
				</Section>
			)}
		</>
	);
}

interface Option {
	name: string;
	count: number;
}

type Load = { kind: 'loading' } | { kind: 'ready'; options: Option[] } | { kind: 'failed' };

/** The chamber's membership levels and affiliations, for the featured-businesses choices. */
function useOptions(
	client: SupabaseClient,
	chamberId: string,
	kind: 'levels' | 'affiliations',
): Load {
	const [load, setLoad] = useState<Load>({ kind: 'loading' });
	useEffect(() => {
		let live = true;
		void (async () => {
			const { data, error } =
				kind === 'levels'
					? await client.rpc('get_membership_levels', { p_tenant_id: chamberId })
					: await client.rpc('get_filter_options', {
							p_tenant_id: chamberId,
							p_type: 'affiliations',
						});
			if (!live) return;
			if (error || !Array.isArray(data)) setLoad({ kind: 'failed' });
			else
				setLoad({
					kind: 'ready',
					options: data.map((o) => ({ name: o.name, count: Number(o.count) })),
				});
		})();
		return () => {
			live = false;
		};
	}, [client, chamberId, kind]);
	return load;
}

export function HomepageTab({
	draft,
	client,
	chamberId,
}: ConfigTabProps & { client: SupabaseClient; chamberId: string }) {
	const featured = draft.featuredBusinesses;
	const levels = useOptions(client, chamberId, 'levels');
	const affiliations = useOptions(client, chamberId, 'affiliations');
	// Levels that cannot be loaded fall back to the default list; none found → Member.
	const levelNames =
		levels.kind === 'failed'
			? [...DEFAULT_MEMBERSHIP_LEVELS]
			: levels.kind === 'ready'
				? levels.options.length
					? levels.options.map((o) => o.name.toLowerCase())
					: ['member']
				: [];
	const levelOptions = [...new Set([...levelNames, ...featured.membershipLevels])].map((name) => ({
		value: name,
		label: name.replace(/\b\w/g, (c) => c.toUpperCase()),
	}));
	const set = (update: (f: ChamberConfig['featuredBusinesses']) => void) =>
		edit((d) => update(d.featuredBusinesses));
	return (
		<>
			<Section title="Featured businesses">
				<SelectField
					label="Strategy"
					value={featured.strategy}
					options={[
						{ value: 'membership', label: 'By membership level' },
						{ value: 'affiliation', label: 'By affiliation' },
						{ value: 'random', label: 'Random' },
					]}
					onChange={(v) => set((f) => void (f.strategy = v))}
				/>
				<CountField
					label="How many"
					value={featured.count}
					range={FEATURED_COUNT}
					onChange={(v) => set((f) => void (f.count = v))}
				/>
				<Toggle
					label="Only businesses with a complete profile"
					hint="A phone or website, and an address."
					checked={featured.requireCompleteProfile}
					onChange={(v) => set((f) => void (f.requireCompleteProfile = v))}
				/>
				{featured.strategy === 'membership' &&
					(levels.kind === 'loading' ? (
						<p role="status">Loading membership levels...</p>
					) : (
						<CheckboxList
							legend="Membership levels"
							values={featured.membershipLevels}
							options={levelOptions}
							onChange={(v) => set((f) => void (f.membershipLevels = v))}
						/>
					))}
				{featured.strategy === 'affiliation' && (
					<>
						<SelectField
							label="Affiliation"
							value={featured.affiliation ?? ''}
							options={[
								{ value: '', label: 'Choose an affiliation' },
								...(affiliations.kind === 'ready' ? affiliations.options : []).map((o) => ({
									value: o.name,
									label: `${o.name} (${o.count} ${o.count === 1 ? 'member' : 'members'})`,
								})),
							]}
							onChange={(v) => set((f) => void (f.affiliation = v || undefined))}
						/>
						<Toggle
							label="Show the View All button"
							checked={featured.showViewAllButton}
							onChange={(v) => set((f) => void (f.showViewAllButton = v))}
						/>
					</>
				)}
			</Section>
			<Section title="Category cards">
				<CountField
					label="How many cards"
					value={draft.categoryDisplay.count}
					range={CATEGORY_COUNT}
					hint="Shown in rows of 4."
					onChange={(v) => edit((d) => void (d.categoryDisplay.count = v))}
				/>
				<SelectField
					label="Sort"
					value={draft.categoryDisplay.sortBy}
					options={[
						{ value: 'popularity', label: 'Most businesses first' },
						{ value: 'alphabetical', label: 'Alphabetical' },
					]}
					onChange={(v) => edit((d) => void (d.categoryDisplay.sortBy = v))}
				/>
			</Section>
		</>
	);
}

/** A number field that stores what the schema would (out of range → the fallback). */
function CountField({
	label,
	value,
	range,
	hint,
	onChange,
}: {
	label: string;
	value: number;
	range: { min: number; max: number; fallback: number };
	hint?: string;
	onChange(value: number): void;
}) {
	const id = useId();
	const [text, setText] = useState(String(value));
	// A new value from outside (a reload, a restore) replaces what is typed.
	const [shown, setShown] = useState(value);
	if (shown !== value) {
		setShown(value);
		setText(String(value));
	}
	return (
		<div className="admin-field">
			<label htmlFor={id}>{label}</label>
			<input
				id={id}
				type="number"
				min={range.min}
				max={range.max}
				value={text}
				aria-describedby={`${id}-hint`}
				onChange={(e) => setText(e.target.value)}
				onBlur={() => {
					const next = countOrFallback(text, range);
					setText(String(next));
					onChange(next);
				}}
			/>
			<p id={`${id}-hint`} className="admin-field__hint">
				{range.min} to {range.max}; anything else becomes {range.fallback}.{hint ? ` ${hint}` : ''}
			</p>
		</div>
	);
}

const FILTER_LABELS: Record<FilterValue, string> = {
	city: 'City',
	county: 'County',
	zip: 'ZIP code',
	affiliation: 'Member group (affiliation)',
};

export function SearchTab({ draft }: ConfigTabProps) {
	const search = draft.searchPage;
	const sortOptions = SORT_VALUES.map((value) => ({ value, label: SORT_LABELS[value] }));
	const set = (update: (s: ChamberConfig['searchPage']) => void) =>
		edit((d) => update(d.searchPage));
	const tiers = search.membershipHierarchy;
	return (
		<>
			<Section title="Sorting">
				<SelectField<SortValue>
					label="Default sort"
					value={search.defaultSort}
					options={sortOptions}
					onChange={(v) => set((s) => void (s.defaultSort = v))}
				/>
				<Toggle
					label="Show the Sort by dropdown"
					checked={search.showSortDropdown}
					onChange={(v) => set((s) => void (s.showSortDropdown = v))}
				/>
				<CheckboxList<SortValue>
					legend="Sorts offered"
					values={search.availableSorts}
					options={sortOptions}
					onChange={(v) =>
						set((s) => void (s.availableSorts = SORT_VALUES.filter((x) => v.includes(x))))
					}
				/>
			</Section>
			<Section title="Filters">
				<Toggle
					label="Show More Filters"
					checked={search.showFilters}
					onChange={(v) => set((s) => void (s.showFilters = v))}
				/>
				<CheckboxList<FilterValue>
					legend="Filters offered"
					values={search.availableFilters}
					options={FILTER_VALUES.map((value) => ({ value, label: FILTER_LABELS[value] }))}
					onChange={(v) =>
						set((s) => void (s.availableFilters = FILTER_VALUES.filter((x) => v.includes(x))))
					}
				/>
			</Section>
			<section className="admin-section" aria-labelledby="tier-ranking">
				<h3 id="tier-ranking">Membership tier ranking</h3>
				<p className="admin-section__note">
					Higher tiers list first when sorting by membership level.
				</p>
				<ol className="admin-ranking">
					{tiers.map((tier, index) => (
						<li key={tier.name}>
							<span className="admin-ranking__name">{tier.name}</span>
							<span className="admin-ranking__rank">Rank {tier.rank}</span>
							<button
								type="button"
								aria-label={`Move ${tier.name} up`}
								disabled={index === 0}
								onClick={() =>
									set((s) => void (s.membershipHierarchy = rerank(move(tiers, index, -1))))
								}
							>
								↑
							</button>
							<button
								type="button"
								aria-label={`Move ${tier.name} down`}
								disabled={index === tiers.length - 1}
								onClick={() =>
									set((s) => void (s.membershipHierarchy = rerank(move(tiers, index, 1))))
								}
							>
								↓
							</button>
						</li>
					))}
				</ol>
			</section>
		</>
	);
}
