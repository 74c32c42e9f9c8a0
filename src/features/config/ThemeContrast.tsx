import { useId } from 'react';
import { formatRatio } from './contrast.ts';
import { resolveTheme, type ResolvedTheme, type ThemePair } from './theme.ts';
import type { ChamberConfig } from './config.ts';
import { ColumnHeads } from '../ui/ColumnHeads.tsx';
import './ThemeContrast.css';

type ColourSource = Pick<ChamberConfig, 'colors' | 'textColors'>;

interface Props {
	/** The colours as they stand in the form, saved or not. */
	source: ColourSource;
	/** The names the form gives the colour fields ('colors.primary' → 'Primary'). */
	fieldLabel: (field: string) => string;
	/** The level of its heading, one below the section it sits in (the panel's tabs have h2). */
	headingLevel?: 2 | 3;
}

/** The theme the site would use for `source`; null while a colour is not a hex colour yet. */
export function themeOrNull(source: ColourSource): ResolvedTheme | null {
	try {
		return resolveTheme(source);
	} catch {
		return null;
	}
}

/**
 * Each text/background pair the site makes from the colours being edited: its ratio as chosen,
 * what the site will use and its ratio, and a line for each colour the site adjusts. The panel's
 * Colours and Fonts tabs and the generator's Branding tab show it, so a chamber learns before it
 * saves what its colours will look like.
 */
export function ThemeContrast({ source, fieldLabel, headingLevel = 3 }: Props) {
	const id = useId();
	const Heading = `h${headingLevel}` as const;
	const theme = themeOrNull(source);
	const adjusted = theme?.pairs.filter((p) => p.adjusted) ?? [];
	return (
		<section className="theme-contrast" aria-labelledby={`${id}-title`}>
			<Heading id={`${id}-title`}>Contrast</Heading>
			<p className="theme-contrast__note">
				Every text colour must reach 4.5:1 on its background, and the focus outline 3:1 (WCAG 2.2
				AA). Where a chosen colour does not, the site uses the nearest one that does.
			</p>
			<p className="theme-contrast__summary" role="status">
				{!theme
					? 'Enter hex colours like #0d3e63 to see their contrast.'
					: adjusted.length === 0
						? 'All colours are used as chosen.'
						: `${adjusted.length} of ${theme.pairs.length} pairs are adjusted for contrast.`}
			</p>
			{theme && (
				<table className="theme-contrast__table">
					<ColumnHeads names={['Where', 'As chosen', 'The site uses']} />
					<tbody>
						{theme.pairs.map((pair) => (
							<Row key={pair.id} pair={pair} fieldLabel={fieldLabel} />
						))}
					</tbody>
				</table>
			)}
		</section>
	);
}

function Row({ pair, fieldLabel }: { pair: ThemePair; fieldLabel: Props['fieldLabel'] }) {
	const background = pair.backgrounds[0]!;
	const changes = [pair.foreground, ...pair.backgrounds].filter(
		(c) => c.field && c.chosen !== c.used,
	);
	const outline = pair.id === 'focus';
	return (
		<tr data-pair={pair.id}>
			<th scope="row">{pair.label}</th>
			<td>
				<span className="theme-contrast__swatches" aria-hidden="true">
					<span style={{ background: pair.foreground.chosen }} />
					{pair.backgrounds.map((b, i) => (
						<span key={i} style={{ background: b.chosen }} />
					))}
				</span>
				<span className="theme-contrast__ratio">{formatRatio(pair.chosenRatio)}</span>
				{pair.chosenRatio < pair.minimum && (
					<span className="theme-contrast__below"> below {pair.minimum}:1</span>
				)}
			</td>
			<td>
				<span
					className="theme-contrast__sample"
					aria-hidden="true"
					style={
						outline
							? { outline: `3px solid ${pair.foreground.used}`, background: background.used }
							: { color: pair.foreground.used, background: background.used }
					}
				>
					{outline ? '' : 'Aa'}
				</span>
				<span className="theme-contrast__ratio">{formatRatio(pair.usedRatio)}</span>
				{changes.length === 0 ? (
					<span> as chosen</span>
				) : (
					<ul className="theme-contrast__changes">
						{changes.map((c) => (
							<li key={c.field}>
								Adjusted: {fieldLabel(c.field!)} {c.chosen} → {c.used}
							</li>
						))}
					</ul>
				)}
			</td>
		</tr>
	);
}
