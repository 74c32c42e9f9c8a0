interface Props {
	types: readonly string[];
	selected: readonly string[];
	onToggle: (type: string) => void;
	onClear: () => void;
}

/** 'EVENT FILTERS:': one checkbox per event type; none checked shows every type. */
export function EventFilters({ types, selected, onToggle, onClear }: Props) {
	return (
		<fieldset className="ev-filters">
			<legend>EVENT FILTERS:</legend>
			{types.length === 0 ? (
				<p>No event types available</p>
			) : (
				<ul>
					{types.map((type) => (
						<li key={type}>
							<label>
								<input
									type="checkbox"
									checked={selected.includes(type)}
									onChange={() => onToggle(type)}
								/>
								{type.toUpperCase()}
							</label>
						</li>
					))}
				</ul>
			)}
			<button
				type="button"
				className="ev-button ev-button--quiet"
				disabled={selected.length === 0}
				onClick={onClear}
			>
				Clear Filters
			</button>
		</fieldset>
	);
}
