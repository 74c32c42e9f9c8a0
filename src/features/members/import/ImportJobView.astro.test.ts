import { describe, expect, it } from 'vitest';
import { render } from '../../site/render.test-helpers.ts';
import type { ImportJob } from './import.ts';
import ImportJobView from './ImportJobView.tsx';

const job: ImportJob = {
	id: '3f2a1b7c-0d4e-4f5a-8b6c-7d8e9f0a1b2c',
	tenant_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
	kind: 'file',
	source: 'members.csv',
	state: 'previewed',
	auto_apply: false,
	headers: null,
	mapping: {},
	rows_total: 2,
	rows_read: 2,
	rows_validated: 2,
	rows_applied: 0,
	counts: { added: 1, invalid: 1, missing: 300 },
	missing_action: null,
	error: null,
	requested_by_email: 'admin@demo.test',
	applied_by_email: null,
	created_at: '2026-11-25T10:00:00Z',
	updated_at: '2026-11-25T10:00:05Z',
	previewed_at: '2026-11-25T10:00:05Z',
	applied_at: null,
	publish_id: null,
	live_by: null,
};

describe('ImportJobView', () => {
	it('while the preview’s lists load, says so and counts none of them as more', async () => {
		const { getByText, queryByText, getByRole } = await render(ImportJobView as never, {
			job,
			client: null,
			getAccessToken: async () => 'token',
			onChanged() {},
			onDone() {},
		});
		expect(getByText('Loading the preview…')).toBeTruthy();
		expect(getByRole('heading', { name: 'Invalid rows (1)' })).toBeTruthy();
		expect(getByRole('heading', { name: 'Missing from the file (300)' })).toBeTruthy();
		expect(queryByText(/more\.$/)).toBeNull();
	});

	it('counts what an applied import wrote, one business as one', async () => {
		const applied = (rows_applied: number) =>
			render(ImportJobView as never, {
				job: { ...job, state: 'applied', rows_applied, publish_id: 7 },
				client: null,
				getAccessToken: async () => 'token',
				onChanged() {},
				onDone() {},
			});
		expect((await applied(1)).getByRole('status').textContent).toBe(
			'Applied members.csv: 1 business added or changed. The site is being published.',
		);
		expect((await applied(2)).getByRole('status').textContent).toMatch(
			/^Applied members\.csv: 2 businesses added or changed\./,
		);
	});
});
