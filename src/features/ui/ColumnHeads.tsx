/** A table's header row of plain column names: `<thead>` with a `<th scope="col">` each. */
export function ColumnHeads({ names }: { names: readonly string[] }) {
	return (
		<thead>
			<tr>
				{names.map((name) => (
					<th key={name} scope="col">
						{name}
					</th>
				))}
			</tr>
		</thead>
	);
}
