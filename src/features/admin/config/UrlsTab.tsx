import type { ChamberConfig } from '../../config/config.ts';
import { Section, TextField } from '../fields.tsx';
import { setField } from '../store.ts';
import {
	CORE_URLS,
	FOOTER_RESOURCES,
	LIBRARY_URLS,
	OTHER_FOOTER_URLS,
	URL_LABELS,
} from './labels.ts';
import { type ConfigTabProps } from './config-tabs.tsx';

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
