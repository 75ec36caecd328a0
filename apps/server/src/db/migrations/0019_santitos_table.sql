-- The table of santitos said "agents"; only its name and its constraints' names change, the rows stay.
ALTER TABLE IF EXISTS "agents" RENAME TO "santitos";--> statement-breakpoint
ALTER INDEX IF EXISTS "agents_domain_name_idx" RENAME TO "santitos_domain_name_idx";--> statement-breakpoint
DO $$
DECLARE
  pair text[];
BEGIN
  FOREACH pair SLICE 1 IN ARRAY ARRAY[
    ['santitos', 'agents_pkey', 'santitos_pkey'],
    ['santitos', 'agents_domain_id_domains_id_fk', 'santitos_domain_id_domains_id_fk'],
    ['santitos', 'agents_department_id_departments_id_fk', 'santitos_department_id_departments_id_fk'],
    ['chats', 'chats_agent_id_agents_id_fk', 'chats_agent_id_santitos_id_fk'],
    ['virtual_accounts', 'virtual_accounts_agent_id_agents_id_fk', 'virtual_accounts_agent_id_santitos_id_fk']
  ] LOOP
    IF EXISTS (SELECT 1 FROM pg_constraint WHERE conname = pair[2]) THEN
      EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I', pair[1], pair[2], pair[3]);
    END IF;
  END LOOP;
END $$;
