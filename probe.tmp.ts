import { createClient } from '@supabase/supabase-js';
import { loadOrCreateKeys } from './scripts/stack/keys.ts';
const keys = await loadOrCreateKeys('.data-test/manual');
const s = createClient('http://127.0.0.1:56341', keys.serviceKey, { auth: { persistSession: false } });
const { data: t } = await s.from('tenants').select('id').eq('slug', 'demo').single();
const { data: row } = await s.from('chamber_config').select('colors').eq('tenant_id', t!.id).single();
const mode = process.argv[2];
if (mode === 'break') {
  const r = await s.from('chamber_config').update({ colors: { ...row!.colors, primary: 'not a colour' } }).eq('tenant_id', t!.id);
  console.log('break', r.error, row!.colors.primary);
} else {
  const r = await s.from('chamber_config').update({ colors: { ...row!.colors, primary: '#1f4e3d' } }).eq('tenant_id', t!.id);
  console.log('fix', r.error);
}
