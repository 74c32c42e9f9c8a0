import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedConfig } from '../support/db-clients.ts';
import { db, service } from '../db/clients.ts';
import { removeChamberFiles, type StaffChamber } from '../db/fixtures.ts';
import { startContractSite, type ContractSite } from './site.ts';

// The contract of POST /api/upload-logo: multipart with logo (the file), logoType (standard,
// stacked, favicon) and chamber (the slug), with a bearer token; failures carry error; the
// configuration read afterwards has the new logo.

// A 1×1 PNG: every logo type takes it.
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);

let site: ContractSite<StaffChamber<'admin'>>;

beforeAll(async () => {
	site = await startContractSite({ domain: 'contract-upload.test', staff: { admin: 'admin' } });
});
afterAll(async () => {
	if (site) await removeChamberFiles(db, 'logos', [site.chambers.tenantId]);
	await site?.close();
});

function logoForm(logoType: string, file: File) {
	const form = new FormData();
	form.set('logo', file);
	form.set('logoType', logoType);
	form.set('chamber', site.chambers.slug);
	return form;
}

const upload = (form: FormData) =>
	site.server.call('/api/upload-logo', { form, token: site.chambers.tokens.admin });

describe('POST /api/upload-logo, multipart logo, logoType, chamber, bearer token', () => {
	it.each(['standard', 'stacked', 'favicon'] as const)(
		'logoType %s: saved, and the configuration read afterwards has it',
		async (logoType) => {
			const answer = await upload(
				logoForm(logoType, new File([new Uint8Array(PNG)], 'logo.png', { type: 'image/png' })),
			);
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual(expect.objectContaining({ url: expect.any(String) }));
			expect(answer.body).not.toHaveProperty('error');
			const config = await storedConfig(service, { tenant_id: site.chambers.tenantId });
			expect(config.logo[logoType]).toBe(answer.body.url);
		},
	);

	it('response carries error on failure', async () => {
		const text = await upload(
			logoForm('standard', new File(['plain text'], 'logo.png', { type: 'image/png' })),
		);
		expect(text.status).toBe(400);
		expect(text.body).toEqual({ error: 'Invalid file type. Use PNG, JPG, SVG, WebP, or ICO' });
	});
});
