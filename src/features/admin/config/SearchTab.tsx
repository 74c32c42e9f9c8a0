import { FILTER_VALUES, type ChamberConfig, type FilterValue } from '../../config/config.ts';
import { SORT_LABELS, SORT_VALUES, type SortValue } from '../../directory/rules.ts';
import { move, rerank } from '../admin.ts';
import { CheckboxList, Section, SelectField, Toggle } from '../fields.tsx';
import { edit } from '../store.ts';
import { type ConfigTabProps } from './config-tabs.tsx';

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
