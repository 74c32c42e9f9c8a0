import type { Colors } from '../../config/config.ts';
import { ColorField, Section } from '../fields.tsx';
import { edit } from '../store.ts';
import { ThemeContrast, themeOrNull } from '../../config/ThemeContrast.tsx';
import { COLOR_LABELS, fieldLabel } from './labels.ts';
import { type ConfigTabProps } from './config-tabs.tsx';

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
