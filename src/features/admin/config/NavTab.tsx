import { useId } from 'react';
import { URL_KEYS, type MenuItem, type MenuSubItem, type UrlKey } from '../../config/config.ts';
import { changeMenuItemType, move, newMenuItem } from '../admin.ts';
import { SelectField, TextField, Toggle } from '../fields.tsx';
import { edit } from '../store.ts';
import type { ConfigTabProps } from './config-tabs.tsx';
import { URL_LABELS } from './labels.ts';

// The header menu editor: add, delete (asked first), move up and down within
// bounds, link ↔ dropdown, sub-items, internal or external, a URL from the library or a path.

const CUSTOM = '__custom__';

/** A link target: one of the URL library's entries, or a path / full URL typed in. */
function UrlPicker({
	label,
	value,
	urls,
	onChange,
}: {
	label: string;
	value: string;
	urls: Record<UrlKey, string>;
	onChange(value: string): void;
}) {
	const isKey = (URL_KEYS as readonly string[]).includes(value);
	const options = [
		...URL_KEYS.map((key) => ({
			value: key as string,
			label: `${URL_LABELS[key]}${urls[key] ? ` (${urls[key]})` : ' (not set)'}`,
		})),
		{ value: CUSTOM, label: 'A path or another address' },
	];
	return (
		<div className="admin-pair">
			<SelectField
				label={`${label}: link to`}
				value={isKey ? value : CUSTOM}
				options={options}
				onChange={(v) => onChange(v === CUSTOM ? '/' : v)}
			/>
			{!isKey && (
				<TextField
					label={`${label}: path or URL`}
					value={value}
					placeholder="/search or https://"
					onChange={onChange}
				/>
			)}
		</div>
	);
}

function updateItem(index: number, update: (item: MenuItem) => MenuItem) {
	edit((d) => {
		const items = d.navigation.menuItems;
		items[index] = update(items[index]!);
	});
}

/** A menu entry's ↑ and ↓, and Delete once the person confirms it. */
function ItemActions({
	name,
	index,
	count,
	confirm,
	onMove,
	onDelete,
}: {
	name: string;
	index: number;
	count: number;
	confirm: string;
	onMove(by: -1 | 1): void;
	onDelete(): void;
}) {
	return (
		<div className="admin-menu-item__actions">
			<button
				type="button"
				aria-label={`Move ${name} up`}
				disabled={index === 0}
				onClick={() => onMove(-1)}
			>
				↑
			</button>
			<button
				type="button"
				aria-label={`Move ${name} down`}
				disabled={index === count - 1}
				onClick={() => onMove(1)}
			>
				↓
			</button>
			<button
				type="button"
				className="admin-danger"
				onClick={() => {
					if (window.confirm(confirm)) onDelete();
				}}
			>
				Delete {name}
			</button>
		</div>
	);
}

function SubItems({
	item,
	index,
	urls,
}: {
	item: MenuItem;
	index: number;
	urls: Record<UrlKey, string>;
}) {
	const subs = item.items ?? [];
	const setSubs = (next: MenuSubItem[]) => updateItem(index, (it) => ({ ...it, items: next }));
	return (
		<fieldset className="admin-fieldset">
			<legend>{item.label}: dropdown items</legend>
			{subs.length === 0 && <p className="admin-section__note">No items yet.</p>}
			<ol className="admin-subitems">
				{subs.map((sub, subIndex) => {
					const name = `${item.label} item ${subIndex + 1}`;
					const setSub = (patch: Partial<MenuSubItem>) =>
						setSubs(subs.map((s, i) => (i === subIndex ? { ...s, ...patch } : s)));
					return (
						<li key={subIndex} className="admin-menu-item admin-menu-item--sub">
							<TextField
								label={`${name}: label`}
								value={sub.label}
								onChange={(v) => setSub({ label: v })}
							/>
							<UrlPicker
								label={name}
								value={sub.url}
								urls={urls}
								onChange={(v) => setSub({ url: v })}
							/>
							<Toggle
								label={`${name}: opens on this site`}
								checked={sub.isInternal}
								onChange={(v) => setSub({ isInternal: v })}
							/>
							<ItemActions
								name={name}
								index={subIndex}
								count={subs.length}
								confirm={`Delete "${sub.label}" from ${item.label}?`}
								onMove={(by) => setSubs(move(subs, subIndex, by))}
								onDelete={() => setSubs(subs.filter((_, i) => i !== subIndex))}
							/>
						</li>
					);
				})}
			</ol>
			<button
				type="button"
				className="admin-button admin-button--secondary"
				onClick={() =>
					setSubs([...subs, { label: 'New link', url: 'mainWebsite', isInternal: false }])
				}
			>
				Add item to {item.label}
			</button>
		</fieldset>
	);
}

export function NavTab({ draft }: ConfigTabProps) {
	const items = draft.navigation.menuItems;
	const urls = draft.urls as Record<UrlKey, string>;
	const headingId = useId();
	return (
		<section className="admin-section" aria-labelledby={headingId}>
			<h3 id={headingId}>Header menu</h3>
			<ol className="admin-menu">
				{items.map((item, index) => (
					<li key={item.id} className="admin-menu-item">
						<div className="admin-grid">
							<TextField
								label={`Menu item ${index + 1}: label`}
								value={item.label}
								onChange={(v) => updateItem(index, (it) => ({ ...it, label: v }))}
							/>
							<SelectField
								label={`Menu item ${index + 1}: type`}
								value={item.type}
								options={[
									{ value: 'link', label: 'Link' },
									{ value: 'dropdown', label: 'Dropdown' },
								]}
								onChange={(v) => updateItem(index, (it) => changeMenuItemType(it, v))}
							/>
							{item.type === 'link' && (
								<>
									<UrlPicker
										label={`Menu item ${index + 1}`}
										value={item.url}
										urls={urls}
										onChange={(v) => updateItem(index, (it) => ({ ...it, url: v }))}
									/>
									<Toggle
										label={`Menu item ${index + 1}: opens on this site`}
										hint="Off: opens in a new tab."
										checked={item.isInternal}
										onChange={(v) => updateItem(index, (it) => ({ ...it, isInternal: v }))}
									/>
								</>
							)}
						</div>
						{item.type === 'dropdown' && <SubItems item={item} index={index} urls={urls} />}
						<ItemActions
							name={item.label}
							index={index}
							count={items.length}
							confirm={`Delete the menu item "${item.label}"?`}
							onMove={(by) => edit((d) => void (d.navigation.menuItems = move(items, index, by)))}
							onDelete={() =>
								edit((d) => void (d.navigation.menuItems = items.filter((_, i) => i !== index)))
							}
						/>
					</li>
				))}
			</ol>
			<button
				type="button"
				className="admin-button admin-button--secondary"
				onClick={() => edit((d) => void d.navigation.menuItems.push(newMenuItem(items)))}
			>
				Add menu item
			</button>
		</section>
	);
}
