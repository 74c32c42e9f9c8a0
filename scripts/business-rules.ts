/**
 * node scripts/business-rules.ts
 * Prints the SQL of public.business_rules() from the business fields' zod schemas
 * (src/features/members/database-rules.ts): paste it into a new migration when they change.
 */
import { rulesFunctionSql } from '../src/features/config/database-rules.ts';
import { businessDatabaseRules } from '../src/features/members/database-rules.ts';

console.log(rulesFunctionSql('business_rules', businessDatabaseRules()));
