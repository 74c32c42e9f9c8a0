import {
	EDITOR_FEATURE_KEYS,
	EVENTS_CALENDARS,
	MEMBER_CATEGORY_COUNT,
	MEMBER_FIELD_CHOICES,
	PUBLISH_WINDOWS,
	type ChamberConfig,
	type Features,
	type MemberFieldChoice,
} from '../../config/config.ts';
import { CheckboxList, Section, SelectField, TextArea, TextField, Toggle } from '../fields.tsx';
import { setField } from '../store.ts';
import { PUBLISH_WINDOW_LABELS } from '../../publish/policy.ts';
import { CONTENT_LABELS, FEATURE_LABELS } from './labels.ts';
import { CountField, type ConfigTabProps } from './config-tabs.tsx';

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
