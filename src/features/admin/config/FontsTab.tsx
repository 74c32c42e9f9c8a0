import { FONT_CHOICES, type FontChoice, type Fonts, type TextColors } from '../../config/config.ts';
import { ColorField, Section, SelectField } from '../fields.tsx';
import { setField } from '../store.ts';
import { ThemeContrast, themeOrNull } from '../../config/ThemeContrast.tsx';
import { fieldLabel, FONT_LABELS, TEXT_COLOR_LABELS } from './labels.ts';
import { type ConfigTabProps } from './config-tabs.tsx';

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
