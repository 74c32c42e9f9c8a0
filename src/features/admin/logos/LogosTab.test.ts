// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../config/config.ts';
import { advance, backend, cleanup, on, render, tabProps } from '../../ui/test-support.ts';
import LogosTab from './LogosTab.tsx';

const CURRENT = 'https://files.example/storage/v1/object/public/logos/demo/standard-1.png';
const NEW = 'https://files.example/storage/v1/object/public/logos/demo/standard-2.svg';
const config = parseConfig({ name: 'Demo', slug: 'demo', logo: { standard: CURRENT } }, 'test');

function choose(label: string, file: File) {
	const input = screen.getByLabelText(label) as HTMLInputElement;
	Object.defineProperty(input, 'files', { value: [file], configurable: true });
	fireEvent.change(input);
}

const fileInputs = () => document.querySelectorAll<HTMLInputElement>('input[type="file"]');

afterEach(() => {
	cleanup();
	vi.useRealTimers();
});

describe('LogosTab', () => {
	it('three uploads, each with its current logo or none, accepting its own types', async () => {
		await render(LogosTab, tabProps('admin', backend(), { config }));
		expect(screen.getByRole('img', { name: 'Current standard logo' }).getAttribute('src')).toBe(
			CURRENT,
		);
		screen.getByText('No stacked logo (mobile) yet');
		screen.getByText('No favicon yet');
		expect(screen.getByLabelText('Upload standard logo').getAttribute('accept')).toContain(
			'image/svg+xml',
		);
		const favicon = screen.getByLabelText('Upload favicon').getAttribute('accept')!;
		expect(favicon).toContain('image/x-icon');
		expect(favicon).not.toContain('svg');
	});

	it('uploading disables every file input, sends the multipart form, previews the new logo and clears after 1 s', async () => {
		vi.useFakeTimers();
		const { promise: answered, resolve: answer } = Promise.withResolvers<void>();
		const server = backend(
			on('POST', '/api/upload-logo', async () => {
				await answered;
				return Response.json({
					success: true,
					logoType: 'standard',
					url: NEW,
					publish: { state: 'queued' },
				});
			}),
		);
		const reloadConfig = vi.fn(async () => {});
		await render(LogosTab, tabProps('admin', server, { config, reloadConfig }));
		const file = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', {
			type: 'image/svg+xml',
		});
		choose('Upload standard logo', file);
		await screen.findByText('Uploading...');
		expect([...fileInputs()].every((input) => input.disabled)).toBe(true);
		answer();
		await screen.findByText('Logo uploaded');
		expect(screen.getByRole('img', { name: 'Current standard logo' }).getAttribute('src')).toBe(
			NEW,
		);
		expect([...fileInputs()].every((input) => !input.disabled)).toBe(true);
		await waitFor(() => expect(reloadConfig).toHaveBeenCalledOnce());

		const request = server.requests[0]!;
		expect(request.headers.get('authorization')).toBe('Bearer user-token');
		const form = request.body as FormData;
		expect(form.get('logoType')).toBe('standard');
		expect(form.get('chamber')).toBe('demo');
		expect((form.get('logo') as File).name).toBe('logo.svg');

		await advance(1_000);
		expect(screen.queryByText('Logo uploaded')).toBeNull();
	});

	it('a file over 5 MB is refused before sending', async () => {
		const server = backend();
		await render(LogosTab, tabProps('admin', server, { config }));
		choose(
			'Upload favicon',
			new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }),
		);
		await screen.findByText('File size must be under 5MB');
		expect(server.requests).toEqual([]);
	});

	it('the server’s refusal is shown under that logo; with no reason, the tab’s own text', async () => {
		let reply = () =>
			Response.json(
				{ error: 'Invalid file type. Use PNG, JPG, SVG, WebP, or ICO' },
				{ status: 400 },
			);
		await render(
			LogosTab,
			tabProps('admin', backend(on('POST', '/api/upload-logo', () => reply())), { config }),
		);
		choose(
			'Upload stacked logo (mobile)',
			new File(['not an image'], 'logo.png', { type: 'image/png' }),
		);
		const refusal = await screen.findByText('Invalid file type. Use PNG, JPG, SVG, WebP, or ICO');
		expect(refusal.closest('section')!.querySelector('h3')!.textContent).toBe(
			'Stacked Logo (Mobile)',
		);
		reply = () => new Response('upstream timeout', { status: 504 });
		choose('Upload stacked logo (mobile)', new File(['x'], 'logo.png', { type: 'image/png' }));
		await screen.findByText('Failed to upload logo');
	});

	it('an editor gets no upload', async () => {
		await render(LogosTab, tabProps('editor', backend(), { config }));
		expect(fileInputs()).toHaveLength(0);
	});
});
