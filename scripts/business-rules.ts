/**
 * node scripts/business-rules.ts
 * Prints the SQL of public.business_rules() from the business fields' zod schemas
 * (src/features/members/database-rules.ts): paste it into a new migration when they change.
 */
import { businessDatabaseRules } from '../src/features/members/database-rules.ts';

// One line per field, so a migration's diff shows which field changed.
const json = `{\n${Object.entries(businessDatabaseRules())
	.map(([field, rule]) => `\t"${field}": ${JSON.stringify(rule)}`)
	.join(',\n')}\n}`.replaceAll("'", "''");
console.log(`create or replace function public.business_rules()
returns jsonb
language sql
immutable
set search_path = ''
as $rules$
	select '${json}'::jsonb;
$rules$;`);
