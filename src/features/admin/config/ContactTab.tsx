import { TIME_ZONES, type Contact, type Social } from '../../config/config.ts';
import { chamberTimeZone } from '../../config/time-zone.ts';
import { Section, SelectField, TextField } from '../fields.tsx';
import { setField } from '../store.ts';
import { CONTACT_LABELS, SOCIAL_LABELS } from './labels.ts';
import { upper2, type ConfigTabProps } from './config-tabs.tsx';

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
