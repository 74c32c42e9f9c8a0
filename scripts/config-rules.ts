/**
 * node scripts/config-rules.ts
 * Prints the SQL of public.config_rules() from the configuration's zod schema
 * (src/features/config/database-rules.ts): paste it into a new migration when the schema changes.
 */
import { configDatabaseRules } from '../src/features/config/database-rules.ts';

// One line per column, so a migration's diff shows which section changed.
const json = `{\n${Object.entries(configDatabaseRules())
	.map(([column, rule]) => `\t"${column}": ${JSON.stringify(rule)}`)
	.join(',\n')}\n}`.replaceAll("'", "''");
console.log(`create or replace function public.config_rules()
returns jsonb
language sql
immutable
set search_path = ''
as $rules$
	select '${json}'::jsonb;
$rules$;`);
