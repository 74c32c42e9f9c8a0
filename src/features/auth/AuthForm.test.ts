// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/dom';
import { createElement, useId } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '../ui/test-support.ts';
import { NewPasswordFields, useNewPassword } from './AuthForm.tsx';

// The new password and its confirmation as the reset page and the panel's 'Change password'
// show them while someone types.

function NewPassword() {
	const newPassword = useNewPassword();
	return createElement(NewPasswordFields, {
		id: useId(),
		confirmLabel: 'Confirm password',
		...newPassword.fields,
	});
}

const type = (label: string, value: string) =>
	fireEvent.input(screen.getByLabelText(label), { target: { value } });

/** The element an input's aria-describedby names, if any. */
function description(label: string) {
	const id = screen.getByLabelText(label).getAttribute('aria-describedby');
	return id ? document.getElementById(id) : null;
}

afterEach(cleanup);

describe('NewPasswordFields', () => {
	it('says the rule under the new password, and no problem until both hold something', async () => {
		await render(NewPassword, {});
		expect(screen.getByLabelText('New password').getAttribute('type')).toBe('password');
		expect(description('New password')?.textContent).toBe('At least 6 characters.');

		type('New password', 'short');
		expect(screen.getByLabelText('Confirm password').hasAttribute('aria-invalid')).toBe(false);
		expect(description('Confirm password')).toBeNull();
	});

	it.each([
		['short', 'short', 'Password must be at least 6 characters'],
		['a-brand-new-password', 'a-different-password', 'Passwords do not match'],
	])('marks the confirmation of %s by %s wrong', async (password, confirm, problem) => {
		await render(NewPassword, {});
		type('New password', password);
		type('Confirm password', confirm);
		expect(screen.getByLabelText('Confirm password').getAttribute('aria-invalid')).toBe('true');
		expect(description('Confirm password')?.textContent).toBe(problem);
		expect(description('Confirm password')?.getAttribute('aria-live')).toBe('polite');
	});

	it('clears the problem once the two match', async () => {
		await render(NewPassword, {});
		type('New password', 'a-brand-new-password');
		type('Confirm password', 'a-brand-new-passwor');
		type('Confirm password', 'a-brand-new-password');
		expect(screen.getByLabelText('Confirm password').hasAttribute('aria-invalid')).toBe(false);
		expect(screen.queryByText('Passwords do not match')).toBeNull();
	});
});
