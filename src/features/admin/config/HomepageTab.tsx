import type { SupabaseClient } from '../../../lib/database.ts';
import { useEffect, useState } from 'react';
import { CATEGORY_COUNT, FEATURED_COUNT, type ChamberConfig } from '../../config/config.ts';
import { CheckboxList, Section, SelectField, Toggle } from '../fields.tsx';
import { DEFAULT_MEMBERSHIP_LEVELS } from '../admin.ts';
import { edit } from '../store.ts';
import { CountField, type ConfigTabProps } from './config-tabs.tsx';

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
