import { describe, expect, it } from 'vitest';
import { ConfigurationError, ConfigurationLoading } from './ConfigurationError.tsx';
import { render } from './render.test-helpers.ts';

describe('configuration screens', () => {
	it("shows 'Loading...' while the configuration loads", async () => {
		const { getByRole } = await render(ConfigurationLoading, {});
		expect(getByRole('status').textContent).toBe('Loading...');
	});

	it('shows the error with its message and a Refresh Page button', async () => {
		const { getByRole, getByText } = await render(ConfigurationError, {
			message: 'Failed to load chamber configuration: timeout',
		});
		expect(getByRole('heading', { name: 'Configuration Error' })).toBeTruthy();
		expect(
			getByText('Unable to load chamber configuration. Please try refreshing the page.'),
		).toBeTruthy();
		expect(getByText('Failed to load chamber configuration: timeout')).toBeTruthy();
		expect(getByRole('button', { name: 'Refresh Page' })).toBeTruthy();
	});
});
