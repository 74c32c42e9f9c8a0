import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../site/render.test-helpers.ts';
import MemberEditor from './MemberEditor.tsx';
import { emptyBusiness, NO_LOCATION_STATUS, type MemberDetail, type StaffRole } from './members.ts';
import { $editor, closeMember } from './store.ts';

const detail: MemberDetail = {
	business: {
		...emptyBusiness(),
		id: '7d6f1a52-3b0e-4c4e-9a55-0f2f3a1b2c3d',
		weblink_profile_id: '8100',
		report_name: 'Harbor Books',
		listings: [
			{
				description: '<p>Books by the harbor.</p>',
				short_description: 'Books',
				categories: ['Retail', 'Books'],
				keywords: 'maps',
				active: true,
				primary_listing: true,
			},
		],
		social_media: [{ platform: 'Facebook', url: 'https://facebook.example/harbor' }],
	},
	version: 3,
	status: 'published',
	updatedAt: '2026-11-25T10:00:00Z',
	updatedBy: 'bob@chamber.test',
	removedAt: null,
	overrides: [],
	location: NO_LOCATION_STATUS,
};

async function editor(role: StaffRole) {
	$editor.set({ kind: 'open', detail, draft: structuredClone(detail.business) });
	return render(MemberEditor as never, {
		deps: { chamber: 'demo', getAccessToken: async () => 'token' },
		role,
		onClose() {},
	});
}

describe('MemberEditor', () => {
	afterEach(() => closeMember());

	it('ties each control to its label and hint', async () => {
		const { getByRole } = await editor('admin');
		const position = getByRole('spinbutton', { name: 'Listing position' });
		const hint = position.ownerDocument.getElementById(position.getAttribute('aria-describedby')!);
		expect(hint?.textContent).toBe('1 is the top of the listing-position sorts.');
		expect(position.getAttribute('aria-invalid')).toBe('false');
		expect(getByRole('textbox', { name: 'Business name' }).getAttribute('value')).toBe(
			'Harbor Books',
		);
	});

	it('edits the list fields as rows: an admin adds and removes them, keywords and all', async () => {
		const { getByRole, getByText } = await editor('admin');
		expect(getByRole('textbox', { name: 'Network 1' }).getAttribute('value')).toBe('Facebook');
		expect(
			getByRole('textbox', { name: 'Listing categories 1 (comma-separated)' }).getAttribute(
				'value',
			),
		).toBe('Retail, Books');
		expect(getByRole('button', { name: 'Remove description 1' })).toBeTruthy();
		expect(getByRole('button', { name: 'Remove link 1' })).toBeTruthy();
		expect(getByRole('button', { name: 'Add web content item' })).toBeTruthy();
		expect(getByText('No web content.')).toBeTruthy();
	});

	it('an editor changes the descriptions’ texts only, and adds and removes links', async () => {
		const { getByRole, queryByRole } = await editor('editor');
		expect(getByRole('textbox', { name: 'Business name' }).hasAttribute('disabled')).toBe(true);
		expect(getByRole('textbox', { name: 'Description 1 (HTML)' }).hasAttribute('disabled')).toBe(
			false,
		);
		expect(queryByRole('textbox', { name: 'Search keywords 1' })).toBeNull();
		expect(queryByRole('button', { name: 'Remove description 1' })).toBeNull();
		expect(queryByRole('button', { name: 'Add description' })).toBeNull();
		expect(getByRole('button', { name: 'Remove link 1' })).toBeTruthy();
	});
});
