/**
 * node scripts/config-rules.ts
 * Prints the SQL of public.config_rules() from the configuration's zod schema
 * (src/features/config/database-rules.ts): paste it into a new migration when the schema changes.
 */
import { configDatabaseRules, rulesFunctionSql } from '../src/features/config/database-rules.ts';

console.log(rulesFunctionSql('config_rules', configDatabaseRules()));
