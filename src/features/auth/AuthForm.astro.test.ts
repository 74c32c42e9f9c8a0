// @vitest-environment happy-dom
import { within } from '@testing-library/dom';
import { act, createElement, useId } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { NewPasswordFields, useNewPassword } from './AuthForm.tsx';

// The new password and its confirmation as the reset page and the panel's 'Change password'
// show them while someone types.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let container: HTMLElement;

function Harness() {
	const newPassword = useNewPassword();
	return createElement(NewPasswordFields, {
		id: useId(),
		confirmLabel: 'Confirm password',
		...newPassword.fields,
	});
}

async function mount() {
	container = document.createElement('div');
	document.body.append(container);
	root = createRoot(container);
	await act(async () => root?.render(createElement(Harness)));
	return within(container);
}

/** Types a whole value as a browser would: React hears the input event. */
async function type(input: HTMLElement, value: string) {
	await act(async () => {
		const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
		setter?.call(input, value);
		input.dispatchEvent(new Event('input', { bubbles: true }));
	});
}

afterEach(async () => {
	await act(async () => root?.unmount());
	root = null;
	container?.remove();
});

describe('NewPasswordFields', () => {
	it('says the rule under the new password and nothing is wrong until both hold something', async () => {
		const screen = await mount();
		const password = screen.getByLabelText('New password');
		expect(password.getAttribute('type')).toBe('password');
		const hint = container.querySelector(
			`#${CSS.escape(password.getAttribute('aria-describedby')!)}`,
		);
		expect(hint?.textContent).toBe('At least 6 characters.');

		await type(password, 'short');
		const confirm = screen.getByLabelText('Confirm password');
		expect(confirm.hasAttribute('aria-invalid')).toBe(false);
		expect(confirm.hasAttribute('aria-describedby')).toBe(false);
	});

	it.each([
		['short', 'short', 'Password must be at least 6 characters'],
		['a-brand-new-password', 'a-different-password', 'Passwords do not match'],
	])('marks the confirmation wrong for %s / %s', async (first, second, problem) => {
		const screen = await mount();
		await type(screen.getByLabelText('New password'), first);
		const confirm = screen.getByLabelText('Confirm password');
		await type(confirm, second);
		expect(confirm.getAttribute('aria-invalid')).toBe('true');
		const error = container.querySelector(
			`#${CSS.escape(confirm.getAttribute('aria-describedby')!)}`,
		);
		expect(error?.textContent).toBe(problem);
		expect(error?.getAttribute('aria-live')).toBe('polite');
	});

	it('clears the problem once the two match', async () => {
		const screen = await mount();
		await type(screen.getByLabelText('New password'), 'a-brand-new-password');
		const confirm = screen.getByLabelText('Confirm password');
		await type(confirm, 'a-brand-new-passwor');
		await type(confirm, 'a-brand-new-password');
		expect(confirm.hasAttribute('aria-invalid')).toBe(false);
		expect(screen.queryByText('Passwords do not match')).toBeNull();
	});
});
