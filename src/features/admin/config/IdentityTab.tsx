import { Section, TextField } from '../fields.tsx';
import { edit } from '../store.ts';
import { IDENTITY_LABELS } from './labels.ts';
import { upper2, type ConfigTabProps } from './config-tabs.tsx';

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
