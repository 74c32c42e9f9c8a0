import { describe, expect, it } from 'vitest';
import { render } from '../site/render.test-helpers.ts';
import RowList from './RowList.tsx';

const classes = { field: 'field', error: 'field__error', button: 'button' };

const links = {
	items: [
		{ platform: 'Facebook', url: 'https://facebook.example/harbor', tags: ['books', 'maps'] },
		{ platform: 'Instagram', url: '', tags: [] },
	],
	columns: [
		{ key: 'platform', label: (n: number) => `Network ${n}` },
		{ key: 'url', label: (n: number) => `Link ${n}`, type: 'url' },
		{ key: 'tags', label: (n: number) => `Tags ${n}`, commaList: true },
	],
	blank: () => ({ platform: '', url: '', tags: [] }),
	onChange() {},
	add: 'Add link',
	remove: (n: number) => `Remove link ${n}`,
	classes,
};

describe('RowList', () => {
	it('shows each row’s texts under their numbered labels, a word list comma-separated', async () => {
		const { getByRole } = await render(RowList as never, links);
		expect(getByRole('textbox', { name: 'Network 1' }).getAttribute('value')).toBe('Facebook');
		expect(getByRole('textbox', { name: 'Link 1' }).getAttribute('type')).toBe('url');
		expect(getByRole('textbox', { name: 'Network 2' }).getAttribute('value')).toBe('Instagram');
		expect(getByRole('textbox', { name: 'Tags 1' }).getAttribute('value')).toBe('books, maps');
		expect(getByRole('textbox', { name: 'Tags 2' }).getAttribute('value')).toBe('');
	});

	it('has a Remove per row and one Add, unless rows may not be added or removed', async () => {
		const open = await render(RowList as never, links);
		expect(open.getAllByRole('button').map((b) => b.textContent)).toEqual([
			'Remove link 1',
			'Remove link 2',
			'Add link',
		]);
		const fixed = await render(RowList as never, { ...links, resizable: false });
		expect(fixed.queryAllByRole('button')).toEqual([]);
		expect(fixed.getByRole('textbox', { name: 'Network 1' }).hasAttribute('disabled')).toBe(false);
	});

	it('disabled, its texts cannot change and no row comes or goes', async () => {
		const { getByRole, queryAllByRole } = await render(RowList as never, {
			...links,
			disabled: true,
		});
		expect(getByRole('textbox', { name: 'Link 2' }).hasAttribute('disabled')).toBe(true);
		expect(queryAllByRole('button')).toEqual([]);
	});

	it('reads a text’s problems with it, under the field', async () => {
		const { getByRole, getByText } = await render(RowList as never, {
			...links,
			problems: (index: number, key: string) =>
				index === 1 && key === 'url' ? ['Enter the link'] : [],
		});
		const link = getByRole('textbox', { name: 'Link 2' });
		expect(link.getAttribute('aria-invalid')).toBe('true');
		const problem = getByText('Enter the link');
		expect(problem.className).toBe('field__error');
		expect(link.getAttribute('aria-describedby')).toBe(problem.id);
		expect(getByRole('textbox', { name: 'Link 1' }).getAttribute('aria-invalid')).toBe('false');
	});
});
